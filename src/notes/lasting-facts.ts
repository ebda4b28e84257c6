// Which keyed facts never fade. Freshness (fact-freshness.ts) comes from RockBot, where every memory loses weight
// when nobody repeats it; that fits tastes and projects, not who the user is. Nobody restates their name, their
// sister or their peanut allergy every few months, and silence does not make any of them less true: such facts
// change only when a later statement supersedes them. So they keep their importance and never move to the archive.
import { keyOf } from './fact-freshness.js'

/** The fact files whose keyed facts fade (current-state.md's block is rewritten by every dream anyway). */
export const FRESHNESS_FILES = ['user.md', 'feedback.md', 'project.md', 'reference.md'] as const

export type FreshnessFile = (typeof FRESHNESS_FILES)[number]

/**
 * Files whose every fact lasts: standing instructions on how to answer, and ids, addresses and accounts, which
 * stay right until replaced.
 */
const LASTING_FILES: ReadonlySet<string> = new Set(['feedback.md', 'reference.md'])

/** user.md's sections of who the user is and the people and pets around them (skeletons.ts names them). */
const LASTING_SECTIONS = new Set(['identity', 'people'])

/** The body's facts, wherever they were filed: an allergy or a diet under Preferences lasts all the same. */
const LASTING_KEY = /^user\.(?:allergy|diet)(?:\.|$)/

/**
 * Whether the keyed fact on `line`, under the heading `section` of `file` (its `### group` once archived), keeps
 * its importance however long ago it was last stated.
 */
export function isLastingFact(file: FreshnessFile, section: string | null, line: string): boolean {
  if (LASTING_FILES.has(file)) return true
  if (file !== 'user.md') return false
  if (section !== null && LASTING_SECTIONS.has(section.trim().toLowerCase())) return true
  return LASTING_KEY.test(keyOf(line) ?? '')
}
