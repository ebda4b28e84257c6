// A new job said ahead of its first day ("I accepted the offer from Corvid Labs. I start there on January 11") is a
// plan until that day: the message's employer and job wait (extract.ts), and once the day has come, whichever dream
// runs then reads them again from the plan's entry in project.md.
import { classifySentence } from './classify.js'
import { heldEmployer, statementOf } from './last-day.js'
import { parseEntries } from './memory-file.js'
import { splitSentences } from './text.js'
import type { Fact } from './types.js'

// "plan.offer-start", "plan.start-date", "plan.starting": a first day.
const START_KEY = /^plan\.(?:.*-)?start(?:s|ing|-date)?(?:-|$)/
const DAY = /^\d{4}-\d{2}-\d{2}$/
const isNewWork = (fact: Fact): boolean =>
  (fact.key === 'user.employer' || fact.key === 'user.job') && fact.value !== 'none'

/** The facts of one message without its new employer and job when the message starts them on a later day. */
export function withoutWorkToCome(facts: readonly Fact[], day: string): Fact[] {
  const startsLater = facts.some(
    (fact) => fact.kind === 'plan' && START_KEY.test(fact.key) && DAY.test(fact.value) && fact.value > day,
  )
  return startsLater ? facts.filter((fact) => !isNewWork(fact)) : [...facts]
}

/**
 * The employer and job a current plan of project.md starts on a day that has come (`today` or before), read from
 * its statement; none when user.md's employer was stated after that day.
 */
export function dueStarts(projectText: string, userText: string, today: string, timeZone: string): Fact[] {
  const employer = heldEmployer(userText)
  const found: Fact[] = []
  for (const plan of parseEntries(projectText)) {
    const first = plan.value
    if (plan.supersededOn !== null || !START_KEY.test(plan.key) || first === null || !DAY.test(first))
      continue
    if (first > today || (employer?.lastSeen ?? '') > first || plan.day === null) continue
    const statement = statementOf(plan)
    const source = {
      ts: `${plan.day}T12:00:00.000Z`,
      day: plan.day,
      messageId: plan.key,
      chat: 'memory',
      timeZone,
    }
    let context = ''
    for (const text of splitSentences(statement)) {
      const work = classifySentence({ ...source, text, context }).filter(isNewWork)
      found.push(
        ...work.map((fact) => ({ ...fact, day: first, ts: `${first}T00:00:00.000Z`, text: statement })),
      )
      context = `${context} ${text}`.trim()
    }
  }
  return found
}
