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
  it('orders a section by importance; hand-written, superseded and undated lines keep their places', () => {
    // 2026-03-20: city 74 days old → 0.5 × 0.5^(44/45) = 0.2539; job 19 days → 0.5.
    const out = refreshFactFile(USER_MD, '2026-03-20', PARAMS)
    const identity = out.split('## Identity\n\n')[1]?.split('\n\n')[0]
    expect(identity?.split('\n')).toEqual([OLD_CITY, JOB, HAND, CITY, UNDATED])
    // Tea (said on 3 days, last 2026-04-01 — in the future here) 0.7 > jazz (69 days) 0.5 × 0.5^(39/45) = 0.2742.
    expect(out).toContain(`## Preferences\n\n${TEA}\n${JAZZ}\n`)
    expect(out).not.toContain('## Archive')
  })

  it('changes nothing, byte for byte, while the facts are in order and none has faded', () => {
    // 2026-01-12: city, job and jazz all 0.5 (in their grace; equals keep their order), tea 0.7 first.
    const sorted = USER_MD.replace(`${JAZZ}\n${TEA}`, `${TEA}\n${JAZZ}`)
    expect(refreshFactFile(sorted, '2026-01-12', PARAMS)).toBe(sorted)
    expect(refreshFactFile(USER_MD, '2026-01-12', PARAMS)).toBe(sorted)
  })

  it('moves facts below the floor under ## Archive in a group per section, whole and keyed, idempotently', () => {
    // 2026-06-15: city 161 days → 0.5 × 0.5^(131/45) = 0.0665; jazz 156 days → 0.0718; job 106 days → 0.1551;
    // tea (0.7, last 2026-04-01, 75 days) → 0.35.
    const out = refreshFactFile(USER_MD, '2026-06-15', PARAMS)
    expect(out).toBe(
      [
        '# User',
        '',
        '> Who the user is.',
        '',
        '## Identity',
        '',
        OLD_CITY,
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
        '### Identity',
        '',
        CITY,
        '',
        '### Preferences',
        '',
        JAZZ,
        '',
      ].join('\n'),
    )
    expect(refreshFactFile(out, '2026-06-15', PARAMS)).toBe(out)
    // Later, the job fades too and joins its group; nothing is ever removed.
    const later = refreshFactFile(out, '2026-08-01', PARAMS)
    expect(later).toContain(`### Identity\n\n${CITY}\n${JOB}\n`)
    for (const line of USER_MD.split('\n')) expect(later.split('\n')).toContain(line)
  })

  it('brings a fact stated again back to its section and drops its emptied group', () => {
    const archived = refreshFactFile(USER_MD, '2026-06-15', PARAMS)
    const restated = archived.replace(
      'key: user.pref.jazz -->',
      'key: user.pref.jazz; seen: 2026-01-10..2026-06-14 x2 -->',
    )
    const out = refreshFactFile(restated, '2026-06-15', PARAMS)
    const revived = JAZZ.replace('-->', '').trimEnd() + '; seen: 2026-01-10..2026-06-14 x2 -->'
    // Jazz, said yesterday (0.6), now ranks above tea (0.35).
    expect(out).toContain(`## Preferences\n\n${revived}\n${TEA}\n`)
    expect(out).not.toContain('### Preferences')
    expect(out).toContain(`## Archive\n\n### Identity\n\n${CITY}\n`)
    expect(refreshFactFile(out, '2026-06-15', PARAMS)).toBe(out)
  })

  it('recreates a section that is gone, and drops the archive heading it emptied', () => {
    const text = `# Reference\n\n## Archive\n\n### Wi-Fi\n\n- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->\n`
    const out = refreshFactFile(text, '2026-06-02', PARAMS)
    expect(out).toBe(
      '# Reference\n\n## Wi-Fi\n\n- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->\n',
    )
    expect(refreshFactFile(out, '2026-06-02', PARAMS)).toBe(out)
  })

  it('keeps an archive heading that still has text under it, or another section after it', () => {
    const fact = '- Home: porto-home [[2026-01-01]] <!-- key: ref.wifi; seen: 2026-01-01..2026-06-01 x2 -->'
    const text = `# Reference\n\n## Wi-Fi\n\n## Archive\n\nOld networks, by hand.\n\n### Wi-Fi\n\n${fact}\n`
    expect(refreshFactFile(text, '2026-06-02', PARAMS)).toBe(
      `# Reference\n\n## Wi-Fi\n\n${fact}\n\n## Archive\n\nOld networks, by hand.\n`,
    )
    const middle = `# Reference\n\n## Wi-Fi\n\n## Archive\n\n### Wi-Fi\n\n${fact}\n\n## Notes\n\nmine\n`
    expect(refreshFactFile(middle, '2026-06-02', PARAMS)).toBe(
      `# Reference\n\n## Wi-Fi\n\n${fact}\n\n## Notes\n\nmine\n`,
    )
  })

  it('never archives a plan before its date', () => {
    const plan = '- **2026-12-11** — launch [[2026-01-05]] <!-- key: plan.launch; value: 2026-12-11 -->'
    const text = `# Projects\n\n## Plans and deadlines\n\n${plan}\n`
    expect(refreshFactFile(text, '2026-11-30', PARAMS)).toBe(text)
  })
})
