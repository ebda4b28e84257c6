// memory_search, memory_read and memory_note: an assistant's way into the notes, through the same tools and
// path policy a chat turn gets, and the note use case.
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { appendNote, MAX_NOTE_BYTES } from '../app/note.js'
import { PathOutOfScopeError } from '../errors.js'
import { normalizeToolPath } from '../tools/scope.js'
import type { ToolResult, ToolSet } from '../tools/types.js'
import { errorResult, guarded, textResult } from './results.js'
import type { McpHost, McpWorkspace } from './workspace.js'

/** Most hits one memory_search returns (the runtime's tools.maxResults may cap it lower). */
const MAX_SEARCH_LIMIT = 50

const searchInput = {
  query: z.string().trim().min(1).max(500).describe('Words to look for (full-text, ranked)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe('Most hits to return (default 10)'),
}
const readInput = {
  path: z
    .string()
    .min(1)
    .max(1000)
    .describe('A note path from memory_search, e.g. notes/daily/2026-11-20.md'),
}
const noteInput = {
  text: z
    .string()
    .refine((text) => text.trim() !== '', 'the note is empty')
    .refine(
      (text) => Buffer.byteLength(text) <= MAX_NOTE_BYTES,
      `the note is longer than ${MAX_NOTE_BYTES} bytes; note the gist`,
    )
    .describe('What to remember, in one or a few short lines'),
}

export function registerMemoryTools(server: McpServer, host: McpHost, chatJid: () => string): void {
  server.registerTool(
    'memory_search',
    {
      title: 'Search memory',
      description:
        "Ranked full-text search over the user's notes and memory files. Returns JSON " +
        '{"hits":[{path,line,snippet,score}]}, best first; memory_read a hit for the whole note.',
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(host, 'memory_search', async () => {
        const ws = await host.workspace()
        const result = await (await readTools(ws, chatJid())).call('search_workspace', input)
        return toolResult(result, ws.dreamlane.config.privacy.keepSecretKinds)
      }),
  )

  server.registerTool(
    'memory_read',
    {
      title: 'Read a note',
      description: 'Read one note under notes/ (daily notes and memory files) as raw markdown.',
      inputSchema: readInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(host, 'memory_read', async () => {
        const rel = normalizeToolPath(input.path)
        if (rel !== 'notes' && !rel.startsWith('notes/'))
          throw new PathOutOfScopeError(input.path, 'memory_read reads notes only (paths under notes/)')
        const ws = await host.workspace()
        const result = await (await readTools(ws, chatJid())).call('read_file', { path: rel })
        return toolResult(result, ws.dreamlane.config.privacy.keepSecretKinds)
      }),
  )

  server.registerTool(
    'memory_note',
    {
      title: 'Note something to remember',
      description:
        'Append a short note to today\'s daily note under "Noted" (never edits memory files; the next ' +
        'dream files it). Use when the user asks you to remember something.',
      inputSchema: noteInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input) =>
      guarded(host, 'memory_note', async () => {
        const { dreamlane, clock } = await host.workspace()
        const { paths, config, state } = dreamlane
        const result = await appendNote({ paths, config, state, clock }, input.text)
        return textResult(`Noted in ${result.path}: ${result.entry}`)
      }),
  )
}

/**
 * The read-only tools a chat turn gets, with recall recorded under the calling client's chat id. Loaded on
 * first use (the FTS index and SQLite come with them), so the handshake does not wait for them.
 */
async function readTools(ws: McpWorkspace, jid: string): Promise<ToolSet> {
  const [{ createLookupToolSet }, { readFileTool }, { searchWorkspaceTool }] = await Promise.all([
    import('../tools/tool-set.js'),
    import('../tools/note-tools.js'),
    import('../tools/search-tools.js'),
  ])
  const { dreamlane, clock } = ws
  return createLookupToolSet(
    dreamlane,
    clock,
    (query, hits) => ws.recall({ chatJid: jid, query, hits, at: clock.now() }),
    { tools: [searchWorkspaceTool, readFileTool], maxCalls: 1 },
  )
}

function toolResult(result: ToolResult, keepKinds: readonly SecretKind[]) {
  if (!result.ok) return errorResult(result.code ?? 'TOOL_FAILED', result.content)
  // The index already withholds secrets; a note read whole may predate the dream that cleans it. A kind the user
  // keeps is kept here as in the notes and the index.
  return textResult(withholdSecrets(result.content, { keepKinds }).text)
}
