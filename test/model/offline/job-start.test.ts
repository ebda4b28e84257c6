import { describe, expect, it } from 'vitest'
import { dueStarts, withoutWorkToCome } from '../../../src/model/offline/job-start.js'
import { fact } from './facts.js'

const employer = fact({ key: 'user.employer', value: 'Corvid Labs', headline: 'Works at: Corvid Labs' })
const startOn = (value: string) =>
  fact({ kind: 'plan', file: 'project.md', key: 'plan.offer-start', value, headline: value })

describe('withoutWorkToCome: a new job is a plan until its first day', () => {
  it('holds back the employer and job of a message that starts them on a later day', () => {
    const job = fact({ key: 'user.job', value: 'data engineer' })
    expect(withoutWorkToCome([employer, job, startOn('2027-01-11')], '2026-11-20')).toEqual([
      startOn('2027-01-11'),
    ])
  })

  it('keeps them when the first day is today or gone, and keeps an ending whenever', () => {
    expect(withoutWorkToCome([employer, startOn('2026-11-20')], '2026-11-20')).toHaveLength(2)
    const ended = fact({ key: 'user.employer', value: 'none' })
    expect(withoutWorkToCome([ended, startOn('2027-01-11')], '2026-11-20')).toContain(ended)
  })
})

const USER = [
  '## Identity',
  '',
  '- **Works at: Halden Bank** — I work at Halden Bank. [[2026-06-02]] <!-- key: user.employer; value: Halden Bank -->',
].join('\n')
const PROJECT = [
  '## Plans and deadlines',
  '',
  '- **2027-01-11** — I accepted the offer from Corvid Labs. I start there on January 11 (2027-01-11) [[2026-11-20]] <!-- key: plan.offer-start; value: 2027-01-11 -->',
].join('\n')

describe('dueStarts: the first day come, the plan starts the job', () => {
  it('reads the employer from the plan once its day has come, as of that day', () => {
    expect(dueStarts(PROJECT, USER, '2027-01-11', 'UTC')).toMatchObject([
      { key: 'user.employer', value: 'Corvid Labs', day: '2027-01-11' },
    ])
  })

  it('starts nothing before the day, nor over an employer stated after it', () => {
    expect(dueStarts(PROJECT, USER, '2027-01-10', 'UTC')).toEqual([])
    const later = USER.replace('[[2026-06-02]]', '[[2027-01-20]]')
    expect(dueStarts(PROJECT, later, '2027-02-01', 'UTC')).toEqual([])
  })

  it('starts nothing from a plan that is no first day', () => {
    const party = PROJECT.replace(/plan\.offer-start/, 'plan.party')
    expect(dueStarts(party, USER, '2027-02-01', 'UTC')).toEqual([])
  })
})
