// Rules for user.md: who the user is (name, city, work), the people and pets around them.
import {
  isActorNoun,
  lastPersonNamed,
  looksLikePersonName,
  properNameAt,
  properNameBefore,
} from './entities.js'
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

function identity(key: string, label: string, value: string): Draft {
  const headline = `${label}: ${value}`
  return { kind: 'identity', file: 'user.md', section: 'Identity', key, value, isSingle: true, headline }
}

function nameAfter(view: SentenceView, pattern: RegExp): string | null {
  const match = pattern.exec(view.lower)
  if (!match) return null
  const start = match.index + match[0].length
  const skipThe = /^the\s+(?=\p{Lu})/u.exec(view.text.slice(start))?.[0].length ?? 0
  return properNameAt(view.text, start + skipThe)
}

/** Where the user lives now: "we moved from Lisbon to Porto", "I'm based in Braga". */
function findCity(view: SentenceView): Draft | null {
  const verb =
    /\b(?:i|we)(?:'m|'re|'ve| am| are| have)?(?:\s+(?:just|recently|finally|now|still|currently|actually|officially|both|all|since))*\s+(?:live|living|reside|residing|based|moved|relocated|settled)\b(?:\s+(?:back|over|out|house))?/
  const match =
    verb.exec(view.lower) ?? /^(?:(?:now|currently|still)\s+)?(?:living|based)(?=\s+in\b)/.exec(view.lower)
  if (!match) return null
  let at = match.index + match[0].length
  let previous: string | null = null
  const from = /^\s+from\s+(?:the\s+)?/.exec(view.lower.slice(at))
  if (from) {
    previous = properNameAt(view.text, at + from[0].length)
    if (!previous) return null
    at += from[0].length + view.text.slice(at + from[0].length).indexOf(previous) + previous.length
  }
  const to = /^,?\s+(?:to|in|into)\s+(?:the\s+(?=\p{Lu}))?/u.exec(view.lower.slice(at))
  if (!to) return null
  const city = properNameAt(view.text, at + to[0].length)
  if (!city) return null
  if (!previous) {
    const rest = view.text.slice(at + to[0].length + city.length)
    const trailingFrom = /^,?\s+from\s+(?:the\s+)?/i.exec(rest)
    if (trailingFrom) previous = properNameAt(rest, trailingFrom[0].length)
  }
  return { ...identity('user.city', 'City', city), previous }
}

/** Job title and employer: "I'm a product designer at Fernwood Labs", "I just joined Acme as a data engineer". */
function findWork(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const employer =
    nameAfter(
      view,
      /\b(?:i|i'm|i am)(?:\s+(?:currently|now|still|also))?\s+(?:work|working)\s+(?:at|for)\s+/,
    ) ??
    nameAfter(
      view,
      /\b(?:i|i've)(?:\s+(?:just|recently|finally|officially))?\s+(?:joined|started at|started working at|started with|got a job at|accepted (?:an|the) (?:offer|job|position|role) (?:at|from|with)|start(?:ed)? (?:my new job|a new job|the new job) at)\s+/,
    ) ??
    nameAfter(view, /\bmy new (?:job|employer|company|workplace) is (?:at |with )?/) ??
    nameAfter(view, /\b(?:i|i'm|i am)\s+(?:start|starting|begin|beginning)\s+(?:work(?:ing)?\s+)?at\s+/)
  const move = /\b(?:i'm|i am|i)\s+(?:(?:just|finally)\s+)?(?:leaving|left|quit|quitting)\s+/.exec(view.lower)
  const left = move ? properNameAt(view.text, move.index + move[0].length) : null
  const forAt = left ? view.lower.indexOf(' for ', move!.index + move![0].length + left.length) : -1
  const joined =
    forAt >= 0 && forAt < move!.index + move![0].length + left!.length + 4
      ? properNameAt(view.text, forAt + 5)
      : null
  if (joined && left) found.push({ ...identity('user.employer', 'Works at', joined), previous: left })
  else if (employer) found.push(identity('user.employer', 'Works at', employer))
  const role =
    /\b(?:i'm|i am|i work as|i'm working as|i am working as|i'm now|i am now|(?:joined|hired (?:at|by))\s+(?:[\w&'-]+\s+){1,3}?as)\s+(?:a|an)\s+((?:[a-z][a-z-]*)(?:\s+(?!at\b|for\b|with\b|in\b|and\b|but\b|so\b|who\b|that\b|of\b)[a-z][a-z-]*){0,3})(?=\s+(?:at|for|with|in)\s+|\s*[,.;!]|\s*$)/.exec(
      view.lower,
    )
  // "I'm a former teacher", "an ex-banker": a job no longer held.
  if (role && isActorNoun(role[1] as string) && !/^(?:former|ex-|retired)/.test(role[1] as string)) {
    const title = view.text.slice(
      role.index + role[0].length - (role[1] as string).length,
      role.index + role[0].length,
    )
    found.push(identity('user.job', 'Job', title))
    const at = /^\s+(?:at|for|with)\s+/.exec(view.lower.slice(role.index + role[0].length))
    const company = at ? properNameAt(view.text, role.index + role[0].length + at[0].length) : null
    if (company && !employer) found.push(identity('user.employer', 'Works at', company))
  }
  return found
}

/** Identity facts: name, city, origin, work, age, birthday. */
export function findIdentity(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const introduced = introducedName(view)
  const name =
    nameAfter(
      view,
      /\b(?:my name is|my name's|call me|i'm called|i am called|people call me|everyone calls me|i go by)\s+/,
    ) ?? introduced?.name
  if (name) found.push(identity('user.name', 'Name', name))
  const work = findWork(view)
  found.push(...(work.length === 0 && introduced ? appositiveWork(view, introduced.end) : work))
  const city = findCity(view)
  if (city) found.push(city)
  const origin =
    nameAfter(view, /\b(?:i'm|i am)\s+(?:originally\s+)?from\s+/) ?? nameAfter(view, /\bi grew up in\s+/)
  if (origin) found.push(identity('user.origin', 'From', origin))
  const age = /\bi(?:'m| am)\s+(\d{1,3})\s+years?\s+old\b|\bi(?: just)? turned\s+(\d{1,3})\b/.exec(view.lower)
  if (age) found.push(identity('user.age', 'Age', (age[1] ?? age[2]) as string))
  const birthday = /\bmy birthday(?:'s| is)\b/.test(view.lower) ? view.mentions[0] : undefined
  if (birthday && birthday.otherDay === undefined)
    found.push(identity('user.birthday', 'Birthday', birthday.day.slice(5)))
  return found
}

// "I'm Maya", "this is Maya here", when compromise reads the capitalised words as a person's name.
function introducedName(view: SentenceView): { name: string; end: number } | null {
  // "this is Atlas, our new API" is no introduction; "hi, this is Maya" is.
  for (const match of view.lower.matchAll(
    /(?:^|[\s,.;:!—–-])(?:i'm|i am)\s+|^(?:hi|hey|hello)[,!.]*\s+this is\s+/g,
  )) {
    const start = (match.index ?? 0) + match[0].length
    const name = properNameAt(view.text, start)
    if (!name || !looksLikePersonName(view.text, name)) continue
    const end = view.text.indexOf(name, start) + name.length
    // "I'm Maria's sister" names someone else.
    if (!/^['’]s\b/.test(view.text.slice(end))) return { name, end }
  }
  return null
}

// "I'm Maya Ortega, staff engineer at Tidewell": a job and employer in apposition to the name.
function appositiveWork(view: SentenceView, end: number): Draft[] {
  const match = /^,\s+(?:a\s+|an\s+|the\s+)?((?:[a-z][a-z-]*\s+){0,3}[a-z][a-z-]*)\s+(?:at|for|with)\s+/.exec(
    view.lower.slice(end),
  )
  if (!match || !isActorNoun(match[1] as string)) return []
  const titleStart = end + match[0].indexOf(match[1] as string)
  const found = [
    identity('user.job', 'Job', view.text.slice(titleStart, titleStart + (match[1] as string).length)),
  ]
  const company = properNameAt(view.text, end + match[0].length)
  if (company) found.push(identity('user.employer', 'Works at', company))
  return found
}
