// Wires one workspace's Dreamlane, assistant and event hub together, so dream progress and replies reach open pages.
import { pino, type Logger } from 'pino'
import { systemClock, type Clock } from '../clock.js'
import { createAssistant, type Assistant } from '../chat/assistant.js'
import { selectChatProvider } from '../chat/chat-provider.js'
import { recallSinkFor, type RecallSink } from '../chat/recall-hook.js'
import { openDreamlane, type DreamlaneInternals, type DreamlaneOptions } from '../create.js'
import type { PostedSummary } from '../dream/types.js'
import type { FleetSummary } from '../fleet/summary.js'
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../mcp/http.js'
import { lazyMcpHost } from '../mcp/workspace.js'
import type { ModelProvider } from '../model/provider.js'
import { EventHub } from './events.js'

export interface ServerHost {
  dreamlane: DreamlaneInternals
  assistant: Assistant
  hub: EventHub
  /** The MCP endpoint at /mcp: its tools share this host's workspace, queue and recall sink. */
  mcp: McpHttpEndpoint
  clock: Clock
  log: Logger
  /** With `serve --fleet`: the fleet summary the Dreams page shows. @default none */
  fleet?: { summary(): Promise<FleetSummary> }
}

export interface ServerHostOptions extends DreamlaneOptions {
  /** The model for chat replies. @default the configured provider for `env` (offline → the assistant quotes notes) */
  chatProvider?: ModelProvider
  /** Told each interactive search. @default recorded as recall events in state.db */
  onRecall?: RecallSink
}

export function openServerHost(options: ServerHostOptions): ServerHost {
  const clock = options.clock ?? systemClock
  const log = options.logger ?? pino({ level: 'warn' }, pino.destination(2))
  let hub: EventHub | null = null
  const dreamlane = openDreamlane({
    // The server answers chat and the API on this event loop: its dreams run on their own thread.
    dreamThread: true,
    ...options,
    clock,
    logger: log,
    onEvent: (event) => {
      options.onEvent?.(event)
      hub?.publishDream(event)
    },
    onSummary: async (summary) => {
      await options.onSummary?.(summary)
      publishSummary(summary)
    },
  })
  hub = new EventHub(dreamlane.paths.workspace)
  const events = hub

  /** Manual runs post their summary as a bot message; pages see it like any other new message. */
  function publishSummary(summary: PostedSummary): void {
    if (summary.message) events.publishMessage({ ...summary.message, role: 'assistant' })
  }

  const recall = options.onRecall ?? recallSinkFor(dreamlane, clock, log)
  const assistant = createAssistant({
    dreamlane,
    clock,
    log,
    provider: options.chatProvider ?? selectChatProvider(dreamlane, options.env ?? process.env, log),
    onRecall: recall,
    onMessage: (message) => events.publishMessage(message),
  })
  const mcp = createMcpHttpEndpoint(
    lazyMcpHost({
      open: () => ({ dreamlane, clock, recall }),
      logBug: (error, tool) => log.error({ err: error, tool }, 'MCP tool failed'),
    }),
  )
  return { dreamlane, assistant, hub, mcp, clock, log }
}
