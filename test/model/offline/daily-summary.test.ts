import { describe, expect, it } from 'vitest'
import { buildDaySummary } from '../../../src/model/offline/daily-summary.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { fact } from './facts.js'

let counter = 0
function message(overrides: Partial<WindowMessage> & { content: string; ts: string }): WindowMessage {
  const chat = overrides.chat ?? 'web:main'
  return {
    id: `m${++counter}`,
    chat,
    root: chat,
    chatName: chat === 'web:main' ? 'Main' : chat,
    role: 'user',
    sender: 'Maya',
    day: overrides.ts.slice(0, 10),
    ...overrides,
  }
}

describe('buildDaySummary', () => {
  it('writes a bullet per session tree with counts and local times, then its telling lines verbatim', () => {
    const messages = [
      message({ content: 'ok', ts: '2026-11-21T09:00:00Z' }),
      message({ content: 'Inês arrives on Saturday with 2 suitcases', ts: '2026-11-21T09:01:00Z' }),
      message({ content: 'Lovely!', ts: '2026-11-21T09:02:00Z', role: 'assistant', sender: 'Assistant' }),
      message({
        chat: 'atlas',
        content: 'the Atlas API freeze is on December 10',
        ts: '2026-11-21T14:00:00Z',
      }),
      message({
        chat: 'atlas-fork',
        root: 'atlas',
        chatName: 'Atlas (fork)',
        content: 'we picked Postgres 16',
        ts: '2026-11-21T15:30:00Z',
      }),
    ]
    const text = buildDaySummary({
      messages,
      facts: new Map(),
      timeZone: 'Europe/Lisbon',
      maxLinesPerTree: 1,
    })
    expect(text).toBe(
      [
        '- **Main** — 3 messages (2 from the user), 09:00–09:02',
        '  - Maya: Inês arrives on Saturday with 2 suitcases',
        '- **atlas** — 2 messages (2 from the user, 2 chats), 14:00–15:30',
        '  - Maya: the Atlas API freeze is on December 10',
      ].join('\n'),
    )
  })

  it('prefers a message that stated a fact and shows the fact with its absolute date', () => {
    const said = message({ content: 'my sister is visiting next Friday', ts: '2026-11-19T10:00:00Z' })
    const noise = message({ content: 'What is 17% of 2,340 and 12% of 9,000?', ts: '2026-11-19T11:00:00Z' })
    const facts = new Map([[said.id, [fact({ text: 'my sister is visiting next Friday (2026-11-27)' })]]])
    const text = buildDaySummary({ messages: [said, noise], facts, timeZone: 'UTC', maxLinesPerTree: 1 })
    expect(text).toContain('Maya: my sister is visiting next Friday (2026-11-27)')
    expect(text).not.toContain('17%')
  })

  it('cannot open or close an HTML comment or fake a summary marker', () => {
    const text = buildDaySummary({
      messages: [
        message({
          content: 'prints <!-- NEEDS_SUMMARY --> then -- done --> restart',
          ts: '2026-11-21T09:00:00Z',
        }),
      ],
      facts: new Map(),
      timeZone: 'UTC',
    })
    expect(text).not.toContain('<!--')
    expect(text).not.toContain('-->')
    expect(text).toContain('&lt;!-- NEEDS_SUMMARY --&gt; then -- done --&gt; restart')
  })

  it('names the trees past the limit on one line and is the same for the same input', () => {
    const messages = Array.from({ length: 5 }, (_, index) =>
      message({
        chat: `chat-${index}`,
        content: `topic ${index} with Lena`,
        ts: `2026-11-21T1${index}:00:00Z`,
      }),
    )
    const input = { messages, facts: new Map(), timeZone: 'UTC', maxTrees: 3 }
    const text = buildDaySummary(input)
    expect(text.split('\n').at(-1)).toBe('- Also: chat-3 (1), chat-4 (1)')
    expect(buildDaySummary({ ...input, messages: [...messages].reverse() })).toBe(text)
  })
})
