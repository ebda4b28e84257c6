// Ordering by importance, archiving below the floor and reviving, on whole memory-file texts.
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/config/defaults.js'
import { refreshFactFile } from '../../src/notes/fact-archive.js'

const PARAMS = DEFAULTS.memory.freshness

const CITY = '- **City: Porto** — I live in Porto [[2026-01-05]] <!-- key: user.city; value: Porto -->'
const JOB = '- **Job: nurse** — I work as a nurse [[2026-03-01]] <!-- key: user.job; value: nurse -->'
const HAND = '- Allergic to cats (written by hand)'
const TEA = '- I love tea [[2026-01-02]] <!-- key: user.pref.tea; seen: 2026-01-02..2026-04-01 x3 -->'
const JAZZ = '- I love jazz [[2026-01-10]] <!-- key: user.pref.jazz -->'
const OLD_CITY =
  '- ~~**City: Braga** — Braga [[2025-01-01]]~~ — superseded 2026-01-05 → Porto <!-- key: user.city; value: Braga; superseded: 2026-01-05 -->'
const UNDATED = '- Speaks Portuguese <!-- key: user.language -->'

const USER_MD = [
  '# User',
  '',
  '> Who the user is.',
  '',
  '## Identity',
  '',
  OLD_CITY,
  CITY,
  HAND,
  JOB,
  UNDATED,
  '',
  '## Preferences',
  '',
  JAZZ,
  TEA,
  '',
].join('\n')

describe('refreshFactFile', () => {
  it('orders facts within each `###` group, never across one: one person’s facts stay under their heading', () => {
    const ula = '- **Job: nurse** [[2026-01-05]] <!-- key: person.ula.job; value: nurse -->'
    const tom =
      '- **Job: baker** [[2026-01-05]] <!-- key: person.tom.job; value: baker; seen: 2026-01-05..2026-03-01 x3 -->'
    const tomCity = '- **City: Leeds** [[2026-01-05]] <!-- key: person.tom.city; value: Leeds -->'
    const text = `# User\n\n## People\n\n### Ula (sister)\n\n${ula}\n\n### Tom (brother)\n\n${tomCity}\n${tom}\n`
    // Tom's reinforced job (0.7) outranks Ula's (0.5), and moves up within Tom's group only.
    expect(refreshFactFile(text, '2026-03-20', PARAMS, 'user.md')).toBe(
      `# User\n\n## People\n\n### Ula (sister)\n\n${ula}\n\n### Tom (brother)\n\n${tom}\n${tomCity}\n`,
    )
  })

  it('orders a section by importance; hand-written, superseded and undated lines keep their places', () => {
    // 2026-03-20 in project.md, where facts fade: city 74 days old → 0.5 × 0.5^(44/45) = 0.2539; job 19 days → 0.5.
    const projects = USER_MD.replace('## Identity', '## Plans')
    const plans = refreshFactFile(projects, '2026-03-20', PARAMS, 'project.md')
    expect(plans.split('## Plans\n\n')[1]?.split('\n\n')[0]?.split('\n')).toEqual([
      OLD_CITY,
      JOB,
      HAND,
      CITY,
      UNDATED,
    ])
    // Who the user is lasts: city and job keep 0.5 each, and equals keep their order.
    const out = refreshFactFile(USER_MD, '2026-03-20', PARAMS, 'user.md')
    const identity = out.split('## Identity\n\n')[1]?.split('\n\n')[0]
    expect(identity?.split('\n')).toEqual([OLD_CITY, CITY, HAND, JOB, UNDATED])
    // Tea (said on 3 days, last 2026-04-01 — in the future here) 0.7 > jazz (69 days) 0.5 × 0.5^(39/45) = 0.2742.
    expect(out).toContain(`## Preferences\n\n${TEA}\n${JAZZ}\n`)
    expect(out).not.toContain('## Archive')
  })

  it('changes nothing, byte for byte, while the facts are in order and none has faded', () => {
    // 2026-01-12: city, job and jazz all 0.5 (in their grace; equals keep their order), tea 0.7 first.
    const sorted = USER_MD.replace(`${JAZZ}\n${TEA}`, `${TEA}\n${JAZZ}`)
    expect(refreshFactFile(sorted, '2026-01-12', PARAMS, 'user.md')).toBe(sorted)
    expect(refreshFactFile(USER_MD, '2026-01-12', PARAMS, 'user.md')).toBe(sorted)
  })

  it('moves facts below the floor under ## Archive in a group per section, whole and keyed, idempotently', () => {
    // 2026-06-15: jazz 156 days → 0.5 × 0.5^(126/45) = 0.0718; tea (0.7, last 2026-04-01, 75 days) → 0.35. City
    // (161 days) and job (106 days) are who the user is: they stay, however long ago they were said.
    const out = refreshFactFile(USER_MD, '2026-06-15', PARAMS, 'user.md')
    expect(out).toBe(
      [
        '# User',
        '',
        '> Who the user is.',
        '',
        '## Identity',
        '',
        OLD_CITY,
        CITY,
        HAND,
        JOB,
        UNDATED,
        '',
        '## Preferences',
        '',
        TEA,
        '',
        '## Archive',
        '',
        '### Preferences',
        '',
        JAZZ,
        '',
      ].join('\n'),
    )
    expect(refreshFactFile(out, '2026-06-15', PARAMS, 'user.md')).toBe(out)
    // Later, tea fades too (0.7 × 0.5^(137/45) = 0.0849 on 2026-09-15) and joins its group; nothing is removed.
    const later = refreshFactFile(out, '2026-09-15', PARAMS, 'user.md')
    expect(later).toContain(`### Preferences\n\n${JAZZ}\n${TEA}\n`)
    for (const line of USER_MD.split('\n')) expect(later.split('\n')).toContain(line)
  })

  it('brings a fact stated again back to its section and drops its emptied group', () => {
    const archived = refreshFactFile(USER_MD, '2026-06-15', PARAMS, 'user.md')
    const restated = archived.replace(
      'key: user.pref.jazz -->',
      'key: user.pref.jazz; seen: 2026-01-10..2026-06-14 x2 -->',
    )
    const out = refreshFactFile(restated, '2026-06-15', PARAMS, 'user.md')
    const revived = JAZZ.replace('-->', '').trimEnd() + '; seen: 2026-01-10..2026-06-14 x2 -->'
    // Jazz, said yesterday (0.6), now ranks above tea (0.35).
    expect(out).toContain(`## Preferences\n\n${revived}\n${TEA}\n`)
    expect(out).not.toContain('## Archive')
    expect(refreshFactFile(out, '2026-06-15', PARAMS, 'user.md')).toBe(out)
  })

  it('recreates a section that is gone, and drops the archive heading it emptied', () => {
    const text = `# Reference\n\n## Archive\n\n### Wi-Fi\n\n- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->\n`
    const out = refreshFactFile(text, '2026-06-02', PARAMS, 'reference.md')
    expect(out).toBe(
      '# Reference\n\n## Wi-Fi\n\n- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->\n',
    )
    expect(refreshFactFile(out, '2026-06-02', PARAMS, 'reference.md')).toBe(out)
  })

  it('keeps an archive heading that still has text under it, or another section after it', () => {
    const fact = '- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->'
    const text = `# Reference\n\n## Wi-Fi\n\n## Archive\n\nOld networks, by hand.\n\n### Wi-Fi\n\n${fact}\n`
    expect(refreshFactFile(text, '2026-06-02', PARAMS, 'reference.md')).toBe(
      `# Reference\n\n## Wi-Fi\n\n${fact}\n\n## Archive\n\nOld networks, by hand.\n`,
    )
    const middle = `# Reference\n\n## Wi-Fi\n\n## Archive\n\n### Wi-Fi\n\n${fact}\n\n## Notes\n\nmine\n`
    expect(refreshFactFile(middle, '2026-06-02', PARAMS, 'reference.md')).toBe(
      `# Reference\n\n## Wi-Fi\n\n${fact}\n\n## Notes\n\nmine\n`,
    )
  })

  it('never archives a plan before its date', () => {
    const plan = '- **2026-12-11** — launch [[2026-01-05]] <!-- key: plan.launch; value: 2026-12-11 -->'
    const text = `# Projects\n\n## Plans and deadlines\n\n${plan}\n`
    expect(refreshFactFile(text, '2026-11-30', PARAMS, 'project.md')).toBe(text)
  })

  describe('facts that last', () => {
    const LATER = '2027-06-01'
    const dated = (text: string, key: string) => `- ${text} [[2026-01-05]] <!-- key: ${key} -->`
    const SISTER = dated('**Sister: Lena**', 'user.relation.sister.lena')
    const DOG = dated('**Dog: Biscuit**', 'user.relation.dog.biscuit')
    const NAME = dated('**Name: Ana**', 'user.name')
    const PEANUTS = dated('**Allergy: peanuts**', 'user.allergy.peanuts')
    const VEGETARIAN = dated('**Diet: vegetarian**', 'user.diet')
    const JAZZ_OLD = dated('I love jazz', 'user.pref.jazz')

    it('keeps who the user is, their people and pets and their body in place, however long ago they were said', () => {
      const text = [
        '# User',
        '',
        '## Identity',
        '',
        NAME,
        '',
        '## People',
        '',
        SISTER,
        DOG,
        '',
        '## Preferences',
        '',
        PEANUTS,
        JAZZ_OLD,
        VEGETARIAN,
        '',
      ].join('\n')
      const out = refreshFactFile(text, LATER, PARAMS, 'user.md')
      // Only the taste faded; the allergy and the diet, filed under Preferences, last and so rank above it.
      expect(out).toBe(
        text.replace(
          `${PEANUTS}\n${JAZZ_OLD}\n${VEGETARIAN}\n`,
          `${PEANUTS}\n${VEGETARIAN}\n\n## Archive\n\n### Preferences\n\n${JAZZ_OLD}\n`,
        ),
      )
      expect(refreshFactFile(out, LATER, PARAMS, 'user.md')).toBe(out)
    })

    it('keeps standing instructions and references, while decisions and plans fade', () => {
      const short = dated('**Keep answers short**', 'feedback.keep-answers-short')
      const wifi = dated('Wi-Fi: porto-home', 'ref.wifi')
      expect(
        refreshFactFile(`# Feedback\n\n## How to answer\n\n${short}\n`, LATER, PARAMS, 'feedback.md'),
      ).toBe(`# Feedback\n\n## How to answer\n\n${short}\n`)
      expect(refreshFactFile(`# Reference\n\n## Reference\n\n${wifi}\n`, LATER, PARAMS, 'reference.md')).toBe(
        `# Reference\n\n## Reference\n\n${wifi}\n`,
      )
      const decision = dated('We chose Postgres', 'decision.postgres')
      expect(
        refreshFactFile(`# Projects\n\n## Decisions\n\n${decision}\n`, LATER, PARAMS, 'project.md'),
      ).toContain(`## Archive\n\n### Decisions\n\n${decision}\n`)
    })

    it('brings a lasting fact an earlier dream archived back to its section', () => {
      const text = `# User\n\n## People\n\n## Archive\n\n### People\n\n${SISTER}\n`
      const out = refreshFactFile(text, LATER, PARAMS, 'user.md')
      expect(out).toBe(`# User\n\n## People\n\n${SISTER}\n`)
    })
  })
})
