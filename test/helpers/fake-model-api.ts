// One driver over both fake model APIs (Anthropic Messages, OpenAI-compatible chat completions), so a contract
// test is written once and runs against each provider on its own wire format.
import { createAnthropicProvider } from '../../src/model/anthropic.js'
import { createOpenAiCompatibleProvider } from '../../src/model/openai-compatible.js'
import type { ModelProvider, TurnUsage } from '../../src/model/provider.js'
import type { ProviderRequestOptions } from '../../src/model/retry.js'
import type { ToolSpec } from '../../src/tools/types.js'
import {
  anthropicReply,
  startScriptedServer,
  toolResultsOf,
  type FakeResponse,
  type FakeServer,
  type FakeStep,
  type RecordedRequest,
} from './fake-anthropic.js'
import { openAiReply, toolMessagesOf } from './fake-openai.js'

/** What one reply cost, in the provider-neutral terms of TurnUsage. */
export interface ReplyUsage {
  fresh?: number
  output?: number
  cacheRead?: number
  cacheWrite?: number
}

/** A tool call as the model makes it. */
export interface FakeCall {
  name: string
  input: unknown
}

/** One tool result as the provider sent it back to the model. */
export interface SentResult {
  id: string
  content: string
  isError: boolean
}

export interface FakeModelApi {
  readonly name: 'anthropic' | 'openai-compatible'
  /** Starts the fake on 127.0.0.1; it answers request N with script[N]. */
  start(script: FakeStep[]): Promise<FakeServer>
  /** The real provider pointed at `server`. */
  provider(server: FakeServer, options?: ProviderRequestOptions & { model?: string }): ModelProvider
  /** The env that makes config and provider selection choose this API at `server` (a whole Dreamlane). */
  envFor(server: FakeServer): Record<string, string>
  /** The model calls these tools, optionally saying something first. */
  tools(calls: FakeCall[], usage?: ReplyUsage, text?: string): FakeStep
  /** A text-only reply; `cut` means it ran into max_tokens. */
  text(text: string, usage?: ReplyUsage, cut?: boolean): FakeStep
  /** An HTTP error in the API's own error body. */
  error(status: number, headers?: Record<string, string>): FakeResponse
  hang(): FakeResponse
  /** The tool results a request sent back for the previous reply's calls, in call order. */
  resultsOf(request: RecordedRequest): SentResult[]
  /** The system prompt and the run message (the first user message) a request began with. */
  openingOf(request: RecordedRequest): { system: string; prompt: string }
  /** The tools a request offered, as ToolSpecs. */
  specsOf(request: RecordedRequest): ToolSpec[]
  /** The max_tokens a request asked for. */
  maxTokensOf(request: RecordedRequest): number
  /**
   * The usage a provider reports for replies of these usages. The OpenAI format has no cache writes: the fake
   * counts them as prompt tokens, so they come back as fresh input.
   */
  usageOf(replies: ReplyUsage[]): TurnUsage
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  429: 'rate_limit_error',
  529: 'overloaded_error',
}

const DEFAULT_FRESH = 100
const DEFAULT_OUTPUT = 20

function sum(replies: ReplyUsage[], pick: (usage: ReplyUsage) => number): number {
  return replies.reduce((total, usage) => total + pick(usage), 0)
}

export const anthropicApi: FakeModelApi = {
  name: 'anthropic',
  start: (script) => startScriptedServer(script),
  provider: (server, options = {}) =>
    createAnthropicProvider({ apiKey: 'test-key', baseUrl: server.url, model: 'claude-fake', ...options }),
  envFor: (server) => ({
    DREAMLANE_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: 'sk-test-not-real',
    ANTHROPIC_BASE_URL: server.url,
  }),
  tools: (calls, usage = {}, text) => anthropicReply.tools(calls, wireUsage(usage), text),
  text: (text, usage = {}, cut = false) =>
    anthropicReply.text(text, wireUsage(usage), cut ? 'max_tokens' : 'end_turn'),
  error: (status, headers = {}) =>
    anthropicReply.error(status, ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', headers),
  hang: () => anthropicReply.hang(),
  resultsOf: (request) =>
    toolResultsOf(request).map((block) => ({
      id: block.tool_use_id,
      content: block.content,
      isError: block.is_error === true,
    })),
  openingOf: (request) => ({
    system: (request.body.system as { text: string }[]).map((block) => block.text).join('\n'),
    prompt: (request.body.messages[0].content as { text: string }[]).map((block) => block.text).join('\n'),
  }),
  specsOf: (request) =>
    (
      request.body.tools as { name: string; description: string; input_schema: Record<string, unknown> }[]
    ).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.input_schema })),
  maxTokensOf: (request) => request.body.max_tokens as number,
  usageOf: (replies) => ({
    inputTokens: sum(replies, (u) => u.fresh ?? DEFAULT_FRESH),
    outputTokens: sum(replies, (u) => u.output ?? DEFAULT_OUTPUT),
    cacheReadTokens: sum(replies, (u) => u.cacheRead ?? 0),
    cacheWriteTokens: sum(replies, (u) => u.cacheWrite ?? 0),
    requests: replies.length,
  }),
}

function wireUsage(usage: ReplyUsage) {
  return {
    input: usage.fresh ?? DEFAULT_FRESH,
    output: usage.output ?? DEFAULT_OUTPUT,
    cacheRead: usage.cacheRead ?? 0,
    cacheWrite: usage.cacheWrite ?? 0,
  }
}

/** Chat completions report prompt tokens with the cached ones inside (prompt_tokens_details.cached_tokens). */
function completionUsage(usage: ReplyUsage) {
  const cached = usage.cacheRead ?? 0
  return {
    prompt: (usage.fresh ?? DEFAULT_FRESH) + (usage.cacheWrite ?? 0) + cached,
    completion: usage.output ?? DEFAULT_OUTPUT,
    cached,
  }
}

const OPENAI_ERROR = /^ERROR \([A-Z_]+\): /

export const openAiApi: FakeModelApi = {
  name: 'openai-compatible',
  start: (script) => startScriptedServer(script),
  provider: (server, options = {}) =>
    createOpenAiCompatibleProvider({ baseUrl: `${server.url}/v1`, model: 'local-fake', ...options }),
  envFor: (server) => ({
    DREAMLANE_PROVIDER: 'openai-compatible',
    DREAMLANE_OPENAI_BASE_URL: `${server.url}/v1`,
    DREAMLANE_OPENAI_MODEL: 'local-fake',
  }),
  tools: (calls, usage = {}, text) =>
    openAiReply.tools(
      calls.map((call) => ({ name: call.name, arguments: call.input })),
      completionUsage(usage),
      text ?? null,
    ),
  text: (text, usage = {}, cut = false) =>
    openAiReply.text(text, completionUsage(usage), cut ? 'length' : 'stop'),
  error: (status, headers = {}) => openAiReply.error(status, headers),
  hang: () => openAiReply.hang(),
  resultsOf: (request) =>
    toolMessagesOf(request).map((message) => ({
      id: message.tool_call_id,
      content: message.content.replace(OPENAI_ERROR, ''),
      isError: OPENAI_ERROR.test(message.content),
    })),
  openingOf: (request) => ({
    system: request.body.messages[0].content as string,
    prompt: request.body.messages[1].content as string,
  }),
  specsOf: (request) =>
    (
      request.body.tools as {
        function: { name: string; description: string; parameters: Record<string, unknown> }
      }[]
    ).map((tool) => ({
      name: tool.function.name,
      description: tool.function.description,
      inputSchema: tool.function.parameters,
    })),
  maxTokensOf: (request) => request.body.max_tokens as number,
  usageOf: (replies) => ({
    inputTokens: sum(replies, (u) => (u.fresh ?? DEFAULT_FRESH) + (u.cacheWrite ?? 0)),
    outputTokens: sum(replies, (u) => u.output ?? DEFAULT_OUTPUT),
    cacheReadTokens: sum(replies, (u) => u.cacheRead ?? 0),
    cacheWriteTokens: 0,
    requests: replies.length,
  }),
}

/** Both fakes, for `describe.each(FAKE_APIS)`. */
export const FAKE_APIS: readonly FakeModelApi[] = [anthropicApi, openAiApi]
