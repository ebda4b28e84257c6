// Prompt caching as the Messages API documents it, for the fake: a request's blocks (tools, then system, then
// each message's content) are cached up to each cache_control breakpoint; a later request reads the longest cached
// prefix it shares, found by looking back at most LOOKBACK_BLOCKS blocks from each of its breakpoints.
import type { FakeStep, RecordedRequest } from './fake-anthropic.js'

/** How far back from a breakpoint the API looks for an earlier cache entry. */
export const LOOKBACK_BLOCKS = 20

export interface CacheUsage {
  input_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
}

/** The request's blocks in cache order, each with whether it carries a breakpoint. */
function blocksOf(body: any): { key: string; tokens: number; breakpoint: boolean }[] {
  const raw: unknown[] = [
    ...(body.tools ?? []),
    ...(typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? [])),
    ...(body.messages ?? []).flatMap((message: { role: string; content: unknown }) =>
      typeof message.content === 'string'
        ? [{ role: message.role, type: 'text', text: message.content }]
        : (message.content as object[]).map((block) => ({ role: message.role, ...block })),
    ),
  ]
  return raw.map((block) => {
    const { cache_control: mark, ...rest } = block as { cache_control?: unknown }
    const key = JSON.stringify(rest)
    return { key, tokens: Math.ceil(key.length / 4), breakpoint: mark !== undefined }
  })
}

/** One conversation's cache: what each request reads, writes and pays fresh, as the API would report it. */
export class FakePromptCache {
  readonly #entries = new Set<string>()
  /** Per request, in order. */
  readonly usages: CacheUsage[] = []

  usageFor(body: any): CacheUsage {
    const blocks = blocksOf(body)
    const prefixes: string[] = []
    const tokensTo: number[] = []
    let key = ''
    let tokens = 0
    for (const block of blocks) {
      key += `${block.key}\n`
      tokens += block.tokens
      prefixes.push(key)
      tokensTo.push(tokens)
    }
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []))
    let readTo = -1
    for (const at of breakpoints) {
      for (let back = at; back >= Math.max(0, at - LOOKBACK_BLOCKS); back -= 1) {
        if (this.#entries.has(prefixes[back]!)) {
          readTo = Math.max(readTo, back)
          break
        }
      }
    }
    for (const at of breakpoints) this.#entries.add(prefixes[at]!)
    const read = readTo >= 0 ? tokensTo[readTo]! : 0
    const lastBreakpoint = breakpoints.at(-1)
    const cachedTo = lastBreakpoint === undefined ? 0 : tokensTo[lastBreakpoint]!
    const write = Math.max(0, cachedTo - read)
    const usage = {
      input_tokens: tokens - read - write,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: write,
    }
    this.usages.push(usage)
    return usage
  }

  /** `step` with its usage's input side taken from this cache. */
  reply(step: FakeStep): FakeStep {
    return (request: RecordedRequest) => {
      const response = typeof step === 'function' ? step(request) : step
      if ('hang' in response) return response
      const body = response.body as { usage?: object } | undefined
      if (!body?.usage) return response
      return { ...response, body: { ...body, usage: { ...body.usage, ...this.usageFor(request.body) } } }
    }
  }
}
