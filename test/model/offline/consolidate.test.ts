import { describe, expect, it } from 'vitest'
import { mergeFact, mergeFacts } from '../../../src/model/offline/consolidate.js'
import { parseEntries } from '../../../src/model/offline/memory-file.js'
import { MEMORY_SKELETONS } from '../../../src/model/offline/skeletons.js'
import type { Fact } from '../../../src/model/offline/types.js'
import { fact } from './facts.js'

const USER = MEMORY_SKELETONS['user.md']
const lisbon = fact({
  value: 'Lisbon',
  headline: 'City: Lisbon',
  text: 'Living in Lisbon',
  day: '2026-11-04',
})
const porto = fact({ text: 'we moved from Lisbon to Porto', previous: 'Lisbon', isCorrection: true })

function merge(text: string, facts: Fact[]): { text: string; actions: string[] } {
  const result = mergeFacts(new Map([['user.md', text]]), facts)
  return {
    text: result.files.get('user.md') ?? '',
    actions: result.outcomes.map((outcome) => outcome.action),
  }
}

describe('mergeFacts', () => {
  it('appends a new fact under its section and skips it the second time', () => {
    const once = merge(USER, [lisbon])
    expect(once.actions).toEqual(['added'])
    expect(once.text).toContain(
      '## Identity\n\n- **City: Lisbon** — Living in Lisbon [[2026-11-04]] <!-- key: user.city; value: Lisbon -->\n\n## People',
    )
    const twice = merge(once.text, [lisbon])
    expect(twice).toEqual({ text: once.text, actions: ['duplicate'] })
  })

  it('supersedes a changed fact: the old bullet stays, struck through with the date and the new value', () => {
    const { text, actions } = merge(merge(USER, [lisbon]).text, [porto])
    expect(actions).toEqual(['superseded'])
    expect(text).toContain(
      '- ~~**City: Lisbon** — Living in Lisbon [[2026-11-04]]~~ — superseded 2026-11-18 → Porto',
    )
    expect(text).toContain(
      '- **City: Porto** — we moved from Lisbon to Porto [[2026-11-18]] <!-- key: user.city; value: Porto -->',
    )
  })

  it('records the old value a change names even when memory never held it', () => {
    const { text, actions } = merge(USER, [porto])
    expect(actions).toEqual(['superseded'])
    expect(text).toMatch(/~~\*\*City: Lisbon\*\*~~ — superseded 2026-11-18 → Porto .*superseded: 2026-11-18/)
    expect(text.indexOf('City: Lisbon')).toBeLessThan(text.indexOf('City: Porto'))
  })

  it('puts a name right wherever memory holds it, keeping the old entry struck through', () => {
    const girlfriend = fact({
      kind: 'relation',
      section: 'People',
      key: 'user.relation.girlfriend',
      value: 'Ola',
      headline: 'Girlfriend: Ola',
      text: 'my girlfriend Ola eats everything',
      day: '2026-11-02',
    })
    const sister = fact({
      kind: 'relation',
      section: 'People',
      key: 'user.relation.sister.ola',
      value: 'Ola',
      headline: 'Sister: Ola',
      text: 'my sister Ola',
      day: '2026-11-03',
    })
    const rename = fact({
      kind: 'rename',
      section: 'People',
      key: 'rename.ola',
      value: 'Ula',
      headline: null,
      previous: 'Ola',
      isCorrection: true,
      text: 'her name is spelled Ula, not Ola',
      day: '2026-11-09',
    })
    const window = [girlfriend, rename]
    const once = merge(USER, window)
    expect(once.actions).toEqual(['added', 'superseded'])
    expect(once.text).toContain(
      '- ~~**Girlfriend: Ola** — my girlfriend Ola eats everything [[2026-11-02]]~~',
    )
    expect(once.text).toContain(
      '- **Girlfriend: Ula** — her name is spelled Ula, not Ola [[2026-11-09]] <!-- key: user.relation.girlfriend; value: Ula -->',
    )
    // A key made from the name follows it.
    expect(merge(USER, [sister, rename]).text).toContain('<!-- key: user.relation.sister.ula; value: Ula -->')
    // The same window dreamed again, and a rename nothing holds, change nothing.
    expect(merge(once.text, window)).toEqual({ text: once.text, actions: ['duplicate', 'duplicate'] })
    expect(merge(USER, [rename])).toEqual({ text: USER, actions: ['duplicate'] })
  })

  it('strikes out the couple role an ex held: "Kai and I broke up" after "my boyfriend Kai"', () => {
    const relation = { kind: 'relation', section: 'People', isSingle: false, value: 'Kai' } as const
    const boyfriend = fact({
      ...relation,
      key: 'user.relation.boyfriend',
      isSingle: true,
      headline: 'Boyfriend: Kai',
      text: 'my boyfriend Kai is in Perth',
      day: '2026-01-20',
    })
    const ex = fact({
      ...relation,
      key: 'user.relation.ex.kai',
      headline: 'Ex: Kai',
      text: 'Kai and I broke up',
    })
    const { text, actions } = merge(merge(USER, [boyfriend]).text, [ex])
    expect(actions).toEqual(['superseded'])
    expect(text).toMatch(/~~\*\*Boyfriend: Kai\*\*.*~~ — superseded 2026-11-18 → Ex: Kai/)
    expect(text).toContain('- **Ex: Kai** — Kai and I broke up [[2026-11-18]]')
    // An ex of someone else leaves the current partner where they are.
    const other = fact({ ...relation, key: 'user.relation.ex.mark', value: 'Mark', headline: 'Ex: Mark' })
    expect(merge(merge(USER, [boyfriend]).text, [other]).actions).toEqual(['added'])
  })

  it('ends the employer memory holds when a job is lost without naming it, and adds nothing when none is held', () => {
    const work = { kind: 'identity', section: 'Identity', key: 'user.employer', isSingle: true } as const
    const acme = fact({
      ...work,
      value: 'Acme',
      headline: 'Works at: Acme',
      text: 'I work at Acme',
      day: '2026-02-01',
    })
    const laidOff = fact({
      ...work,
      value: 'none',
      headline: 'Works at: none (laid off)',
      text: 'I got laid off',
      endsOnly: true,
    })
    const { text, actions } = merge(merge(USER, [acme]).text, [laidOff])
    expect(actions).toEqual(['superseded'])
    expect(text).toMatch(/~~\*\*Works at: Acme\*\*.*~~ — superseded 2026-11-18 → none/)
    expect(merge(USER, [laidOff])).toEqual({ text: USER, actions: ['duplicate'] })
  })

  it('is idempotent over the same window, including a same-day change', () => {
    const sameDay = [
      fact({ value: 'Lisbon', headline: 'City: Lisbon', text: 'I live in Lisbon' }),
      fact({ text: 'now Porto' }),
    ]
    const once = merge(USER, sameDay)
    expect(once.actions).toEqual(['added', 'superseded'])
    expect(merge(once.text, sameDay)).toEqual({ text: once.text, actions: ['duplicate', 'duplicate'] })
    const window = [lisbon, porto]
    const first = merge(USER, window).text
    expect(merge(first, window).text).toBe(first)
  })

  it('records an older statement learned late as already superseded by the current value', () => {
    const { text, actions } = merge(merge(USER, [porto]).text, [
      fact({ value: 'Braga', headline: 'City: Braga', text: 'I live in Braga', day: '2026-11-01' }),
    ])
    expect(actions).toEqual(['historical'])
    expect(text).toContain(
      '- ~~**City: Braga** — I live in Braga [[2026-11-01]]~~ — superseded 2026-11-18 → Porto',
    )
    expect(text).toContain('<!-- key: user.city; value: Porto -->')
  })

  it('follows a change to the slot it names even when the subject is worded differently', () => {
    const launch = fact({
      kind: 'plan',
      file: 'project.md',
      section: 'Plans and deadlines',
      key: 'plan.atlas-launch',
      value: '2026-12-04',
      headline: '2026-12-04',
      text: 'Atlas launch is December 4',
      day: '2026-11-16',
    })
    const moved = fact({
      ...launch,
      key: 'plan.launch',
      value: '2026-12-11',
      headline: '2026-12-11',
      text: 'the launch moved to Dec 11',
      day: '2026-11-20',
      isCorrection: true,
    })
    const first = mergeFact('## Plans and deadlines\n', launch).text
    const { text, outcome } = mergeFact(first, moved)
    expect(outcome).toMatchObject({ action: 'superseded', replaced: '2026-12-04' })
    expect(text).toContain(
      '~~**2026-12-04** — Atlas launch is December 4 [[2026-11-16]]~~ — superseded 2026-11-20 → 2026-12-11',
    )
    expect(text).toContain('<!-- key: plan.atlas-launch; value: 2026-12-11 -->')
  })

  describe('a trip named by its kind, and plans called off', () => {
    const plan = (key: string, value: string, text: string, day: string, more: Partial<Fact> = {}): Fact =>
      fact({
        kind: 'plan',
        file: 'project.md',
        section: 'Plans and deadlines',
        key,
        value,
        headline: value,
        text,
        day,
        ...more,
      })
    const lisbon = plan(
      'plan.week-lisbon',
      '2026-10-10',
      'booked a week in Lisbon, flying out October 10',
      '2026-09-05',
    )
    const moved = plan('plan.trip', '2026-11-14', 'we moved the trip to November 14', '2026-09-19', {
      isCorrection: true,
    })
    const off = plan('plan.holiday', 'cancelled', 'our holiday is off', '2026-10-28', {
      isCorrection: true,
      endsOnly: true,
    })
    const held = (facts: Fact[]): string[] =>
      mergeFacts(new Map([['project.md', '## Plans and deadlines\n']]), facts)
        .files.get('project.md')!
        .split('\n')
        .filter((line) => line.includes('key:'))
        .map((line) => /key: (.*?) -->/.exec(line)![1]!)

    it('moves and then calls off the one trip still to come', () => {
      expect(held([lisbon, moved, off])).toEqual([
        'plan.week-lisbon; value: 2026-10-10; superseded: 2026-09-19',
        'plan.week-lisbon; value: 2026-11-14; superseded: 2026-10-28',
        'plan.week-lisbon; value: cancelled',
      ])
    })

    it('leaves two trips alone, and a trip already taken, and writes no trip of its own', () => {
      const paris = plan('plan.paris', '2026-12-01', 'flying to Paris on December 1', '2026-09-06')
      expect(held([lisbon, paris, moved])).toContain('plan.trip; value: 2026-11-14')
      const later = { ...off, day: '2026-10-20' }
      expect(held([lisbon, later])).toEqual(['plan.week-lisbon; value: 2026-10-10'])
      expect(held([off])).toEqual([])
    })

    it('calls off a plan memory holds under that subject, not one whose day has passed', () => {
      const review = plan('plan.design-review', '2026-11-20', 'design review is on Friday', '2026-11-18')
      const cancelled = plan('plan.design-review', 'cancelled', "design review's cancelled", '2026-11-19', {
        isCorrection: true,
        endsOnly: true,
      })
      expect(held([review, cancelled])).toEqual([
        'plan.design-review; value: 2026-11-20; superseded: 2026-11-19',
        'plan.design-review; value: cancelled',
      ])
      expect(held([review, { ...cancelled, day: '2026-11-23' }])).toEqual([
        'plan.design-review; value: 2026-11-20',
      ])
    })
  })

  it('strikes a held statement an ending names, and writes nothing where none is held', () => {
    const allergy = fact({
      kind: 'preference',
      section: 'Preferences',
      key: 'user.allergy.penicillin',
      value: 'penicillin',
      isSingle: false,
      headline: 'Allergy: penicillin',
      text: "I'm allergic to penicillin",
      day: '2026-08-01',
    })
    const gone = {
      ...allergy,
      headline: 'Allergy: penicillin (no longer)',
      endsOnly: true,
      day: '2026-10-05',
    }
    const held = merge(USER, [allergy]).text
    const { text, actions } = merge(held, [gone])
    expect(actions).toEqual(['superseded'])
    expect(text).toContain('superseded 2026-10-05 → Allergy: penicillin (no longer)')
    expect(text).not.toContain("(no longer)** — I'm")
    expect(merge(USER, [gone])).toEqual({ text: USER, actions: ['duplicate'] })
  })

  it('holds the couple role again when an ex is back, and nothing when memory holds no ex', () => {
    const person = { kind: 'relation' as const, section: 'People', day: '2026-01-10' }
    const boyfriend = fact({
      ...person,
      key: 'user.relation.boyfriend',
      value: 'Dan',
      headline: 'Boyfriend: Dan',
    })
    const ex = fact({
      ...person,
      key: 'user.relation.ex.dan',
      value: 'Dan',
      isSingle: false,
      headline: 'Ex: Dan',
      day: '2026-03-14',
    })
    const back = { ...ex, headline: 'Ex: Dan (back together)', endsOnly: true, day: '2026-07-02' }
    const { text } = merge(USER, [boyfriend, ex, back])
    const keys = parseEntries(text).map((entry) => `${entry.key}${entry.supersededOn ? ' (superseded)' : ''}`)
    expect(keys.sort()).toEqual([
      'user.relation.boyfriend',
      'user.relation.boyfriend (superseded)',
      'user.relation.ex.dan (superseded)',
    ])
    expect(text).toContain('- **Boyfriend: Dan** — ')
    expect(merge(USER, [back]).text).toBe(USER)
  })

  it('never changes a line a person wrote, and does not repeat a fact they already wrote', () => {
    const mine = `${USER}\n- I live in Lisbon (hand-written)\n- my notes <!-- keep -->\n`
    const statement = fact({
      kind: 'preference',
      section: 'Preferences',
      key: 'user.pref.hiking',
      isSingle: false,
      headline: null,
      text: 'I love hiking',
      value: 'i love hiking',
    })
    const { text } = merge(mine, [
      porto,
      statement,
      fact({ ...statement, key: 'user.pref.other', text: 'I live in Lisbon' }),
    ])
    for (const line of mine.split('\n')) expect(text.split('\n')).toContain(line)
    expect(text).toContain('- I love hiking [[2026-11-18]] <!-- key: user.pref.hiking -->')
    expect(text).not.toContain('key: user.pref.other')
  })

  it('keeps proper nouns and numbers of every statement it merges', () => {
    const statement = fact({
      kind: 'decision',
      file: 'user.md',
      section: 'Identity',
      key: 'decision.x',
      isSingle: false,
      headline: null,
      text: 'Atlas ships behind a feature flag — 10% of customers, then Tidewell-wide',
    })
    const { text } = merge(USER, [statement])
    for (const token of ['Atlas', '10%', 'Tidewell-wide']) expect(text).toContain(token)
  })

  it('counts a fact stated again on a new day in its seen field, once per day, and never on a re-merge', () => {
    const later = { ...lisbon, day: '2026-11-20', text: 'Still living in Lisbon' }
    const again = merge(USER, [lisbon, { ...lisbon, text: 'I live in Lisbon' }, later])
    expect(again.actions).toEqual(['added', 'duplicate', 'duplicate'])
    expect(again.text).toContain(
      '- **City: Lisbon** — Living in Lisbon [[2026-11-04]] <!-- key: user.city; value: Lisbon; seen: 2026-11-04..2026-11-20 x2 -->',
    )
    // The same window merged again (a second dream) changes nothing.
    expect(merge(again.text, [lisbon, later]).text).toBe(again.text)
    // A statement learned late, before the first day seen, widens the range and counts once.
    const earlier = merge(again.text, [{ ...lisbon, day: '2026-10-01' }])
    expect(earlier.text).toContain('seen: 2026-10-01..2026-11-20 x3 -->')
  })

  it('reinforces a plain statement restated on a later day', () => {
    const hiking = fact({
      kind: 'preference',
      section: 'Preferences',
      key: 'user.pref.hiking',
      isSingle: false,
      headline: null,
      value: 'I love hiking',
      text: 'I love hiking',
    })
    const { text } = merge(USER, [hiking, { ...hiking, day: '2026-12-01' }])
    expect(text).toContain(
      '- I love hiking [[2026-11-18]] <!-- key: user.pref.hiking; seen: 2026-11-18..2026-12-01 x2 -->',
    )
  })
})
