// The OpenAI-compatible provider: chat completions with tools over plain fetch, for llama.cpp, Ollama, vLLM and the like.
import { systemClock, type Clock } from '../clock.js'
import { DreamlaneError } from '../errors.js'
import type { ToolSet, ToolSpec } from '../tools/types.js'
import { estimateTokens } from './limits.js'
import type { ModelProvider, TurnInput, TurnResult, TurnUsage } from './provider.js'
import { fetchWithin, isRequestTimeout, timeoutReason, type RequestFetch } from './request-fetch.js'
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

export interface OpenAiCompatibleProviderOptions extends ProviderRequestOptions {
  /** The API root, e.g. http://127.0.0.1:8080/v1; `/chat/completions` is appended. */
  baseUrl: string
  /** The model when TurnInput.model names none. */
  model: string
  /** Sent as a bearer token when set; most local servers need none. */
  apiKey?: string
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | null
  tool_calls?: WireToolCall[]
  tool_call_id?: string
}

interface WireToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

interface CompletionResponse {
  choices?: {
    message?: { content?: string | null; tool_calls?: Partial<WireToolCall>[] }
    finish_reason?: string | null
  }[]
  usage?: {
    prompt_tokens?: number
    completion_tokens?: number
    prompt_tokens_details?: { cached_tokens?: number } | null
  }
}

/** A non-2xx answer, kept whole so the retry policy can read its status and headers. */
export class HttpStatusError extends Error {
  readonly status: number
  readonly headers: Headers
  constructor(status: number, headers: Headers, body: string) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`)
    this.status = status
    this.headers = headers
  }
}

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleProviderOptions): ModelProvider {
  const maxTokensPerRequest = options.maxTokensPerRequest ?? 4_096
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const retry = retryOptionsOf(options)
  const clock = options.clock ?? systemClock
  const requestTimeoutMs = options.requestTimeoutMs ?? 300_000
  const fetch = fetchWithin(requestTimeoutMs)
  return {
    name: 'openai-compatible',
    model: options.model,
    runTurn(input: TurnInput, tools: ToolSet, signal: AbortSignal): Promise<TurnResult> {
      const session = new OpenAiSession({
        endpoint,
        apiKey: options.apiKey,
        model: input.model ?? options.model,
        input,
        specs: tools.specs(),
        retry,
        clock,
        fetch,
        requestTimeoutMs,
      })
      return runToolLoop(input, tools, signal, session, maxTokensPerRequest)
    },
  }
}

interface SessionSetup {
  endpoint: string
  apiKey: string | undefined
  model: string
  input: TurnInput
  specs: ToolSpec[]
  retry: RetryOptions
  clock: Clock
  /** Ends each request, headers and body, after requestTimeoutMs. */
  fetch: RequestFetch
  requestTimeoutMs: number
}

class OpenAiSession implements ChatSession {
  readonly #setup: SessionSetup
  readonly #tools: unknown[]
  readonly #messages: ChatMessage[]
  #callCount = 0

  constructor(setup: SessionSetup) {
    this.#setup = setup
    this.#tools = setup.specs.map((spec) => ({
      type: 'function',
      function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
    }))
    this.#messages = [
      { role: 'system', content: setup.input.system },
      { role: 'user', content: setup.input.prompt },
    ]
  }

  requestChars(): number {
    return this.#body(0).length
  }

  async send(maxTokens: number, signal: AbortSignal): Promise<ModelReply> {
    const body = this.#body(maxTokens)
    const response = await requestWithRetries(
      () => this.#post(body, signal),
      (error) => classifyHttpError(error, this.#setup.clock, this.#setup.requestTimeoutMs),
      this.#setup.retry,
      signal,
      {
        reservedTokens: estimateTokens(body.length) + maxTokens,
        // A server that reports no usage is estimated from the body and the reply's text.
        usageOf: (reply: CompletionResponse) =>
          usageOf(reply, body.length, reply.choices?.[0]?.message?.content ?? '', []),
      },
    )
    const choice = response.choices?.[0]
    if (!choice) throw new DreamlaneError('PROVIDER_FAILED', 'the model server returned no choices')
    const text = choice.message?.content ?? ''
    const wireCalls = (choice.message?.tool_calls ?? []).map((call) => this.#normaliseCall(call))
    // Servers expect null content beside tool calls rather than an empty string.
    const content = text === '' && wireCalls.length > 0 ? null : text
    this.#messages.push({
      role: 'assistant',
      content,
      ...(wireCalls.length ? { tool_calls: wireCalls } : {}),
    })
    const cutBy = choice.finish_reason === 'length' ? 'max_tokens' : null
    const usage = usageOf(response, body.length, text, wireCalls)
    return { text, toolCalls: wireCalls.map(readCall), cutBy, usage }
  }

  addToolResults(outcomes: ToolOutcome[]): void {
    for (const outcome of outcomes) {
      // Chat completions have no error flag on tool results, so a refusal says so in its text.
      const content = outcome.ok
        ? outcome.content
        : `ERROR (${outcome.code ?? 'refused'}): ${outcome.content}`
      this.#messages.push({ role: 'tool', tool_call_id: outcome.call.id, content })
    }
  }

  #body(maxTokens: number): string {
    const { model } = this.#setup
    return JSON.stringify({
      model,
      messages: this.#messages,
      tools: this.#tools,
      max_tokens: maxTokens,
      stream: false,
    })
  }

  async #post(body: string, signal: AbortSignal): Promise<CompletionResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (this.#setup.apiKey) headers.authorization = `Bearer ${this.#setup.apiKey}`
    const response = await this.#setup.fetch(this.#setup.endpoint, { method: 'POST', headers, body, signal })
    const text = await response.text()
    if (!response.ok) throw new HttpStatusError(response.status, response.headers, text)
    try {
      return JSON.parse(text) as CompletionResponse
    } catch (error) {
      throw new InvalidResponseError(
        `the model server sent a body that is not JSON: ${text.slice(0, 200)}`,
        error,
      )
    }
  }

  /** Local servers sometimes omit ids or send object arguments; the conversation needs both in wire form. */
  #normaliseCall(call: Partial<WireToolCall>): WireToolCall {
    this.#callCount += 1
    const raw = call.function?.arguments as unknown
    const args = typeof raw === 'string' ? raw : JSON.stringify(raw ?? {})
    return {
      id: call.id || `call_${this.#callCount}`,
      type: 'function',
      function: { name: call.function?.name ?? '', arguments: args },
    }
  }
}

class InvalidResponseError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause })
  }
}

function readCall(call: WireToolCall): RequestedToolCall {
  const raw = call.function.arguments
  if (raw.trim() === '') return { id: call.id, name: call.function.name, input: {} }
  try {
    return { id: call.id, name: call.function.name, input: JSON.parse(raw) as unknown }
  } catch {
    return {
      id: call.id,
      name: call.function.name,
      input: raw,
      inputError: 'the tool arguments were not valid JSON',
    }
  }
}

/** Server-reported usage (prompt tokens include cached ones); a chars/4 estimate when a server reports none. */
function usageOf(
  response: CompletionResponse,
  requestChars: number,
  text: string,
  calls: WireToolCall[],
): TurnUsage {
  const usage = response.usage
  if (usage?.prompt_tokens === undefined || usage.completion_tokens === undefined) {
    const outputChars = text.length + calls.reduce((sum, call) => sum + call.function.arguments.length, 0)
    return {
      inputTokens: estimateTokens(requestChars),
      outputTokens: estimateTokens(outputChars),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      requests: 1,
    }
  }
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
  return {
    inputTokens: usage.prompt_tokens - cached,
    outputTokens: usage.completion_tokens,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    requests: 1,
  }
}

/** Retryable: 408/429/5xx/529, connection failures, per-request timeouts and garbled bodies. */
export function classifyHttpError(error: unknown, clock: Clock, requestTimeoutMs: number): RetryDecision {
  if (error instanceof HttpStatusError) {
    if (!RETRYABLE_STATUSES.has(error.status)) return { retryable: false, reason: error.message }
    const retryAfterMs = parseRetryAfter(error.headers, clock)
    return { retryable: true, reason: error.message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
  }
  if (error instanceof InvalidResponseError) return { retryable: true, reason: error.message }
  if (isRequestTimeout(error)) return { retryable: true, reason: timeoutReason(requestTimeoutMs) }
  if (error instanceof TypeError)
    return { retryable: true, reason: `connection failed: ${describeFailure(error)}` }
  return { retryable: false, reason: describeFailure(error) }
}
