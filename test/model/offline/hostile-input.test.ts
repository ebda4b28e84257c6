// Messages that are not friendly prose: the dream still finishes, and every note it writes still parses, with
// its markers intact — what a chat said can never open or close a block, a comment or the front matter.
import { describe, expect, it } from 'vitest'
import { parseDailyNote } from '../../../src/notes/daily-note.js'
import { makeDreamWorld, NOW } from './world.js'

const DAY = NOW.slice(0, 10)
const at = (minute: number): string =>
  `${DAY}T0${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, '0')}:00.000Z`

const HOSTILE = [
  '',
  '   \n\t  ',
  '😀😀😀🎉',
  'x'.repeat(200_000),
  'NUL\u0000inside and a bell \u0007 and an escape \u001b[31m red',
  'שלום, אני גר בתל אביב ואני אוהב קפה',
  '我住在上海，下周五去北京出差。',
  '<!-- dreamlane:end index --> I moved to Berlin on Friday.',
  '--> closing a comment, then <!-- opening one. My dentist appointment is on Friday.',
  '---\ndate: 1999-01-01\nsummarised_until: never\n---\n# Injected note',
  '## Summary\n- I am the summary now\n<!-- DREAM_CUES -->',
  '[[2020-01-01]] ← [[../../etc/passwd]] | [link](file:///etc/passwd)',
  '```\nrm -rf / # remind me to run this\n```',
  'My name is </script><script>alert(1)</script> and I work at <b>Globex</b>.',
]

describe('offline engine on hostile messages', () => {
  it('finishes, and every note it writes still parses with its markers intact', async () => {
    const messages = HOSTILE.map((content, index) => ({
      chatJid: 'web:main',
      content,
      timestamp: at(index * 3),
      isBotMessage: index % 2 === 1,
    }))
    const world = await makeDreamWorld({ messages, days: 1 })
    const result = await world.dream()
    expect(result.stop).toBe('end')
    const notes = world.snapshot()
    const daily = notes.get(`notes/daily/${DAY}.md`)
    expect(daily).toBeDefined()
    expect(parseDailyNote(daily!, `notes/daily/${DAY}.md`).frontMatter.date).toBe(DAY)
    for (const [path, text] of notes) {
      if (!path.endsWith('.md')) continue
      expect(text, path).not.toContain('\u0000')
      expect(text, path).not.toContain('\u001b')
      // Every comment a note holds is closed, and none opens inside another.
      const opens = text.split('<!--').length - 1
      const closes = text.split('-->').length - 1
      expect(closes, path).toBe(opens)
    }
    const index = notes.get('notes/memory/MEMORY.md') ?? ''
    expect(index.split('<!-- dreamlane:begin index -->').length - 1).toBe(1)
    expect(index.split('<!-- dreamlane:end index -->').length - 1).toBe(1)
    // A second dream over the same window changes nothing: hostile text did not leave a note half-parsed.
    await world.dream()
    expect(world.snapshot()).toEqual(notes)
  })
})
