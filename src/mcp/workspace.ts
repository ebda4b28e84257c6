// What the MCP tools run on: one opened workspace, the recall sink for its searches, and who is calling.
import type { RecallSink } from '../chat/recall-hook.js'
import type { Clock } from '../clock.js'
import type { DreamlaneInternals } from '../create.js'

/** The workspace an MCP server serves. */
export interface McpWorkspace {
  dreamlane: DreamlaneInternals
  clock: Clock
  /** Told every memory_search, so the hits count as recall for promotion. */
  recall: RecallSink
}

export interface McpHost {
  /**
   * The workspace, opened on first use: `dreamlane mcp` answers the handshake before it opens any database,
   * and nothing it opens takes the workspace lock (the use cases take it when they write).
   */
  workspace(): Promise<McpWorkspace>
  /** Where a bug's stack goes; tools answer with a generic error instead. */
  logBug(error: unknown, tool: string): void
}

const CLIENT_NAME_CHARS = 60

/**
 * The chat id a client's searches and dreams count under: `mcp:<client name>` from the MCP handshake, so
 * recall and run records say which assistant asked.
 */
export function clientChatJid(clientName: string | undefined): string {
  const name = (clientName ?? '')
    .replace(/[^A-Za-z0-9._@-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, CLIENT_NAME_CHARS)
  return `mcp:${name || 'client'}`
}

export interface LazyHostOptions {
  /** Opens the workspace; called on first use, and again after a failed attempt. */
  open(): McpWorkspace | Promise<McpWorkspace>
  logBug: McpHost['logBug']
}

/** An McpHost that opens its workspace when a tool, resource or prompt first needs it. */
export function lazyMcpHost(options: LazyHostOptions): McpHost & { opened(): McpWorkspace | null } {
  let opening: Promise<McpWorkspace> | null = null
  let ready: McpWorkspace | null = null
  return {
    workspace() {
      opening ??= Promise.resolve()
        .then(() => options.open())
        .then((ws) => (ready = ws))
        .catch((error: unknown) => {
          // A workspace fixed meanwhile (say, `dreamlane init` run) is picked up by the next call.
          opening = null
          throw error
        })
      return opening
    },
    opened: () => ready,
    logBug: options.logBug,
  }
}
