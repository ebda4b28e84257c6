// The Anthropic provider: the Messages API tool-use loop on @anthropic-ai/sdk, with prompt caching and our own retries.
import Anthropic from '@anthropic-ai/sdk'
import { systemClock, type Clock } from '../clock.js'
import type { ToolSet, ToolSpec } from '../tools/types.js'
import { estimateTokens } from './limits.js'
import type { ModelProvider, TurnInput, TurnResult, TurnUsage } from './provider.js'
import { fetchWithin, isRequestTimeout, timeoutReason } from './request-fetch.js'
import {
  describeFailure,
  parseRetryAfter,
  requestWithRetries,
  retryOptionsOf,
  RETRYABLE_STATUSES,
  type ProviderRequestOptions,
  type RetryDecision,
  type RetryOptions,
} from './retry.js'
import {
  runToolLoop,
  type ChatSession,
  type ModelReply,
  type RequestedToolCall,
  type ToolOutcome,
} from './tool-loop.js'

type MessageParam = Anthropic.MessageParam
type ContentBlockParam = Anthropic.ContentBlockParam
type CacheControl = Anthropic.CacheControlEphemeral

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'

export interface AnthropicProviderOptions extends ProviderRequestOptions {
  apiKey: string
  /** ANTHROPIC_BASE_URL or a local fake. @default https://api.anthropic.com */
  baseUrl?: string
  /** The model when TurnInput.model names none. */
  model: string
}

const CACHE: CacheControl = { type: 'ephemeral' }

export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const requestTimeoutMs = options.requestTimeoutMs ?? 120_000
  const maxTokensPerRequest = options.maxTokensPerRequest ?? 4_096
  // maxRetries 0: retries are ours, so they are injectable, testable and end up in the run record. The SDK's
  // timer only covers the wait for headers; fetchWithin bounds the body too and lifts Node's hidden 300 s.
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
    webhookKey: null,
    maxRetries: 0,
    timeout: requestTimeoutMs,
    fetch: fetchWithin(requestTimeoutMs),
    logLevel: 'off',
  })
  const retry = retryOptionsOf(options)
  const clock = options.clock ?? systemClock
  return {
    name: 'anthropic',
    model: options.model,
    runTurn(input: TurnInput, tools: ToolSet, signal: AbortSignal): Promise<TurnResult> {
      const model = input.model ?? options.model
      const session = new AnthropicSession({
        client,
        model,
        input,
        specs: tools.specs(),
        retry,
        clock,
        requestTimeoutMs,
      })
      return runToolLoop(input, tools, signal, session, maxTokensPerRequest)
    },
  }
}

interface SessionSetup {
  client: Anthropic
  model: string
  input: TurnInput
  specs: ToolSpec[]
  retry: RetryOptions
  clock: Clock
  requestTimeoutMs: number
}

/** One turn's conversation. System and tools never change within it, so they form the cached prefix. */
class AnthropicSession implements ChatSession {
  readonly #setup: SessionSetup
  readonly #system: Anthropic.TextBlockParam[]
  readonly #tools: Anthropic.Tool[]
  readonly #messages: MessageParam[]

  constructor(setup: SessionSetup) {
    this.#setup = setup
    this.#system = [{ type: 'text', text: setup.input.system, cache_control: CACHE }]
    this.#tools = setup.specs.map((spec, index) => ({
      name: spec.name,
      description: spec.description,
      input_schema: spec.inputSchema as Anthropic.Tool.InputSchema,
      // One breakpoint after the last tool caches system + every tool definition.
      ...(index === setup.specs.length - 1 ? { cache_control: CACHE } : {}),
    }))
    this.#messages = [{ role: 'user', content: [{ type: 'text', text: setup.input.prompt }] }]
  }

  requestChars(): number {
    return JSON.stringify({ system: this.#system, tools: this.#tools, messages: this.#messages }).length
  }

  async send(maxTokens: number, signal: AbortSignal): Promise<ModelReply> {
    const { client, model, retry, clock, requestTimeoutMs } = this.#setup
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model,
      max_tokens: maxTokens,
      system: this.#system,
      tools: this.#tools,
      messages: withMovingBreakpoints(this.#messages),
    }
    const response = await requestWithRetries(
      () => client.messages.create(params, { signal, timeout: requestTimeoutMs, maxRetries: 0 }),
      (error) => classifyAnthropicError(error, clock, requestTimeoutMs),
      retry,
      signal,
      {
        reservedTokens: estimateTokens(this.requestChars()) + maxTokens,
        usageOf: (message: Anthropic.Message) => usageOf(message.usage),
      },
    )
    const reply = readReply(response)
    const content = replyBlocks(response)
    if (content.length > 0) this.#messages.push({ role: 'assistant', content })
    return reply
  }

  addToolResults(outcomes: ToolOutcome[]): void {
    this.#messages.push({
      role: 'user',
      content: outcomes.map((outcome) => ({
        type: 'tool_result',
        tool_use_id: outcome.call.id,
        // The API refuses empty tool_result text; a blank result still has to answer the call.
        content: outcome.content === '' ? '(empty)' : outcome.content,
        ...(outcome.ok ? {} : { is_error: true }),
      })),
    })
  }
}

/**
 * A copy of the conversation with a cache breakpoint on the last block of each of its two newest user messages.
 * The newest caches this request whole; the one before is where the previous request ended, so its cache entry is
 * read even when the reply in between (say twelve tool calls and their results) added more than the 20 blocks
 * the API looks back from a breakpoint. With the system prompt's and the last tool's, that is the API's maximum of 4.
 */
function withMovingBreakpoints(messages: MessageParam[]): MessageParam[] {
  const users = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []))
  const marked = new Set(users.slice(-2))
  return messages.map((message, index) => (marked.has(index) ? withBreakpointOnLastBlock(message) : message))
}

function withBreakpointOnLastBlock(message: MessageParam): MessageParam {
  if (typeof message.content === 'string' || message.content.length === 0) return message
  const blocks = [...message.content]
  const tail = blocks[blocks.length - 1] as ContentBlockParam
  blocks[blocks.length - 1] = { ...tail, cache_control: CACHE } as ContentBlockParam
  return { ...message, content: blocks } as MessageParam
}

function readReply(response: Anthropic.Message): ModelReply {
  const text = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  const toolCalls: RequestedToolCall[] = response.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
  )
  const cutBy =
    response.stop_reason === 'max_tokens'
      ? 'max_tokens'
      : response.stop_reason === 'model_context_window_exceeded'
        ? 'context_window'
        : null
  return { text, toolCalls, cutBy, usage: usageOf(response.usage) }
}

/** The reply as it goes back into the conversation: text and tool calls only, empty text dropped (the API refuses it). */
function replyBlocks(response: Anthropic.Message): ContentBlockParam[] {
  return response.content.flatMap((block): ContentBlockParam[] => {
    if (block.type === 'text') return block.text === '' ? [] : [{ type: 'text', text: block.text }]
    if (block.type === 'tool_use')
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }]
    return []
  })
}

function usageOf(usage: Anthropic.Usage): TurnUsage {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    requests: 1,
  }
}

/** Rate limits, overload (529), transient 5xx and dropped connections or per-request timeouts are retried. */
export function classifyAnthropicError(
  error: unknown,
  clock: Clock,
  requestTimeoutMs: number,
): RetryDecision {
  if (error instanceof Anthropic.APIUserAbortError) return { retryable: false, reason: 'request aborted' }
  // The SDK's own timer, or the deadline while the body is read (the SDK hands that error on as it is).
  if (error instanceof Anthropic.APIConnectionTimeoutError || isRequestTimeout(error)) {
    return { retryable: true, reason: timeoutReason(requestTimeoutMs) }
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return { retryable: true, reason: `connection failed: ${describeFailure(error)}` }
  }
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const kind = error.type ? ` ${error.type}` : ''
    const detail = error.apiMessage ? `: ${error.apiMessage}` : ''
    const reason = `HTTP ${error.status}${kind}${detail}`
    if (!RETRYABLE_STATUSES.has(error.status)) return { retryable: false, reason }
    const retryAfterMs = parseRetryAfter(error.headers, clock)
    return { retryable: true, reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
  }
  return { retryable: false, reason: describeFailure(error) }
}
