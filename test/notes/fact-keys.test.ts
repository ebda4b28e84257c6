import { describe, expect, it } from 'vitest'
import { keyFactFile } from '../../src/notes/fact-keys.js'
import { parseFactLine } from '../../src/notes/fact-lines.js'

const TODAY = '2026-11-21'
const key = (text: string, file = 'user.md') => keyFactFile(text, file, TODAY)
const user = (...lines: string[]) => `# User\n\n## Identity\n\n${lines.join('\n')}\n`
/** The line of `text` that holds `needle`. */
const lineWith = (text: string, needle: string) => text.split('\n').find((line) => line.includes(needle))

describe('keying one fact bullet', () => {
  it.each([
    [
      'a bold subject and value with several links',
      '- **City: Porto** — I live in Porto [[2026-11-05]] [[2026-11-01]] [[2026-11-05]]',
      '<!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-05 x2 -->',
    ],
    ['no link: no seen field', '- **City: Porto**', '<!-- key: user.city; value: Porto -->'],
    [
      'the value after a bold label',
      '- **Works at:** Acme Robotics — since 2019 [[2026-11-02]]',
      '<!-- key: user.works-at; value: Acme Robotics; seen: 2026-11-02..2026-11-02 x1 -->',
    ],
    ['a colon after the bold', '- **Diet**: vegetarian.', '<!-- key: user.diet; value: vegetarian -->'],
    [
      'bold without a colon: a statement, no value',
      '- **Loves hiking** — most weekends [[2026-11-03]]',
      '<!-- key: user.loves-hiking; seen: 2026-11-03..2026-11-03 x1 -->',
    ],
    [
      'a plain statement: its first words',
      '- Prefers short answers without any emoji at all [[2026-11-04]]',
      '<!-- key: user.prefers-short-answers-without-any-emoji; seen: 2026-11-04..2026-11-04 x1 -->',
    ],
    [
      'a plain label and value',
      '- Favourite word: zanzibarite',
      '<!-- key: user.favourite-word; value: zanzibarite -->',
    ],
    ['a `*` bullet', '* **Tea: oolong**', '<!-- key: user.tea; value: oolong -->'],
    ['a `+` bullet, accents folded', '+ **Café: Ribeira**', '<!-- key: user.cafe; value: Ribeira -->'],
  ])('%s', (_shape, line, comment) => {
    const result = key(user(line))
    expect(lineWith(result.text, line.slice(0, 8))).toBe(`${line} ${comment}`)
    expect(result.keyed).toHaveLength(1)
  })

  it('keeps every byte the model wrote: only a comment is appended', () => {
    const line = '- **City: Porto** — "quoted", with *emphasis* & [a link](x.md) [[2026-11-01]]'
    const text = lineWith(key(user(line)).text, 'City') ?? ''
    expect(text.startsWith(`${line} <!-- key: user.city;`)).toBe(true)
  })

  it('makes a value safe for the comment', () => {
    const text = key(user('- **Motto: work; rest -- repeat**')).text
    expect(text).toContain('<!-- key: user.motto; value: work rest - repeat -->')
    expect(parseFactLine(lineWith(text, 'Motto') ?? '')?.comment?.value).toBe('work rest - repeat')
  })

  it.each([
    ['a heading', '## **City: Porto**'],
    ['a paragraph', '**City: Porto** is where I live'],
    ['a bullet of links only', '- [[2026-11-01]] [[2026-11-02]]'],
    ['a promoted line', '- Oolong at 80°C — [notes/tea.md:3](../tea.md) <!-- recall:0123456789ab -->'],
    ['an empty bullet', '- '],
    ['an undated plain sentence (a note, not a fact)', '- Prefers green tea over coffee.'],
  ])('leaves %s alone', (_what, line) => {
    const text = user(line)
    expect(key(text)).toEqual({ text, keyed: [], reinforced: [], superseded: [], merged: 0 })
  })

  it('skips code, dream-owned blocks and comments', () => {
    const text = [
      '# Current state',
      '',
      '```',
      '- **City: Porto**',
      '```',
      '<!-- dreamlane:begin current-state -->',
      '- **Next: dentist** [[2026-11-25]]',
      '<!-- dreamlane:end current-state -->',
      '<!--',
      '- **Hidden: yes**',
      '-->',
      '',
    ].join('\n')
    expect(key(text, 'current-state.md').text).toBe(text)
  })

  it('keeps CRLF line ends', () => {
    const result = key('# User\r\n\r\n- **City: Porto** [[2026-11-01]]\r\n')
    expect(result.text).toBe(
      '# User\r\n\r\n- **City: Porto** [[2026-11-01]] <!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-01 x1 -->\r\n',
    )
  })
})

describe('where a key comes from', () => {
  it('names the file: project.md, reference.md, feedback.md', () => {
    expect(key('# P\n\n- **Database: Postgres**\n', 'project.md').keyed).toEqual(['project.database'])
    expect(key('# R\n\n- **Wi-Fi: porto-home**\n', 'reference.md').keyed).toEqual(['reference.wi-fi'])
    expect(key('# F\n\n- Answer in British English [[2026-11-02]]\n', 'feedback.md').keyed).toEqual([
      'feedback.answer-in-british-english',
    ])
  })

  it('keys a person’s facts under their `###` heading in People', () => {
    const text = [
      '# User',
      '',
      '## People',
      '',
      '### Ula (sister)',
      '',
      '- **Job: nurse** [[2026-11-02]]',
      '',
      '### Tom Ortega (brother)',
      '',
      '- **Job: baker** [[2026-11-04]]',
      '- **Lives in: Leeds**',
      '',
    ].join('\n')
    const result = key(text)
    expect(result.keyed).toEqual(['person.ula.job', 'person.tom-ortega.job', 'person.tom-ortega.lives-in'])
    expect(result.superseded).toEqual([])
  })

  it('keys nested bullets under a person bullet as that person’s', () => {
    const text = [
      '# User',
      '',
      '## People',
      '',
      '- **Ula (sister)**',
      '  - **Job: nurse** [[2026-11-02]]',
      '  - **City: Braga**',
      '- **Tom (brother)**',
      '  - **Job: baker**',
      '',
    ].join('\n')
    expect(key(text).keyed).toEqual([
      'person.ula',
      'person.ula.job',
      'person.ula.city',
      'person.tom',
      'person.tom.job',
    ])
  })

  it('keeps two people of one relation apart: a second sister is no change of the first', () => {
    const first = key('# User\n\n## People\n\n- **Sister: Ula** [[2026-11-01]]\n').text
    const second = key(`${first}- **Sister: Mia** [[2026-11-20]]\n`)
    expect(second.keyed).toEqual(['user.sister.mia'])
    expect(second.superseded).toEqual([])
    expect(second.text).not.toContain('~~')
  })

  it('scopes a `###` group outside People: two projects’ deadlines are two facts', () => {
    const text =
      '# Projects\n\n## Plans\n\n### Atlas\n\n- **Deadline: 2026-12-01**\n\n### Beacon\n\n- **Deadline: 2027-01-15**\n'
    const result = key(text, 'project.md')
    expect(result.keyed).toEqual(['project.atlas.deadline', 'project.beacon.deadline'])
    expect(key(result.text, 'project.md').text).toBe(result.text)
  })

  it('keys a line in `## Archive` by file and subject (an archive group is no scope)', () => {
    const text =
      '# User\n\n## Preferences\n\n## Archive\n\n### Preferences\n\n- **Band: Low** [[2025-01-02]]\n'
    const result = key(text)
    expect(result.keyed).toEqual(['user.band'])
    expect(result.text).toContain(
      '- **Band: Low** [[2025-01-02]] <!-- key: user.band; value: Low; seen: 2025-01-02..2025-01-02 x1 -->',
    )
  })

  it('gives two different current facts of one subject two keys, neither merged nor struck', () => {
    const result = key(user('- **Music: jazz** [[2026-11-01]]', '- **Music: blues** [[2026-11-02]]'))
    expect(result.keyed).toEqual(['user.music', 'user.music.blues'])
    expect(result.superseded).toEqual([])
    expect(result.merged).toBe(0)
    // A third value later adds a third fact: a subject that holds several values is no slot.
    const later = key(`${result.text}- **Music: rock** [[2026-11-20]]\n`)
    expect(later.keyed).toEqual(['user.music.rock'])
    expect(later.superseded).toEqual([])
  })

  it('takes a fact’s key for its subject: a new value for the subject a key names changes that fact', () => {
    const offline = '- **Home: Porto** — I live in Porto [[2026-01-05]] <!-- key: user.city; value: Porto -->'
    const result = key(user(offline, '- **City: Lisbon** [[2026-11-20]]'))
    expect(result.superseded).toEqual(['user.city: Porto → Lisbon'])
    expect(result.keyed).toEqual([])
  })
})

describe('a fact stated again', () => {
  const KEYED =
    '- **City: Porto** — I live in Porto [[2026-11-01]] <!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-01 x1 -->'

  it('counts a day link added to a keyed bullet in its seen field', () => {
    const result = key(user(KEYED.replace('[[2026-11-01]]', '[[2026-11-01]] [[2026-11-20]]')))
    expect(result.reinforced).toEqual(['user.city'])
    expect(result.text).toContain(
      '[[2026-11-01]] [[2026-11-20]] <!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-20 x2 -->',
    )
  })

  it('folds a new bullet with the same subject and value into the fact: links merged, new words kept, no duplicate', () => {
    const result = key(user(KEYED, '- **City:** porto — still here, near the river [[2026-11-20]]'))
    expect(result).toMatchObject({ keyed: [], reinforced: ['user.city'], superseded: [], merged: 1 })
    expect(result.text).toBe(
      user(
        '- **City: Porto** — I live in Porto [[2026-11-01]]; still here, near the river [[2026-11-20]] <!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-20 x2 -->',
      ),
    )
  })

  it('drops an exact duplicate of a fact it already holds, counting nothing new', () => {
    const result = key(user(KEYED, '- **City: Porto** — I live in Porto [[2026-11-01]]'))
    expect(result).toMatchObject({ keyed: [], reinforced: [], merged: 1 })
    expect(result.text).toBe(user(KEYED))
  })

  it('reinforces an offline fact with no seen field once a second day is linked', () => {
    const offline = '- I love hiking [[2026-11-18]] <!-- key: user.pref.hiking -->'
    const result = key(user(offline, '- I love hiking [[2026-12-01]]'))
    expect(result).toMatchObject({ keyed: [], reinforced: ['user.pref.hiking'], merged: 1 })
    expect(result.text).toBe(
      user(
        '- I love hiking [[2026-11-18]] [[2026-12-01]] <!-- key: user.pref.hiking; seen: 2026-11-18..2026-12-01 x2 -->',
      ),
    )
    const again = key(user(offline.replace('[[2026-11-18]]', '[[2026-11-18]] [[2026-12-01]]')))
    expect(again.reinforced).toEqual(['user.pref.hiking'])
    expect(again.text).toContain('<!-- key: user.pref.hiking; seen: 2026-11-18..2026-12-01 x2 -->')
  })
})

describe('a fact that changed', () => {
  const KEYED =
    '- **City: Porto** — I live in Porto [[2026-11-01]] <!-- key: user.city; value: Porto; seen: 2026-11-01..2026-11-05 x2 -->'

  it('supersedes a keyed bullet whose bold value the model edited: old value struck with the day, new line after', () => {
    const edited = KEYED.replace('City: Porto', 'City: Lisbon').replace(
      '[[2026-11-01]]',
      '[[2026-11-01]] [[2026-11-20]]',
    )
    const result = key(user(edited))
    expect(result.superseded).toEqual(['user.city: Porto → Lisbon'])
    expect(result.text).toBe(
      user(
        '- ~~**City: Porto** [[2026-11-01]]~~ — superseded 2026-11-20 → Lisbon <!-- key: user.city; value: Porto; superseded: 2026-11-20 -->',
        '- **City: Lisbon** — I live in Porto [[2026-11-20]] <!-- key: user.city; value: Lisbon; seen: 2026-11-20..2026-11-20 x1 -->',
      ),
    )
  })

  it('reads a value struck through inside the bold lead as the old one', () => {
    const result = key(user(KEYED.replace('City: Porto', 'City: ~~Porto~~ Lisbon')))
    expect(result.superseded).toEqual(['user.city: Porto → Lisbon'])
    expect(result.text).toContain(
      '- **City: ~~Porto~~ Lisbon** — I live in Porto <!-- key: user.city; value: Lisbon;',
    )
    expect(key(result.text).text).toBe(result.text)
  })

  it('dates an edit with no new day link on the day of the dream', () => {
    const result = key(user(KEYED.replace('City: Porto', 'City: Lisbon')))
    expect(result.text).toContain('superseded 2026-11-21 → Lisbon')
    expect(result.text).toContain('<!-- key: user.city; value: Lisbon; seen: 2026-11-21..2026-11-21 x1 -->')
  })

  it('supersedes a kept fact when a new bullet gives its subject another value', () => {
    const result = key(user(KEYED, '- **City: Lisbon** — moved last week [[2026-11-20]]'))
    expect(result).toMatchObject({ keyed: [], superseded: ['user.city: Porto → Lisbon'] })
    expect(result.text).toBe(
      user(
        '- ~~**City: Porto** — I live in Porto [[2026-11-01]]~~ — superseded 2026-11-20 → Lisbon <!-- key: user.city; value: Porto; superseded: 2026-11-20 -->',
        '- **City: Lisbon** — moved last week [[2026-11-20]] <!-- key: user.city; value: Lisbon; seen: 2026-11-20..2026-11-20 x1 -->',
      ),
    )
  })

  it('supersedes an offline fact under its own key', () => {
    const offline =
      '- **Works at: Halden Bank** — I work at Halden Bank. [[2026-06-02]] <!-- key: user.employer; value: Halden Bank -->'
    // The offline key (user.employer) is not what the subject gives (user.works-at): the subject still finds it.
    const result = key(user(offline, '- **Works at: Corvid Labs** [[2026-11-20]]'))
    expect(result.superseded).toEqual(['user.employer: Halden Bank → Corvid Labs'])
    expect(result.text).toContain(
      '<!-- key: user.employer; value: Corvid Labs; seen: 2026-11-20..2026-11-20 x1 -->',
    )
  })

  it('reads a copied keyed line with a new value as a change of the line it copied', () => {
    const copy = KEYED.replace('City: Porto', 'City: Lisbon').replace('[[2026-11-01]]', '[[2026-11-20]]')
    const result = key(user(KEYED, copy))
    expect(result.superseded).toEqual(['user.city: Porto → Lisbon'])
    const current = result.text
      .split('\n')
      .filter((line) => line.includes('key: user.city;') && !line.includes('superseded:'))
    expect(current).toEqual([
      '- **City: Lisbon** — I live in Porto [[2026-11-20]] <!-- key: user.city; value: Lisbon; seen: 2026-11-20..2026-11-20 x1 -->',
    ])
    expect(key(result.text).text).toBe(result.text)
  })

  it('folds an exact copy of a keyed line into it', () => {
    const result = key(user(KEYED, KEYED))
    expect(result).toMatchObject({ keyed: [], superseded: [], merged: 1 })
    expect(result.text).toBe(user(KEYED))
  })

  it('keys a struck line the model wrote as superseded, and leaves keyed superseded lines alone', () => {
    const done =
      '- ~~**City: Braga** — Braga [[2025-01-01]]~~ — superseded 2026-01-05 → Porto <!-- key: user.city; value: Braga; superseded: 2026-01-05 -->'
    const result = key(
      user(done, '- ~~**City: Lisbon** [[2026-03-01]]~~ → Porto', '- **City: Porto** [[2026-06-01]]'),
    )
    expect(lineWith(result.text, 'Braga')).toBe(done)
    expect(lineWith(result.text, 'Lisbon')).toBe(
      '- ~~**City: Lisbon** [[2026-03-01]]~~ → Porto <!-- key: user.city; value: Lisbon; superseded: 2026-03-01 -->',
    )
    expect(lineWith(result.text, '**City: Porto**')).toContain('<!-- key: user.city; value: Porto;')
    expect(result.superseded).toEqual([])
  })
})

/** Memory as the offline engine writes it: keyed, reinforced, superseded, archived. */
const OFFLINE_USER = [
  '# User',
  '',
  '> Who the user is, the people and pets around them, preferences. See notes-template/README.md.',
  '',
  '## Identity',
  '',
  '- **Name: Maya** — I am Maya [[2026-01-05]] <!-- key: user.name; value: Maya -->',
  '- ~~**City: Lisbon** — I live in Lisbon [[2026-11-04]]~~ — superseded 2026-11-18 → Porto <!-- key: user.city; value: Lisbon; superseded: 2026-11-18 -->',
  '- **City: Porto** — we moved from Lisbon to Porto [[2026-11-18]] <!-- key: user.city; value: Porto; seen: 2026-11-18..2026-11-20 x2 -->',
  '- **Works at: none (last day at Acme: 2026-10-31)** — my last day at Acme [[2026-10-31]] <!-- key: user.employer; value: none -->',
  '',
  '## People',
  '',
  '- **Sister: Ula (died)** — my sister Ula died [[2026-02-01]] <!-- key: user.relation.sister.ula; value: Ula -->',
  '- **Ex: Dan (back together)** — Dan and I are back together [[2026-05-01]] <!-- key: user.relation.ex.dan; value: Dan -->',
  '',
  '## Preferences',
  '',
  '- I love hiking [[2026-11-18]] <!-- key: user.pref.hiking; seen: 2026-11-18..2026-12-01 x2 -->',
  '- **Favourite band: Radiohead** — I love Radiohead [[2026-11-02]] <!-- key: user.favourite.band; value: Radiohead -->',
  '',
  '## Archive',
  '',
  '### Preferences',
  '',
  '- I love jazz [[2026-01-05]] <!-- key: user.pref.jazz -->',
  '',
].join('\n')

const OFFLINE_PROJECT = [
  '# Projects',
  '',
  '## Plans and deadlines',
  '',
  '- **2026-12-01** — the Atlas launch is on December 1 [[2026-11-02]] <!-- key: plan.atlas-launch; value: 2026-12-01 -->',
  '- ~~**2026-11-28** — first booking [[2026-11-01]]~~ — superseded 2026-11-03 → 2026-12-02 <!-- key: plan.booking; value: 2026-11-28; superseded: 2026-11-03 -->',
  '- **cancelled** — the party is off [[2026-11-05]] <!-- key: plan.party; value: cancelled -->',
  '- **Atlas launch: 2026-12-08** — moved [[2026-11-09]] <!-- key: plan.atlas; value: Atlas launch: 2026-12-08 -->',
  '',
].join('\n')

describe('idempotence', () => {
  it.each([
    ['user.md', OFFLINE_USER],
    ['project.md', OFFLINE_PROJECT],
  ])('finds nothing to do in the offline engine’s %s', (file, text) => {
    expect(keyFactFile(text, file, TODAY)).toEqual({
      text,
      keyed: [],
      reinforced: [],
      superseded: [],
      merged: 0,
    })
  })

  it.each([
    [
      'new bullets',
      user('- **City: Porto** [[2026-11-01]]', '- Loves hiking', '- **Music: jazz**', '- **Music: blues**'),
    ],
    [
      'a restatement',
      user(
        '- **City: Porto** [[2026-11-01]] <!-- key: user.city; value: Porto -->',
        '- **City: Porto** [[2026-11-20]]',
      ),
    ],
    ['an in-place edit', user('- **City: Lisbon** [[2026-11-01]] <!-- key: user.city; value: Porto -->')],
    [
      'a change',
      user('- **City: Porto** [[2026-11-01]] <!-- key: user.city; value: Porto -->', '- **City: Lisbon**'),
    ],
  ])('a second pass over %s changes nothing', (_what, text) => {
    const once = key(text).text
    expect(once).not.toBe(text)
    expect(key(once)).toEqual({ text: once, keyed: [], reinforced: [], superseded: [], merged: 0 })
  })

  it('gives the same keys however often the same text is keyed', () => {
    const text = user('- **City: Porto**', '- **Music: jazz**', '- **Music: blues**')
    expect(key(text).text).toBe(key(text).text)
  })
})
