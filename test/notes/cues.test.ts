import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/config/defaults.js'
import type { MessageRow } from '../../src/db/messages.js'
import { CueCollector, clipText, escapeForComment } from '../../src/notes/cues.js'

function row(i: number, rootJid: string, content: string, chatJid = rootJid): MessageRow {
  return {
    id: `m${i}`,
    chatJid,
    rootJid,
    chatName: chatJid.toUpperCase(),
    sender: 'u',
    senderName: 'Sam',
    content,
    timestamp: new Date(Date.UTC(2026, 10, 21, 8, i)).toISOString(),
    isFromMe: false,
    isBotMessage: false,
  }
}

function collect(rows: MessageRow[], settings = {}): string {
  const collector = new CueCollector({ ...DEFAULTS.seeding, ...settings })
  for (const message of rows) collector.add(message, message.timestamp)
  return collector.render()
}

describe('escapeForComment', () => {
  it.each(['--', '-->', '--->', '----', 'a--b--c', '<!-- x -->', '- - --'])(
    'leaves no "--" in %j',
    (text) => {
      const escaped = escapeForComment(text)
      expect(escaped).not.toContain('--')
      expect(escaped).toHaveLength(text.length)
    },
  )
})

describe('clipText', () => {
  it('collapses newlines and control characters into single spaces', () => {
    expect(clipText('a\n\n b\r\n\tc\u0000d', 50)).toBe('a b c d')
  })

  it('cuts long text to the limit with an ellipsis without splitting a surrogate pair', () => {
    expect(clipText('x'.repeat(200), 180)).toBe(`${'x'.repeat(179)}…`)
    expect(Array.from(clipText('😀'.repeat(300), 10))).toEqual([...Array(9).fill('😀'), '…'])
    expect(clipText('short', 180)).toBe('short')
    expect(clipText(`${'y'.repeat(10)}${' '.repeat(5000)}z`, 20)).toBe(`${'y'.repeat(10)}…`)
  })
})

describe('CueCollector', () => {
  it('ranks cue terms by frequency, breaks ties alphabetically and skips stopwords', () => {
    const cues = collect([
      row(0, 'a', 'The zebra and the apple would like pears'),
      row(1, 'a', 'zebra apple mango'),
      row(2, 'a', "Zebra's apple"),
    ])
    expect(cues).toContain('cue_terms: apple, zebra, mango, pears\n')
  })

  it('caps cue terms at cueTermsMax', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`)
    const cues = collect([row(0, 'a', words.join(' '))], { cueTermsMax: 4 })
    expect(cues).toMatch(/^cue_terms: (\S+, ){3}\S+$/m)
  })

  it('shows a large tree as first and last messages and truncates snippets to snippetMaxChars', () => {
    const rows = Array.from({ length: 30 }, (_, i) =>
      row(i, i % 10 === 0 ? 'b' : 'a', `n${i} ${'z'.repeat(100)}`),
    )
    rows.push(row(31, 'c', 'x'))
    const cues = collect(rows, { snippetMaxChars: 40 })
    const snippets = cues.split('\n').filter((line) => line.startsWith('- 2026') && line.includes('[A]'))
    expect(snippets.map((line) => line.replace(/.*\[A\]: (n\d+).*/, '$1'))).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'n25',
      'n26',
      'n27',
      'n28',
      'n29',
    ])
    for (const line of snippets) expect(Array.from(line.replace(/.*\[A\]: /, ''))).toHaveLength(40)
    expect(cues).toContain('[A]: n5 ')
    expect(cues).toMatch(/n5 z+…\n {2}… 17 more messages in this tree …\n- \S+ Sam \[A\]: n25 /)
  })

  it('renders an empty slice without snippets', () => {
    expect(collect([])).toBe(
      'slice: (empty)\nmessages: 0 · session_trees: 0 · session_chats: 0\n' +
        'bounded_full_slice: yes\ncue_terms: (none)\nmessage_snippets: all 0 shown',
    )
  })
})

describe('formatSnippet via CueCollector', () => {
  it('clips sender to 40, chat to 80 and a megabyte message to snippetMaxChars', () => {
    const message = {
      ...row(0, 'a', 'q'.repeat(1_000_000)),
      senderName: 'S'.repeat(100),
      chatName: 'C'.repeat(200),
    }
    const line = collect([message]).split('\n').at(-1) as string
    expect(line).toBe(`- ${message.timestamp} ${'S'.repeat(39)}… [${'C'.repeat(79)}…]: ${'q'.repeat(299)}…`)
  })
})

describe('what the cues say is shown', () => {
  it('says "all N shown" and bounded_full_slice yes when small trees show every message, past the whole-slice bounds', () => {
    const rows = ['a', 'b', 'c'].flatMap((tree, t) =>
      [0, 1].map((i) => row(t * 2 + i, tree, `note ${tree}${i}`)),
    )
    const cues = collect(rows)
    expect(cues).toContain('session_tree_index:')
    expect(cues).toContain('bounded_full_slice: yes\n')
    expect(cues).toContain('message_snippets: all 6 shown\n')
  })

  it('says how many of the slice a large tree shows, and how many snippets were cut', () => {
    const rows = Array.from({ length: 60 }, (_, i) => row(i, 'a', i === 0 ? 'x'.repeat(400) : `n${i}`))
    const cues = collect(rows)
    expect(cues).toContain('bounded_full_slice: no\n')
    expect(cues).toContain('message_snippets: 10 of 60 shown (1 cut at 300 characters)\n')
  })

  it('keeps a 250-character message whole and names senders with the data marks, never a role', () => {
    const fact = `I've known these friends for 4 years, since I moved from my home country; ${'we hike every Sunday. '.repeat(8)}`
    const rows = [
      { ...row(0, 'a', fact.slice(0, 250)), senderName: 'Caroline' },
      { ...row(1, 'a', 'Lovely!'), senderName: 'Melanie', isFromMe: true, isBotMessage: true },
      { ...row(2, 'a', 'Me too'), senderName: 'Jo', isFromMe: true },
    ]
    const cues = collect(rows)
    expect(cues).toContain(`Caroline [A]: ${clipText(fact.slice(0, 250), 300)}\n`)
    expect(clipText(fact.slice(0, 250), 300)).not.toContain('…')
    expect(cues).toContain('Melanie (bot) [A]: Lovely!')
    expect(cues).toContain('Jo (from_me) [A]: Me too')
    expect(cues).toContain('messages: 3 by Caroline 1, Jo 1, Melanie 1 ·')
    expect(cues).not.toMatch(/\b(user|assistant)\b/)
  })
})
