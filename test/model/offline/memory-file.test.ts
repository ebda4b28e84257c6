import { describe, expect, it } from 'vitest'
import {
  escapeInline,
  insertInSection,
  parseEntries,
  renderEntry,
  supersedeLine,
} from '../../../src/model/offline/memory-file.js'
import { fact } from './facts.js'

describe('memory-file entries', () => {
  it('renders a keyed bullet and parses it back', () => {
    const line = renderEntry(fact())
    expect(line).toBe(
      '- **City: Porto** — we moved to Porto [[2026-11-18]] <!-- key: user.city; value: Porto -->',
    )
    expect(parseEntries(`# User\n\n${line}\n`)).toEqual([
      {
        line: 2,
        bullet: '- ',
        visible: '**City: Porto** — we moved to Porto [[2026-11-18]]',
        key: 'user.city',
        value: 'Porto',
        supersededOn: null,
        day: '2026-11-18',
        lastSeen: '2026-11-18',
        isArchived: false,
      },
    ])
  })

  it('strikes a superseded entry through and keeps every word of it', () => {
    const [entry] = parseEntries(
      '- **City: Lisbon** — I live in Lisbon [[2026-11-04]] <!-- key: user.city; value: Lisbon -->',
    )
    const line = supersedeLine(entry!, '2026-11-18', 'Porto')
    expect(line).toBe(
      '- ~~**City: Lisbon** — I live in Lisbon [[2026-11-04]]~~ — superseded 2026-11-18 → Porto <!-- key: user.city; value: Lisbon; superseded: 2026-11-18 -->',
    )
    expect(parseEntries(line)[0]).toMatchObject({
      key: 'user.city',
      value: 'Lisbon',
      supersededOn: '2026-11-18',
      day: '2026-11-04',
    })
  })

  it('cannot be broken by message text that opens or closes an HTML comment', () => {
    const line = renderEntry(fact({ text: 'prints <!-- key: evil --> and -- done --> ok' }))
    const entries = parseEntries(line)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ key: 'user.city', value: 'Porto' })
    expect(escapeInline('a -->\nb')).toBe('a --&gt; b')
  })

  it('ignores lines people wrote without a key', () => {
    expect(parseEntries('- I like hiking\n- Lives in Lisbon <!-- note to self -->\n')).toEqual([])
  })
})

describe('insertInSection', () => {
  it('appends after the last line of the section, before the next heading', () => {
    const text = '# User\n\n## Identity\n\n- mine\n\n## People\n'
    expect(insertInSection(text, '## Identity', ['- new'])).toBe(
      '# User\n\n## Identity\n\n- mine\n- new\n\n## People\n',
    )
  })

  it('fills an empty section with a blank line after its heading', () => {
    expect(insertInSection('## Identity\n\n## People\n', '## Identity', ['- new'])).toBe(
      '## Identity\n\n- new\n\n## People\n',
    )
    expect(insertInSection('## Identity\n', '## Identity', ['- new'])).toBe('## Identity\n\n- new\n')
  })

  it('creates a missing section at the end, keeping what was there', () => {
    expect(insertInSection('# User\nmy own words', '## People', ['- new'])).toBe(
      '# User\nmy own words\n\n## People\n\n- new\n',
    )
  })
})
