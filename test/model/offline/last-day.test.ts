import { describe, expect, it } from 'vitest'
import { dueEnding, lastDayWorkplace, noticeBefore } from '../../../src/model/offline/last-day.js'

const USER = [
  '## Identity',
  '',
  '- **Works at: Ashgrove Clinic** — I work at Ashgrove Clinic. [[2026-09-14]] <!-- key: user.employer; value: Ashgrove Clinic -->',
].join('\n')

const planOf = (statement: string, day = '2026-11-20', said = '2026-11-16'): string =>
  `- **${day}** — ${statement} [[${said}]] <!-- key: plan.last-day; value: ${day} -->`

const PROJECT = [
  '## Plans and deadlines',
  '',
  planOf('my last day at the clinic is Friday (2026-11-20)'),
].join('\n')

describe('lastDayWorkplace: where a statement gives the user their last day', () => {
  it.each([
    ['my last day at the clinic is Friday', 'clinic'],
    ['My last day at Halden Bank is December 18', 'Halden Bank'],
    ["handed in my notice at Marlowe's today. four weeks, so my last day is October 16", "Marlowe's"],
    ['I handed in my notice at the University Hospital, last day is December 19', 'University Hospital'],
  ])('%s → %s', (statement, workplace) => {
    expect(lastDayWorkplace(statement)).toBe(workplace)
  })

  it.each([
    "my sister Orla's last day at her job is tomorrow",
    'my last day of the holiday is Sunday',
    'my last day is Friday',
    "I handed in my notice at Acme. Tom's last day is Friday",
  ])('gives none: %s', (statement) => {
    expect(lastDayWorkplace(statement)).toBeNull()
  })

  it('keeps the notice sentence before a last day that names no workplace, and only then', () => {
    const notice = "ok so I finally did it, handed in my notice at Marlowe's today."
    expect(noticeBefore('four weeks, so my last day is October 16', notice)).toBe(notice)
    expect(noticeBefore('four weeks, so my last day is October 16', 'I love my job.')).toBeNull()
    expect(noticeBefore('my last day at the clinic is Friday', notice)).toBeNull()
  })
})

describe('dueEnding: a last day ends the employer once it has passed', () => {
  it('ends the held employer the plan names, on the day after its last day', () => {
    const ending = dueEnding(PROJECT, USER, '2026-11-21')
    expect(ending).toMatchObject({
      key: 'user.employer',
      value: 'none',
      previous: 'Ashgrove Clinic',
      day: '2026-11-21',
      headline: 'Works at: none (last day at Ashgrove Clinic: 2026-11-20)',
    })
  })

  it('ends nothing on the last day itself or before it, whenever it was announced', () => {
    expect(dueEnding(PROJECT, USER, '2026-11-20')).toBeNull()
    expect(dueEnding(PROJECT, USER, '2026-11-17')).toBeNull()
  })

  it('ends nothing when the plan names another workplace, or the employer was stated after the day', () => {
    const elsewhere = PROJECT.replace('at the clinic', 'at the bakery')
    expect(dueEnding(elsewhere, USER, '2026-11-25')).toBeNull()
    const restated = USER.replace('[[2026-09-14]]', '[[2026-11-23]]')
    expect(dueEnding(PROJECT, restated, '2026-11-25')).toBeNull()
  })

  it('takes the workplace of a last day put right from the struck-out entry it replaced', () => {
    const corrected = [
      '## Plans and deadlines',
      '',
      `- ~~**2026-11-20** — my last day at the clinic is Friday (2026-11-20) [[2026-11-16]]~~ — superseded 2026-11-18 → 2026-11-19 <!-- key: plan.last-day; value: 2026-11-20; superseded: 2026-11-18 -->`,
      planOf('sorry, I meant my last day is Thursday (2026-11-19)', '2026-11-19', '2026-11-18'),
    ].join('\n')
    expect(dueEnding(corrected, USER, '2026-11-20')).toMatchObject({ value: 'none', day: '2026-11-20' })
  })

  it('ends nothing when the held employer already ended', () => {
    const ended = USER.replace('Works at: Ashgrove Clinic', 'Works at: none').replace(
      'value: Ashgrove Clinic',
      'value: none',
    )
    expect(dueEnding(PROJECT, ended, '2026-11-25')).toBeNull()
  })
})
