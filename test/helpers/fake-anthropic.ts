// A local fake of the Anthropic Messages API (non-streaming): plays a script of responses, records every request.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The raw body text (its length is the request size). */
  raw: string
  /** The body parsed as JSON. */
  body: any
}

/**
 * What the fake answers: a status, headers and JSON body, or nothing at all until the client gives up. `delayMs`
 * holds the whole answer back; `bodyDelayMs` sends the headers and the body's first byte, the rest that much later.
 */
export type FakeResponse =
  | {
      status?: number
      headers?: Record<string, string>
      body?: unknown
      delayMs?: number
      bodyDelayMs?: number
    }
  | { hang: true }

/** A scripted answer: fixed, or computed from the request it answers. */
export type FakeStep = FakeResponse | ((request: RecordedRequest) => FakeResponse)

export interface FakeServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:54321 */
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * An HTTP server on 127.0.0.1 (random port) that answers request N with `script[N]`. A request past the
 * end of the script gets a 400, so a test that expects fewer requests fails loudly. Shared by both fakes.
 */
export async function startScriptedServer(script: FakeStep[]): Promise<FakeServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body: raw ? JSON.parse(raw) : null,
      }
      const step = script[requests.length]
      requests.push(request)
      const response = typeof step === 'function' ? step(request) : step
      answer(
        res,
        response ?? { status: 400, body: { error: `script exhausted at request ${requests.length}` } },
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function answer(res: ServerResponse, response: FakeResponse): void {
  if ('hang' in response) return
  if (response.delayMs) {
    // A slow API: the answer comes later (the connection may be gone by then).
    setTimeout(() => answer(res, { ...response, delayMs: 0 }), response.delayMs)
    return
  }
  res.writeHead(response.status ?? 200, { 'content-type': 'application/json', ...response.headers })
  const body = JSON.stringify(response.body ?? {})
  if (!response.bodyDelayMs) return void res.end(body)
  res.write(body.slice(0, 1))
  setTimeout(() => res.end(body.slice(1)), response.bodyDelayMs)
}

/** `step`'s answer, held back as `timing` says (a slow server: see FakeResponse). */
export function slowed(step: FakeStep, timing: { delayMs?: number; bodyDelayMs?: number }): FakeStep {
  return (request) => {
    const response = typeof step === 'function' ? step(request) : step
    return 'hang' in response ? response : { ...response, ...timing }
  }
}

export interface FakeUsage {
  input?: number
  output?: number
  cacheRead?: number
  cacheWrite?: number
}

let ids = 0

function message(
  request: RecordedRequest,
  content: unknown[],
  stopReason: string,
  usage: FakeUsage,
): FakeResponse {
  return {
    body: {
      id: `msg_${++ids}`,
      type: 'message',
      role: 'assistant',
      model: request.body?.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input ?? 100,
        output_tokens: usage.output ?? 20,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
      },
    },
  }
}

/** Builders for Messages API answers. */
export const anthropicReply = {
  /** The model calls these tools (ids are generated), optionally saying something first. */
  tools(
    calls: { name: string; input: unknown; id?: string }[],
    usage: FakeUsage = {},
    text?: string,
  ): FakeStep {
    return (request) => {
      const blocks = calls.map((call) => ({
        type: 'tool_use',
        id: call.id ?? `toolu_${++ids}`,
        name: call.name,
        input: call.input,
      }))
      return message(request, [...(text ? [{ type: 'text', text }] : []), ...blocks], 'tool_use', usage)
    }
  },
  /** A text-only answer: the model is done (or cut off, with stopReason 'max_tokens'). */
  text(text: string, usage: FakeUsage = {}, stopReason = 'end_turn'): FakeStep {
    return (request) => message(request, [{ type: 'text', text }], stopReason, usage)
  },
  /** An API error with the documented error body. */
  error(status: number, type: string, headers: Record<string, string> = {}): FakeResponse {
    return { status, headers, body: { type: 'error', error: { type, message: `fake ${type}` } } }
  },
  hang(): FakeResponse {
    return { hang: true }
  },
}

/** The tool_result blocks of the last user message of a recorded request. */
export function toolResultsOf(
  request: RecordedRequest,
): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const messages = request.body.messages as { role: string; content: unknown }[]
  const last = messages[messages.length - 1]
  if (!last || !Array.isArray(last.content)) return []
  return last.content.filter((block: { type: string }) => block.type === 'tool_result')
}
