// Prompt caching in a dream on the Anthropic provider: from the second request on, everything the previous request
// sent is read from the cache, even after a reply that added more blocks than the API looks back over.
import { describe, expect, it, onTestFinished } from 'vitest'
import { makeDreamWorld } from '../helpers/dream-world.js'
import { FakePromptCache, LOOKBACK_BLOCKS } from '../helpers/fake-prompt-cache.js'
import { anthropicApi } from '../helpers/fake-model-api.js'

const MEMORY_FILES = ['MEMORY.md', 'user.md', 'project.md', 'reference.md', 'feedback.md', 'current-state.md']
const read = (path: string) => ({ name: 'read_file', input: { path } })

describe('prompt caching in a dream (fake Messages API with the documented cache rules)', () => {
  it('reads the whole previous request from the cache on every later request, and records each kind apart', async () => {
    const world = await makeDreamWorld()
    const cache = new FakePromptCache()
    // The second reply's 12 calls add 24 blocks (12 tool_use, 12 tool_result): more than the lookback.
    const orient = [
      ...MEMORY_FILES.map((file) => read(`notes/memory/${file}`)),
      ...MEMORY_FILES.map((file) => read(`notes/memory/${file}`)),
    ]
    expect(orient.length * 2).toBeGreaterThan(LOOKBACK_BLOCKS)
    const server = await anthropicApi.start(
      [
        anthropicApi.tools([{ name: 'list_files', input: { path: 'notes/memory' } }]),
        anthropicApi.tools(orient),
        anthropicApi.tools([
          {
            name: 'write_file',
            input: { path: 'notes/memory/user.md', content: '# User\n\n- Lives in Porto. [[2026-11-20]]\n' },
          },
        ]),
        anthropicApi.text('Updated user.md.'),
      ].map((step) => cache.reply(step)),
    )
    onTestFinished(() => server.close())
    const dreamlane = world.open({ provider: anthropicApi.provider(server) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.close()

    expect(server.requests).toHaveLength(4)
    const [first, ...later] = cache.usages
    expect(first?.cache_read_input_tokens).toBe(0)
    expect(first?.cache_creation_input_tokens).toBeGreaterThan(2_000) // the system prompt and the tools
    later.forEach((usage, index) => {
      const previous = cache.usages[index]!
      const previousPrompt =
        previous.input_tokens + previous.cache_read_input_tokens + previous.cache_creation_input_tokens
      expect(usage.cache_read_input_tokens).toBe(previousPrompt)
    })

    expect(run.usage).toEqual({
      inputTokens: sum(cache.usages.map((u) => u.input_tokens)),
      cacheReadTokens: sum(cache.usages.map((u) => u.cache_read_input_tokens)),
      cacheWriteTokens: sum(cache.usages.map((u) => u.cache_creation_input_tokens)),
      outputTokens: 4 * 20,
      requests: 4,
    })
    const model = run.steps.find((step) => step.name === 'model')?.detail
    expect(model).toContain(
      `${run.usage.inputTokens} fresh input, ${run.usage.cacheReadTokens} cache read, ` +
        `${run.usage.cacheWriteTokens} cache write, 80 output tokens in 4 request(s)`,
    )
  })
})

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
