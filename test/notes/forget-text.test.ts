import { describe, expect, it } from 'vitest'
import { forgetInText, valuesOfFact } from '../../src/notes/forget-text.js'
import { compileForgetMatcher } from '../../src/privacy/forget-match.js'

const dentist = compileForgetMatcher(['dentist', 'Dr Sousa'])

describe('forgetInText', () => {
  it('takes a keyed fact out whole, with its continuation lines, and leaves its neighbours', () => {
    const text = '# User\n\n- **Dentist: Dr Sousa** — said so\n  every six months\n- **City: Porto**\n'
    const edit = forgetInText('notes/memory/user.md', text, dentist)
    expect(edit.text).toBe('# User\n\n- **City: Porto**\n')
    expect(edit.removals).toEqual([
      { line: 3, kind: 'fact', text: '- **Dentist: Dr Sousa** — said so\n  every six months' },
    ])
  })

  it('takes an index pointer out of MEMORY.md, and a topic out of recent-context.md', () => {
    expect(
      forgetInText(
        'notes/memory/MEMORY.md',
        '- [days/x.md](days/x.md) — Dr Sousa\n- [user.md](user.md)\n',
        dentist,
      ).text,
    ).toBe('- [user.md](user.md)\n')
    const topics = forgetInText(
      'notes/memory/recent-context.md',
      '- [[2026-11-20]] Fri, 4 messages: Porto, Dr Sousa, flat\n',
      dentist,
    )
    expect(topics.text).toBe('- [[2026-11-20]] Fri, 4 messages: Porto, flat\n')
    expect(topics.removals).toEqual([{ line: 1, kind: 'topic', text: 'Dr Sousa,' }])
  })

  it('in a daily note: Noted entries whole, cue lines whole, cue terms and summary sentences alone; front matter kept', () => {
    const note = [
      '---',
      "date: '2026-11-20'",
      'summary_of: dentist',
      '---',
      '# Friday',
      '',
      '<!-- DREAM_CUES',
      'cue_terms: porto, dentist, flat',
      '- 2026-11-20T09:00 user Alex [web:main]: My dentist is Dr Sousa',
      '- 2026-11-20T09:01 user Alex [web:main]: Porto is nice',
      'DREAM_CUES -->',
      '',
      '## Noted',
      '',
      '- 09:10 Dentist is Dr Sousa',
      '- 09:12 Likes window seats',
      '',
      '## Summary',
      '',
      '- Alex: My dentist is Dr Sousa. Alex: I moved to Porto.',
      '',
    ].join('\n')
    const edit = forgetInText('notes/daily/2026-11-20.md', note, dentist)
    expect(edit.text).toContain('summary_of: dentist')
    expect(edit.text).toContain('cue_terms: porto, flat')
    expect(edit.text).toContain('- 2026-11-20T09:01 user Alex [web:main]: Porto is nice')
    expect(edit.text).toContain('- 09:12 Likes window seats')
    expect(edit.text).toContain('- Alex: I moved to Porto.')
    expect(edit.text.split('\n').slice(4).join('\n')).not.toMatch(/dentist|sousa/i)
    expect(edit.removals.map((removal) => removal.kind)).toEqual(['cue', 'cue', 'noted', 'sentence'])
  })

  it('a line with nothing left but its speaker goes whole; a text that does not mention it is returned as it is', () => {
    expect(forgetInText('notes/memory/days/2026-11-20.md', 'Intro.\n- Alex: Dr Sousa.\n', dentist).text).toBe(
      'Intro.\n',
    )
    const same = 'nothing to see\n'
    expect(forgetInText('notes/memory/user.md', same, dentist)).toEqual({ text: same, removals: [] })
  })
})

describe('valuesOfFact', () => {
  it.each([
    ['- **Dentist: Dr Sousa** — x <!-- key: user.dentist -->', ['Dr Sousa', 'Sousa']],
    ['- **City: Porto** — x <!-- key: user.city; value: Porto -->', ['Porto']],
    ['- **Diet: no meat** — x', []],
    ['- **2026-12-05** — plan <!-- key: plan.x; value: 2026-12-05 -->', []],
  ])('%s → %j', (text, expected) => expect(valuesOfFact(text)).toEqual(expected))
})
