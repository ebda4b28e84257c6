// A job's last day: "my last day at the clinic is Friday", "handed in my notice at Marlowe's, my last day is
// October 16". Said ahead, it is a plan; the employer it names ends only once that day has passed, whichever dream
// runs then (the message may be long out of its window: the plan entry in project.md is what remembers it).
import { addDays } from '../../time/local-day.js'
import { parseEntries, type MemoryEntry } from './memory-file.js'
import { contentWords } from './text.js'
import type { Fact } from './types.js'

const PLACE = "(?:the\\s+)?([\\p{L}\\p{N}&'’. -]+?)"
const PLACE_END =
  "(?=\\s+(?:is|was|will be|'s|today|yesterday|this|last|on|and|so|but|then)\\b|\\s*[,.;:!?(]|$)"
// "my last day at the clinic is Friday", "last day with Halden Bank will be the 18th".
const LAST_DAY_AT = new RegExp(`\\bmy last day (?:at|with) ${PLACE}${PLACE_END}`, 'iu')
// "I handed in my notice at Marlowe's today … my last day is October 16": the notice names the workplace.
const NOTICE_AT = new RegExp(
  `\\b(?:handed in|hand in|handing in|gave|given|giving|put in) (?:my|in my)?\\s*notice (?:at|to|with) ${PLACE}${PLACE_END}`,
  'iu',
)
// The user's own last day: "my last day is…", or a clause opening with it ("…, last day is December 19").
const LAST_DAY = /(?:\bmy |^|[,;:]\s*)last day (?:is|will be|'s|falls on)\b/i
// Words that name the user's work itself, not one employer: any employer memory holds is theirs.
const ANY_WORKPLACE = /^(?:work|my job|the job|job|the office|office|the company|here)$/i

/** The workplace a statement gives the user's last day at ("clinic", "Marlowe's"); null when it gives none. */
export function lastDayWorkplace(statement: string): string | null {
  const at = LAST_DAY_AT.exec(statement)
  if (at) return at[1] as string
  if (!LAST_DAY.test(statement)) return null
  return NOTICE_AT.exec(statement)?.[1] ?? null
}

/**
 * "Handed in my notice at Marlowe's today. My last day is October 16.": the sentence before, when this one gives
 * a last day and that one names where, so the plan's entry keeps the workplace its ending needs.
 */
export function noticeBefore(sentence: string, before: string): string | null {
  if (lastDayWorkplace(sentence) !== null || !LAST_DAY.test(sentence)) return null
  return NOTICE_AT.test(before) ? before : null
}

/** The held employer is the workplace named: every word of the name is one of its words ("clinic" in "Ashgrove Clinic"). */
function isWorkplace(employer: string, workplace: string): boolean {
  if (ANY_WORKPLACE.test(workplace.trim())) return employer !== 'none'
  const words = new Set(contentWords(employer))
  const named = contentWords(workplace)
  return named.length > 0 && named.every((word) => words.has(word))
}

/** The employer user.md holds now: its current `user.employer` entry, if any. */
export const heldEmployer = (userText: string): MemoryEntry | undefined =>
  parseEntries(userText)
    .filter((entry) => entry.key === 'user.employer' && entry.supersededOn === null)
    .at(-1)

/** A keyed entry's statement: its text without the bold headline and the day link. */
export const statementOf = (entry: MemoryEntry): string =>
  entry.visible.replace(/^\*\*.*?\*\*\s+—\s+/, '').replace(/\s*\[\[\d{4}-\d{2}-\d{2}\]\]\s*$/, '')

/**
 * The ending of the employer user.md holds, once the last day a current plan of project.md gives for it has passed
 * (`today` is after it); null while the day is to come, or when the plan names another workplace. A last day put
 * right ("sorry, I meant my last day is Thursday") takes the workplace its struck-out entries named.
 */
export function dueEnding(projectText: string, userText: string, today: string): Fact | null {
  const employer = heldEmployer(userText)
  if (employer?.value == null || employer.value === 'none') return null
  const plans = parseEntries(projectText).filter((entry) => entry.key.startsWith('plan.'))
  for (const plan of plans) {
    const lastDay = plan.value
    if (plan.supersededOn !== null || lastDay === null || !/^\d{4}-\d{2}-\d{2}$/.test(lastDay)) continue
    if (lastDay >= today || (employer.lastSeen ?? '') > lastDay) continue
    const workplace = [plan, ...plans.filter((entry) => entry.key === plan.key && entry !== plan).reverse()]
      .map((entry) => lastDayWorkplace(statementOf(entry)))
      .find((named) => named !== null)
    if (!workplace || !isWorkplace(employer.value, workplace)) continue
    const day = addDays(lastDay, 1)
    return {
      kind: 'identity',
      file: 'user.md',
      section: 'Identity',
      key: 'user.employer',
      value: 'none',
      isSingle: true,
      headline: `Works at: none (last day at ${employer.value}: ${lastDay})`,
      text: statementOf(plan),
      previous: employer.value,
      isCorrection: true,
      day,
      ts: `${day}T00:00:00.000Z`,
      messageId: plan.key,
      chat: 'memory',
    }
  }
  return null
}
