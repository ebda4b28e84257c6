import { describe, expect, it } from 'vitest'
import { buildDaySummary, weightsOf } from '../../../src/model/offline/daily-summary.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'

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

const reply = (content: string, ts: string): WindowMessage =>
  message({ content, ts, role: 'assistant', sender: 'Assistant' })

describe('buildDaySummary', () => {
  const day = [
    message({ content: 'Hey! Good morning 😀', ts: '2026-11-20T09:00:00Z' }),
    message({ content: '/dream 2', ts: '2026-11-20T09:00:30Z' }),
    message({
      content: 'Big news: I accepted the offer from Globex yesterday, so I leave Acme Corp in December.',
      ts: '2026-11-20T09:01:00Z',
    }),
    reply("That's awesome, congrats!", '2026-11-20T09:02:00Z'),
    message({ content: 'Thanks!', ts: '2026-11-20T09:03:00Z' }),
    reply(
      'The Globex onboarding usually takes 3 weeks; the badge office in Porto opens at 08:30.',
      '2026-11-20T09:04:00Z',
    ),
    message({ content: 'yes please, short list.', ts: '2026-11-20T09:05:00Z' }),
    message({
      content: 'I really think the move to Braga happened last year, honestly.',
      ts: '2026-11-20T09:06:00Z',
    }),
  ]

  it("keeps every participant's telling statements and drops small talk, filler and chat commands", async () => {
    const text = await buildDaySummary({ messages: day, timeZone: 'UTC', ratio: 1 })
    expect(text).toContain('Maya: ')
    expect(text).toContain('Globex')
    expect(text).toContain('Acme Corp')
    expect(text).toContain('Assistant: ')
    expect(text).toContain('3 weeks')
    for (const noise of ['Good morning', '/dream', 'congrats', 'Thanks', 'yes please', 'really', 'honestly'])
      expect(text, noise).not.toContain(noise)
  })

  it('writes absolute dates next to relative ones, from the day the message was sent', async () => {
    const text = await buildDaySummary({ messages: day, timeZone: 'UTC', ratio: 0.6 })
    expect(text).toContain('yesterday (2026-11-19)')
    expect(text).toContain('last year (2025)')
  })

  it('stays near its byte budget, keeping the densest statements first', async () => {
    const text = await buildDaySummary({ messages: day, timeZone: 'UTC', ratio: 0.15, minBytes: 160 })
    const source = day.reduce((total, m) => total + Buffer.byteLength(m.content), 0)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(Math.max(160, source * 0.15) + 16)
    expect(text).toContain('Acme Corp')
  })

  it('prefers what was said over an attachment caption, and a specific statement over a generalisation', async () => {
    const said = 'The shed is green now and the gate squeaks.'
    // Each rival adds more rare words per byte than the statement; the budget has room for one of them.
    for (const rival of [
      '[image: a photography of a turquoise canoe beside a wooden pier under pine trees, misty hills, reeds, a heron, dragonflies, lily pads and a rowboat moored by the boathouse]',
      'Life is always sweeter when people share important moments with neighbours, cousins, grandparents, schoolmates and teammates.',
    ]) {
      const messages = [
        message({ content: rival, ts: '2026-11-20T10:00:00Z' }),
        message({ content: said, ts: '2026-11-20T10:01:00Z' }),
      ]
      const bytes = messages.reduce((total, m) => total + Buffer.byteLength(m.content), 0)
      const text = await buildDaySummary({ messages, timeZone: 'UTC', ratio: 165 / bytes, minBytes: 160 })
      expect(text, rival).toContain('gate squeaks')
      expect(text, rival).not.toMatch(/canoe|sweeter/)
    }
  })

  // The reply adds more rare words per byte than the news; the budget has room for one of them. Said to the
  // listener, it loses even when it names a place and a number.
  it.each([
    [
      "about nothing of the speaker's",
      'Those tulips, irises and climbing roses along the fence must make you smile every morning.',
      'tulips',
    ],
    [
      'even one that names things and numbers',
      'Your 10K in Porto next spring will feel easy after all those hill sprints.',
      'Porto',
    ],
  ])(
    "prefers the speaker's own news over a line said to the listener, %s",
    async (_case, reply, replyWord) => {
      const messages = [
        message({ content: 'Planted the tomatoes and the basil.', ts: '2026-11-20T10:00:00Z' }),
        message({ sender: 'Ana', content: reply, ts: '2026-11-20T10:01:00Z' }),
      ]
      const bytes = messages.reduce((total, m) => total + Buffer.byteLength(m.content), 0)
      const text = await buildDaySummary({ messages, timeZone: 'UTC', ratio: 100 / bytes, minBytes: 100 })
      expect(text).toContain('tomatoes')
      expect(text).not.toContain(replyWord)
    },
  )

  describe('line shape', () => {
    // Questions the budget leaves out: they put the statements around them far apart in the day.
    const questions = [
      'match',
      'concert',
      'parade',
      'lecture',
      'auction',
      'regatta',
      'premiere',
      'marathon',
      'rally',
      'fair',
    ].map((event, index) =>
      message({
        sender: 'Ana',
        content: `Did you go to the ${event}?`,
        ts: `2026-11-20T10:${10 + index}:00Z`,
      }),
    )
    const sold = message({ content: 'Sold the old bike to Tomas.', ts: '2026-11-20T10:30:00Z' })

    it('gives a short line the next sentence even from later in the day', async () => {
      const booked = message({ content: 'Booked the Porto flat for March.', ts: '2026-11-20T10:00:00Z' })
      const messages = [booked, ...questions, sold]
      const text = await buildDaySummary({ messages, timeZone: 'UTC', ratio: 0.01, minBytes: 70 })
      expect(text).toBe('- Maya: Booked the Porto flat for March. Sold old bike to Tomas.')
    })

    it('joins a short last line to the one before, naming a speaker who goes on only once', async () => {
      const trip = [
        'We drove up to Braga with Rui, Ines and their twins to see the cathedral and the old library.',
        'We moved to a quiet guesthouse by the river with a garden and a fig tree.',
        'We hiked the Geres trail past three waterfalls and had grilled octopus in a tiny village restaurant.',
      ].map((content, index) => message({ content, ts: `2026-11-20T10:0${index}:00Z` }))
      const text = await buildDaySummary({
        messages: [...trip, ...questions, sold],
        timeZone: 'UTC',
        ratio: 0.01,
        minBytes: 300,
      })
      expect(text.split('\n')).toHaveLength(1)
      expect(text).toMatch(/village restaurant\. Sold old bike to Tomas\.$/)
      expect(text.match(/Maya: /g)).toHaveLength(1)
    })
  })

  it("keeps an attachment's caption whole, a dash inside it no clause break", async () => {
    const messages = [
      message({
        content: 'Went to the premiere tonight! [image: a photo of a spider - man poster on a cinema wall]',
        ts: '2026-11-20T10:00:00Z',
      }),
    ]
    const text = await buildDaySummary({ messages, timeZone: 'UTC', ratio: 1 })
    expect(text).toContain('[photo: spider - man poster on cinema wall]')
    expect(text).not.toMatch(/\[photo: spider\.|man poster on cinema wall\]\./)
  })

  it('names each conversation when a day has several, and is the same for the same input in any order', async () => {
    const other = [
      message({
        chat: 'atlas',
        content: 'the Atlas API freeze is on December 10',
        ts: '2026-11-20T14:00:00Z',
      }),
      message({
        chat: 'atlas-fork',
        root: 'atlas',
        chatName: 'Atlas (fork)',
        content: 'we picked Postgres 16 for Atlas',
        ts: '2026-11-20T15:30:00Z',
      }),
    ]
    const input = { messages: [...day, ...other], timeZone: 'Europe/Lisbon', ratio: 0.6 }
    const text = await buildDaySummary(input)
    expect(text).toContain('**Main** — 8 messages, 09:00–09:06')
    expect(text).toContain('**atlas** — 2 messages, 14:00–15:30')
    expect(text).toContain('Postgres 16')
    expect(await buildDaySummary({ ...input, messages: [...input.messages].reverse() })).toBe(text)
  })

  it('gives a quiet conversation its best line when a busy one would take the whole budget', async () => {
    const quiet = message({
      chat: 'web:garden',
      content: 'Priya and Tomás are on the invoice exporter sprint.',
      ts: '2026-11-20T16:00:00Z',
    })
    const busy = Array.from({ length: 30 }, (_, index) =>
      message({
        content: `Sprint ${index + 1}: Priya shipped the invoice exporter ${index + 1} and Tomás fixed login bug ${index + 40}.`,
        ts: `2026-11-20T10:${String(index).padStart(2, '0')}:00Z`,
      }),
    )
    const text = await buildDaySummary({ messages: [...busy, quiet], timeZone: 'UTC', ratio: 0.05 })
    expect(text).toContain('**web:garden** — 1 message')
    expect(text).toContain('Priya and Tomás are on invoice exporter sprint.')
    expect(text).not.toContain('small talk only')
  })

  it('ends every sentence in a line, also those typed without a full stop', async () => {
    const text = await buildDaySummary({
      messages: [
        message({ content: 'Booked the Porto flat for March', ts: '2026-11-20T10:00:00Z' }),
        message({ content: 'Sam flies in from Oslo on the 14th', ts: '2026-11-20T10:01:00Z' }),
      ],
      timeZone: 'UTC',
      ratio: 1,
    })
    expect(text).toBe('- Maya: Booked the Porto flat for March. Sam flies in from Oslo on 14th.')
  })

  it('ends a sentence whose last words are a resolved date, which closes no sentence itself', async () => {
    const text = await buildDaySummary({
      messages: [
        message({ content: 'Sam was bored today', ts: '2026-11-20T10:00:00Z' }),
        message({ content: 'Took the turtles to Tampa (the beach!)', ts: '2026-11-20T10:01:00Z' }),
      ],
      timeZone: 'UTC',
      ratio: 1,
    })
    expect(text).toBe('- Maya: Sam was bored today (2026-11-20). Took turtles to Tampa (beach!)')
  })

  it("keeps the date's weight for each event of a day, not only for the first line to name it", async () => {
    const day = [
      message({
        content: 'I won the regional chess final in the old town hall yesterday.',
        ts: '2026-11-20T10:00:00Z',
      }),
      message({
        content: 'Our neighbours painted their garden fence a bright shade of orange.',
        ts: '2026-11-20T10:01:00Z',
      }),
      message({
        content: 'We adopted a small grey kitten from the animal shelter yesterday.',
        ts: '2026-11-20T10:02:00Z',
      }),
      message({
        content: 'Work was work and the weather was the weather, again. '.repeat(12),
        ts: '2026-11-20T10:03:00Z',
      }),
    ]
    const earlier = Array.from({ length: 40 }, (_, index) =>
      message({ content: 'Talked about work and the weather again.', ts: `2026-11-1${index % 9}T10:00:00Z` }),
    )
    const weights = await weightsOf([...day, ...earlier])
    const text = await buildDaySummary({
      ...{ messages: day, timeZone: 'UTC', weights },
      ...{ ratio: 0.1, minBytes: 160 },
    })
    expect(text).toBe(
      '- Maya: Won regional chess final in old town hall yesterday (2026-11-19). ' +
        'We adopted small grey kitten from animal shelter yesterday (2026-11-19).',
    )
  })

  it('cannot open or close an HTML comment or fake a summary marker', async () => {
    const text = await buildDaySummary({
      messages: [
        message({
          content: 'the build prints <!-- NEEDS_SUMMARY --> then -- done --> and restarts the Atlas worker',
          ts: '2026-11-21T09:00:00Z',
        }),
      ],
      timeZone: 'UTC',
    })
    expect(text).not.toContain('<!--')
    expect(text).not.toContain('-->')
    expect(text).toContain('&lt;!-- NEEDS_SUMMARY --&gt;')
  })

  it('reads a sentence-initial verb the condensing capitalised as the verb, not a weekday', async () => {
    const messages = [
      message({ content: 'So, I sat with her and we talked for hours.', ts: '2026-05-10T13:21:30Z' }),
      message({ content: 'Sat works for me, see you at the lake.', ts: '2026-05-10T13:22:30Z' }),
    ]
    const text = await buildDaySummary({ messages, timeZone: 'UTC', ratio: 1 })
    expect(text).toMatch(/Sat with her and we talked for hours/)
    expect(text).not.toMatch(/Sat \(2026-05-\d\d\) with her/)
    expect(text).toMatch(/Sat \(2026-05-16\) works for me/)
  })
})
