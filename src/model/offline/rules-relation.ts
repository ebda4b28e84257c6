// Rules for the people and pets around the user: "my sister Lena", "Tomas is my brother", "our dog Biscuit".
import { lastPersonNamed, properNameAt, properNameBefore } from './entities.js'
import type { Draft, SentenceView } from './types.js'
import { slugOf } from './text.js'

// Roles one person fills at a time: a new name for them supersedes the old one.
const SINGLE_ROLES: Record<string, string> = {
  partner: 'partner',
  wife: 'wife',
  husband: 'husband',
  spouse: 'spouse',
  girlfriend: 'girlfriend',
  boyfriend: 'boyfriend',
  fiance: 'fiancé',
  fiancé: 'fiancé',
  fiancee: 'fiancée',
  fiancée: 'fiancée',
  boss: 'boss',
  manager: 'manager',
  mom: 'mother',
  mum: 'mother',
  mother: 'mother',
  dad: 'father',
  father: 'father',
}
const MULTI_ROLES = (
  'sister brother sibling son daughter kid child cousin aunt uncle niece nephew grandma grandmother grandpa ' +
  'grandfather friend colleague coworker co-worker cofounder co-founder roommate flatmate housemate neighbor ' +
  'neighbour therapist doctor dentist dog cat puppy kitten pet parrot hamster rabbit bunny horse'
).split(' ')
const ROLES = [...Object.keys(SINGLE_ROLES), ...MULTI_ROLES].sort((a, b) => b.length - a.length).join('|')
const ROLE_ADJECTIVE =
  '(?:(?:older|younger|little|big|baby|twin|step|best|new|oldest|youngest|eldest|good|close)\\s+)?'

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/** How a relation ended: a death ("my late father", "Biscuit died") or a parting ("my ex-wife", "broke up with"). */
type Ended = 'died' | 'ex' | 'former' | null

function relationDraft(adjective: string, role: string, name: string, ended: Ended = null): Draft {
  const single = SINGLE_ROLES[role]
  const label = capitalize(`${adjective}${single ?? role}`.trim())
  // An ex or a former boss is no longer the one: kept beside the current holder of the role, never replacing them.
  if (ended === 'ex' || ended === 'former') {
    const pastLabel = ended === 'ex' ? `Ex-${label.toLowerCase()}` : `Former ${label.toLowerCase()}`
    return {
      kind: 'relation',
      file: 'user.md',
      section: 'People',
      key: `user.relation.${ended}${(single ?? role).replace(/-/g, '')}.${slugOf(name, 3)}`,
      value: name,
      isSingle: false,
      headline: `${pastLabel}: ${name}`,
    }
  }
  return {
    kind: 'relation',
    file: 'user.md',
    section: 'People',
    key: single ? `user.relation.${single}` : `user.relation.${role.replace(/-/g, '')}.${slugOf(name, 3)}`,
    value: name,
    isSingle: single !== undefined,
    headline: `${label}: ${name}${ended === 'died' ? ' (died)' : ''}`,
  }
}

// "my late father", "my ex-wife", "my former boss": the relation ended before the sentence was said.
const ENDED_PREFIX = '(late\\s+|deceased\\s+|former\\s+|ex-|ex\\s+)?'
const endedBy = (prefix: string | undefined): Ended =>
  !prefix ? null : /^ex/.test(prefix) ? 'ex' : /^former/.test(prefix) ? 'former' : 'died'
// "Biscuit died last year", "my grandmother Rose, who passed away": said of the one just named.
const DIED_AFTER =
  /^\s*,?\s*(?:(?:who|which|that|he|she|it|they)\s+)?(?:(?:has|have|had|just|sadly|recently|finally)\s+)*(?:died|passed away|(?:was )?put down|(?:was )?put to sleep|is no longer with us)\b/
// "we lost our dog Max", "I broke up with my girlfriend Mia": said before the relation is named.
const ENDED_BEFORE: [RegExp, Ended][] = [
  [/\b(?:mourning|grieving|buried|burying)\s+$/, 'died'],
  [
    /\b(?:broke up with|broken up with|split up with|split from|divorced|divorcing|separated from|dumped)\s+$/,
    'ex',
  ],
]

/** How the relation named between `start` and `end` of `view.lower` ended, read from the words around it. */
function endedAround(view: SentenceView, start: number, end: number, prefix: string | undefined): Ended {
  const byPrefix = endedBy(prefix)
  if (byPrefix) return byPrefix
  const before = view.lower.slice(0, start)
  for (const [pattern, ended] of ENDED_BEFORE) if (pattern.test(before)) return ended
  return DIED_AFTER.test(view.lower.slice(end)) ? 'died' : null
}

/** "my sister Lena", "our dog is called Biscuit", "Tomas is my brother", "I'm married to Ana". */
export function findRelations(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const before = new RegExp(
    `\\b(?:my|our)\\s+${ENDED_PREFIX}(${ROLE_ADJECTIVE})(${ROLES})(?:'s name is|\\s+is called|\\s+is named|\\s+named|\\s+called|\\s*,)?\\s+`,
    'g',
  )
  for (const match of view.lower.matchAll(before)) {
    const at = (match.index ?? 0) + match[0].length
    const name = properNameAt(view.text, at)
    if (!name) continue
    const end = view.text.indexOf(name, at) + name.length
    const ended = endedAround(view, match.index ?? 0, end, match[1])
    found.push(relationDraft(match[2] ?? '', match[3] as string, name, ended))
  }
  const after = new RegExp(`(?:\\s+is|'s|,)\\s+my\\s+${ENDED_PREFIX}(${ROLE_ADJECTIVE})(${ROLES})\\b`, 'g')
  for (const match of view.lower.matchAll(after)) {
    const name = properNameBefore(view.text, match.index ?? 0)
    const ended = endedBy(match[1])
    if (name) found.push(relationDraft(match[2] ?? '', match[3] as string, name, ended))
  }
  // "Jonas says hi. he's my partner": the pronoun points at the last person named before it.
  const pronoun = new RegExp(
    `(?:^|[\\s,.;:!—–-])(?:he|she|they)(?:'s| is| are)\\s+my\\s+(${ROLE_ADJECTIVE})(${ROLES})\\b`,
    'g',
  )
  for (const match of view.lower.matchAll(pronoun)) {
    const name = lastPersonNamed(`${view.context} ${view.text.slice(0, match.index ?? 0)}`)
    if (name) found.push(relationDraft(match[1] ?? '', match[2] as string, name))
  }
  // "Seeing" is left out: "I'm seeing Tom tomorrow" is a meeting. "Dating Tom's brother" names the brother.
  const married = /\bi(?:'m| am)\s+(?:married to|engaged to|dating)\s+/.exec(view.lower)
  const spouseAt = married ? married.index + married[0].length : 0
  const spouse = married ? properNameAt(view.text, spouseAt) : null
  const isSomeonesRelative =
    spouse !== null && /^['’]s\b/.test(view.text.slice(view.text.indexOf(spouse, spouseAt) + spouse.length))
  if (married && spouse && !isSomeonesRelative)
    found.push(relationDraft('', /married/.test(married[0]) ? 'spouse' : 'partner', spouse))
  const have = new RegExp(
    `\\bi have (?:a|an|one|two|three|four)\\s+(${ROLE_ADJECTIVE})(${ROLES})s?\\s+(?:named|called)\\s+`,
  )
  const had = have.exec(view.lower)
  const named = had ? properNameAt(view.text, had.index + had[0].length) : null
  if (had && named) {
    const end = view.text.indexOf(named, had.index + had[0].length) + named.length
    const ended = endedAround(view, had.index, end, undefined)
    found.push(relationDraft(had[1] ?? '', had[2] as string, named, ended))
  }
  return found
}
