// Rules for the people and pets around the user: "my sister Lena", "Tomas is my brother", "our dog Biscuit".
import { lastPersonNamed, looksLikePersonName, properNameAt, properNameBefore } from './entities.js'
import { nlp } from './nlp.js'
import type { Draft, SentenceView } from './types.js'
import { foldCase, lastSentenceOf } from './text.js'

// The roles of a couple, which "we're separated" or "we got divorced" speaks of.
const COUPLE_ROLES: Record<string, string> = {
  partner: 'partner',
  wife: 'wife',
  husband: 'husband',
  spouse: 'spouse',
  girlfriend: 'girlfriend',
  boyfriend: 'boyfriend',
  gf: 'girlfriend',
  bf: 'boyfriend',
  fiance: 'fiancé',
  fiancé: 'fiancé',
  fiancee: 'fiancée',
  fiancée: 'fiancée',
}
// Roles one person fills at a time: a new name for them supersedes the old one.
const SINGLE_ROLES: Record<string, string> = {
  ...COUPLE_ROLES,
  boss: 'boss',
  manager: 'manager',
  mom: 'mother',
  mum: 'mother',
  mother: 'mother',
  dad: 'father',
  father: 'father',
}
const PETS = (
  'dog cat puppy kitten pet parrot hamster rabbit bunny horse pony turtle tortoise goldfish fish snake lizard gecko ' +
  'ferret budgie cockatiel retriever labrador poodle terrier spaniel beagle bulldog husky corgi dachshund ' +
  'collie pug chihuahua greyhound whippet'
).split(' ')
const MULTI_ROLES = [
  ...(
    'sister brother sibling son daughter kid child cousin aunt uncle niece nephew grandma grandmother grandpa ' +
    'grandfather granddaughter grandson grandchild grandkid friend colleague coworker co-worker cofounder co-founder roommate flatmate housemate neighbor ' +
    'neighbour therapist doctor dentist'
  ).split(' '),
  ...PETS,
]
// A role word ends the word ("fiancé." too, which \\b misses) and is not part of a longer one: "my sister-in-law",
// "my boss's wife" and "my wife's sister" name someone else.
const ROLE_END = "(?![\\p{L}\\p{N}])(?!['’]s\\s+(?!name\\b)|-\\p{L})"
const ROLES = alternation([...Object.keys(SINGLE_ROLES), ...MULTI_ROLES])
const pluralOf = (role: string): string =>
  role.endsWith('child')
    ? `${role}ren`
    : role.endsWith('y') && role !== 'boy'
      ? `${role.slice(0, -1)}ies`
      : `${role}s`
// "my kids Mia and Noah", "our dogs Rex and Bo": each name listed is one of the role.
const ROLE_OF_PLURAL = new Map([...MULTI_ROLES, 'kid'].map((role) => [pluralOf(role), role]))
const PLURAL_ROLES = alternation([...ROLE_OF_PLURAL.keys()])
const PET_ROLES = alternation(PETS)
const COUNT = '(?:two|three|four|five|six|\\d)'
const ROLE_ADJECTIVE =
  '(?:(?:older|younger|little|big|baby|twin|step|best|new|old|oldest|youngest|eldest|good|close)\\s+)?'

/** Longest first, so "grandmother" is tried before "grandma" and "mother". */
function alternation(words: readonly string[]): string {
  return [...words].sort((a, b) => b.length - a.length).join('|')
}

// A name's own words, stopwords too: "Will" and "May" are names here, not words to drop (slugOf made them "item").
const nameSlug = (name: string): string =>
  foldCase(name)
    .normalize('NFKD')
    .replace(/[^a-z0-9\s-]/g, '')
    .split(/[\s-]+/)
    .filter((word) => word !== '')
    .slice(0, 3)
    .join('-') || 'item'

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * How a relation ended: a death ("my late father", "Biscuit died"), a parting ("my ex-wife", "broke up with"), or a
 * couple living apart ("we're separated"), who are still married and so keep the role's place.
 */
type Ended = 'died' | 'ex' | 'former' | 'separated' | null

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
      key: `user.relation.${ended}${(single ?? role).replace(/-/g, '')}.${nameSlug(name)}`,
      value: name,
      isSingle: false,
      headline: `${pastLabel}: ${name}`,
    }
  }
  return {
    kind: 'relation',
    file: 'user.md',
    section: 'People',
    key: single ? `user.relation.${single}` : `user.relation.${role.replace(/-/g, '')}.${nameSlug(name)}`,
    value: name,
    isSingle: single !== undefined,
    headline: `${label}: ${name}${ended === 'died' ? ' (died)' : ended === 'separated' ? ' (separated)' : ''}`,
  }
}

// "my late father", "my ex-wife", "my former boss", "my old boss": the relation ended before the sentence was said.
// ("My old friend" is a friend of long standing, still one.)
const ENDED_PREFIX =
  '(late\\s+|deceased\\s+|former\\s+|ex-|ex\\s+|old\\s+(?=(?:boss|manager|roommate|flatmate|housemate|colleague|coworker|co-worker|neighbou?r|teacher|coach|therapist|doctor|dentist)\\b))?'
const endedBy = (prefix: string | undefined): Ended =>
  !prefix ? null : /^ex/.test(prefix) ? 'ex' : /^(?:former|old)/.test(prefix) ? 'former' : 'died'
// "Biscuit died last year", "my grandmother Rose, who passed away": said of the one just named.
const DIED_AFTER =
  /^\s*,?\s*(?:(?:who|which|that|he|she|it|they)\s+)?(?:(?:has|have|had|just|sadly|recently|finally)\s+)*(?:died|passed away|(?:was )?put down|(?:was )?put to sleep|is no longer with us)\b/
// "we lost our dog Max", "I broke up with my girlfriend Mia": said before the relation is named.
const ENDED_BEFORE: [RegExp, Ended][] = [
  [/\b(?:mourning|grieving|buried|burying)\s+$/, 'died'],
  [/\b(?:broke up with|broken up with|split up with|split from|divorced|dumped)\s+$/, 'ex'],
  [/\b(?:separated from|divorcing|separating from)\s+$/, 'separated'],
]
// "We're separated, my husband Tom and I", "we got divorced": said of the couple anywhere in the sentence.
const COUPLE_SEPARATED =
  /\b(?:we(?:'re| are)|i(?:'m| am))\s+(?:(?:now|recently|just|legally|officially|currently)\s+)*(?:separated|separating|getting (?:a )?divorced?|going through a divorce|splitting up)\b/
const COUPLE_PARTED =
  /\bwe(?:'re| are|'ve| have| got| just)?\s+(?:(?:now|recently|just|finally|officially)\s+)*(?:divorced|broke up|broken up|split up)\b/

/** How the relation named between `start` and `end` of `view.lower` ended, read from the words around it. */
function endedAround(view: SentenceView, start: number, end: number, prefix: string | undefined): Ended {
  const byPrefix = endedBy(prefix)
  if (byPrefix) return byPrefix
  const before = view.lower.slice(0, start)
  for (const [pattern, ended] of ENDED_BEFORE) if (pattern.test(before)) return ended
  return DIED_AFTER.test(view.lower.slice(end)) ? 'died' : null
}

/** How a couple's relation stands by what the sentence says of "we": parted, living apart, or (null) together. */
function coupleEnded(view: SentenceView, role: string, ended: Ended): Ended {
  if (ended !== null || COUPLE_ROLES[role] === undefined) return ended
  return COUPLE_PARTED.test(view.lower) ? 'ex' : COUPLE_SEPARATED.test(view.lower) ? 'separated' : null
}

/**
 * The names listed from `index`: "Mia and Noah", "Rex, Bo and Max". A capitalised run joined by "and" is two
 * people here, not one name as in a company's ("Marks and Spencer").
 */
function namesAt(text: string, index: number): string[] {
  const names: string[] = []
  let at = index
  for (;;) {
    const name = properNameAt(text, at)
    if (!name) break
    names.push(...name.split(/\s+(?:and|&)\s+/))
    const end = text.indexOf(name, at) + name.length
    const gap = /^(?:\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+)/.exec(text.slice(end))
    if (!gap) break
    at = end + gap[0].length
  }
  return names
}

// The relation patterns, compiled once (built inside the rules they were compiled again for every sentence).
// Those with the g flag are only used through matchAll, which matches on a copy, so sharing them is safe.
// "my kids Mia and Noah", "I have two dogs, Rex and Bo"
const ROLE_LISTS = [
  new RegExp(
    `\\b(?:my|our)\\s+(?:${COUNT}\\s+)?(${ROLE_ADJECTIVE})(${PLURAL_ROLES})(?:\\s+named|\\s+called|\\s+are called|\\s+are named|(?:['’]\\s+names)?\\s+are|\\s*[,:])?\\s+`,
    'g',
  ),
  new RegExp(
    `\\b(?:i|we)(?:'ve|\\s+have)?\\s+(?:have|got)\\s+${COUNT}\\s+(${ROLE_ADJECTIVE})(${PLURAL_ROLES})(?:\\s+named|\\s+called|\\s*[,:])\\s+`,
    'g',
  ),
]
// "my sister Lena", "our dog is called Biscuit"
const ROLE_THEN_NAME = new RegExp(
  `\\b(?:my|our)\\s+${ENDED_PREFIX}(${ROLE_ADJECTIVE})(${ROLES})(?:'s name is|\\s+is called|\\s+is named|\\s+named|\\s+called|\\s*,)?\\s+`,
  'g',
)
// "Tomas is my brother"
const NAME_THEN_ROLE = new RegExp(
  `(?:\\s+is|'s|,)\\s+my\\s+${ENDED_PREFIX}(${ROLE_ADJECTIVE})(${ROLES})${ROLE_END}`,
  'gu',
)
// "he's my partner"
const PRONOUN_THEN_ROLE = new RegExp(
  `(?:^|[\\s,.;:!—–-])(?:he|she|they)(?:'s| is| are)\\s+my\\s+(${ROLE_ADJECTIVE})(${ROLES})${ROLE_END}`,
  'gu',
)
// "I", "we've just", "we have recently": who comes to have someone.
const WE_HAVE = "\\b(?:i|we)(?:'ve|\\s+have)?(?:\\s+(?:just|recently|finally|also))?\\s+"
// "we adopted a puppy named Biscuit", "I have a golden retriever called Biscuit"
const HAVE_ROLE_NAMED = new RegExp(
  `${WE_HAVE}(?:have|got|adopted|rescued|welcomed|brought home)\\s+(?:a|an|one)\\s+(${ROLE_ADJECTIVE}(?:[a-z]+\\s+)?)(${ROLES})\\s+(?:named|called)\\s+`,
)
// "I have a new flatmate, Lily", "we've got a new neighbour called Sam": someone new, named after a comma or "called".
const HAVE_NEW_ROLE = new RegExp(
  `\\b(?:i|we)(?:'ve|\\s+have)?(?:\\s+(?:just|also|now))?\\s+(?:have|got)\\s+(?:a|an)\\s+new\\s+(${MULTI_ROLES.filter((role) => !PETS.includes(role)).join('|')})(?:\\s*,|\\s+(?:named|called))\\s+`,
)
// "My new boss is Priya", "my manager at Northwind is Priya Raman"
const ROLE_IS = new RegExp(
  `\\b(?:my|our)\\s+(${ROLE_ADJECTIVE})(${ROLES})(?:\\s+at\\s+(?:(?!is\\b)\\S+\\s+){0,2}(?!is\\b)\\S+)?\\s+is\\s+`,
  'g',
)
// "we named the puppy Biscuit"
const PET_NAMED = new RegExp(
  `\\b(?:i|we)(?:'ve)?(?:\\s+(?:just|finally))?\\s+named\\s+(?:the|our|my)\\s+(${ROLE_ADJECTIVE})(${PET_ROLES})\\s+`,
)

// "We adopted a cat! She's a little tabby called Pickle.": a pet arrives in one sentence, its name in the next.
const PET_ARRIVED = new RegExp(
  `${WE_HAVE}(?:got|adopted|rescued|welcomed|brought home)\\s+(?:a|an)\\s+(${ROLE_ADJECTIVE})(${PET_ROLES})\\b`,
)
// "She's a tabby called Pickle", "her name is Pickle", "…, the kids named her Waffles".
const ITS_NAME =
  /(?:^|[.!?]\s+)(?:(?:and|so|oh)\s+)?(?:(?:she|he|it)(?:'s|’s| is)\s+(?:(?:a|an)\s+)?(?:[a-z-]+\s+){0,3}?(?:called|named)|(?:her|his|its)\s+name(?:'s|’s| is))\s+|(?:^|[,;]\s+|\band\s+)(?:we|i|they|the\s+kids|the\s+children|my\s+\w+|our\s+\w+)\s+(?:(?:just|finally)\s+)?(?:named|called)\s+(?:her|him|it)\s+/

/** The pet the sentence before named the arrival of, by the name this one gives it. */
function petNamedNext(view: SentenceView): Draft | null {
  const naming = ITS_NAME.exec(view.lower)
  if (!naming) return null
  const lead = lastSentenceOf(`${view.context} ${view.text.slice(0, naming.index)}`.trim())
  // "We got a puppy! A golden retriever, the kids named her Waffles.": the words before the naming may only
  // describe the pet, its arrival in the sentence before them.
  const isArrival = PET_ARRIVED.test(foldCase(lead))
  const before = isArrival ? lead : lastSentenceOf(view.context)
  const arrived = PET_ARRIVED.exec(foldCase(before))
  const name = arrived ? properNameAt(view.text, naming.index + naming[0].length) : null
  if (!arrived || !name) return null
  const draft = relationDraft(arrived[1] ?? '', arrived[2] as string, name)
  // The arrival in the sentence before: the entry says both ("we adopted a cat! She's … called Pickle").
  return naming.index === 0 || !isArrival ? { ...draft, text: `${before} ${view.text}` } : draft
}

// "We're engaged!", "I just got engaged to Ana"; not "engaged in a lawsuit" or "engaged with the team".
const ENGAGED =
  /\b(?:we(?:'re|’re| are)|we(?: just)? got|i(?:'m|’m| am)|i(?: just)? got)\s+engaged\b(?!\s+(?:in|with|on)\b)/
// Who to: "engaged to Ana", "Tom proposed", "I proposed to Ana", "Ana and I got engaged".
const FIANCE_NAMED = [
  /\bengaged to\s+/g,
  /\bproposed to\s+/g,
  /(?:^|[\s,.!?])(?=\p{Lu}[\p{L}'’-]*\s+(?:finally\s+|just\s+)?(?:proposed(?!\s+to\s+(?!me\b))|popped the question)\b)/gu,
  /(?:^|[\s,.!?])(?=\p{Lu}[\p{L}'’-]*\s+and\s+i\s+(?:just\s+)?(?:got|are)\s+engaged\b)/giu,
]

// "Kai and I broke up", "I split up with Kai": a parting named without the role the partner had.
const PARTED_FROM = [
  /(?:^|[\s,.!?])(?=\p{Lu}[\p{L}'’-]*\s+and\s+i\s+(?:(?:just|finally|officially|recently)\s+)?(?:broke up|split up|got divorced)\b)/giu,
  /\bi\s+(?:(?:just|finally|officially|recently)\s+)?(?:broke up with|split up with|divorced)\s+/gi,
]

/** The one the user parted from, as an ex: memory strikes out the couple role that name held. */
function parting(view: SentenceView): Draft | null {
  const parted = personAfter(view.text, PARTED_FROM)
  return parted ? relationDraft('', 'ex', parted.name) : null
}

// "Dan and I are back together", "I got back together with Dan": the parting is over.
const BACK_TOGETHER_WITH = [
  /(?:^|[\s,.!?])(?=\p{Lu}[\p{L}'’-]*\s+and\s+i\s+(?:are|got|'re)\s+(?:(?:officially|finally)\s+)?back together\b)/giu,
  /\bi(?:'m| am)?\s+(?:(?:officially|finally)\s+)?(?:got\s+)?back together with\s+/gi,
]

/** The ex the user is back with: an ending of the ex, after which memory holds the couple role again. */
function reunion(view: SentenceView): Draft | null {
  const back = personAfter(view.text, BACK_TOGETHER_WITH)
  if (!back) return null
  const ex = relationDraft('', 'ex', back.name)
  return { ...ex, headline: `Ex: ${back.name} (back together)`, endsOnly: true }
}

/** The first person's name right after a match of `patterns` (tried in order) in `text`, and where that matched. */
function personAfter(text: string, patterns: readonly RegExp[]): { name: string; at: number } | null {
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const name = properNameAt(text, (match.index ?? 0) + match[0].length)
      if (name && looksLikePersonName(text, name)) return { name, at: match.index ?? 0 }
    }
  }
  return null
}

/** The user's engagement, and to whom, from the sentence and the message before it. */
function engagement(view: SentenceView): Draft | null {
  if (!ENGAGED.test(view.lower)) return null
  const fiance = personAfter(`${view.context} ${view.text}`, FIANCE_NAMED)
  if (!fiance) return null
  const draft = relationDraft('', 'fiance', fiance.name)
  // Named in the sentence before ("Tom proposed last weekend!! We're engaged!"): the entry says both.
  const isNamedBefore = fiance.at < view.context.length
  return isNamedBefore ? { ...draft, text: `${lastSentenceOf(view.context)} ${view.text}` } : draft
}

/** "my kids Mia and Noah", "I have two dogs, Rex and Bo": one relation for each name of a list of two or more. */
function listedRelations(view: SentenceView): Draft[] {
  const found: Draft[] = []
  for (const list of ROLE_LISTS) {
    for (const match of view.lower.matchAll(list)) {
      const names = namesAt(view.text, (match.index ?? 0) + match[0].length)
      const role = ROLE_OF_PLURAL.get(match[2] as string) as string
      if (names.length >= 2) for (const name of names) found.push(relationDraft(match[1] ?? '', role, name))
    }
  }
  return found
}

/**
 * The relation "my old <role>" names, as its adjective and how it ended ("my old boss" is read as a former one before
 * this): "my old girlfriend" is an ex, "my old friend" still a friend; of kin or a pet "old" may mean aged or gone,
 * so nothing is read (null) unless the words around the name say it died.
 */
function readOld(adjective: string, role: string, ended: Ended): { adjective: string; ended: Ended } | null {
  if (!/^old\b/.test(adjective) || role === 'friend') return { adjective, ended }
  if (ended !== null) return { adjective: '', ended }
  return COUPLE_ROLES[role] !== undefined ? { adjective: '', ended: 'ex' } : null
}

// Where a name starts the clause it is the subject of: "Tomas is my brother", "…, and Tomas is my brother". Not
// "the guy who lives in Leeds is my cousin", where the capitalised word before "is" is a place in a clause of its own.
const CLAUSE_START =
  /(?:^|[,.;:!?—–]\s*|\b(?:and|but|so|oh|yes|yeah|well|btw|fyi|also|this is|that's|meet)\s+)$/i

/** "my sister Lena", "our dog is called Biscuit", "Tomas is my brother", "I'm married to Ana". */
export function findRelations(view: SentenceView): Draft[] {
  const found: Draft[] = []
  for (const match of view.lower.matchAll(ROLE_THEN_NAME)) {
    const at = (match.index ?? 0) + match[0].length
    // "My friend Sam and Ana came over": the role names Sam alone.
    const name = namesAt(view.text, at)[0]
    if (!name) continue
    const end = view.text.indexOf(name, at) + name.length
    const role = match[3] as string
    const read = readOld(match[2] ?? '', role, endedAround(view, match.index ?? 0, end, match[1]))
    if (read) found.push(relationDraft(read.adjective, role, name, coupleEnded(view, role, read.ended)))
  }
  for (const match of view.lower.matchAll(NAME_THEN_ROLE)) {
    const name = properNameBefore(view.text, match.index ?? 0)
    if (!name) continue
    // "I'm not from Spain, my mum is.": after a comma the name must be a person's, not a place.
    const isApposition = match[0].startsWith(',')
    const start = view.text.lastIndexOf(name, match.index ?? 0)
    if (isApposition ? !looksLikePersonName(view.text, name) : !CLAUSE_START.test(view.text.slice(0, start)))
      continue
    const role = match[3] as string
    const read = readOld(match[2] ?? '', role, endedBy(match[1]))
    if (read) found.push(relationDraft(read.adjective, role, name, read.ended))
  }
  // "Jonas says hi. he's my partner": the pronoun points at the last person named before it.
  for (const match of view.lower.matchAll(PRONOUN_THEN_ROLE)) {
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
  const had = HAVE_ROLE_NAMED.exec(view.lower)
  const named = had ? properNameAt(view.text, had.index + had[0].length) : null
  if (had && named) {
    const end = view.text.indexOf(named, had.index + had[0].length) + named.length
    const ended = endedAround(view, had.index, end, undefined)
    found.push(relationDraft(had[1] ?? '', had[2] as string, named, ended))
  }
  const someoneNew = HAVE_NEW_ROLE.exec(view.lower)
  const newName = someoneNew ? properNameAt(view.text, someoneNew.index + someoneNew[0].length) : null
  if (someoneNew && newName && looksLikePersonName(view.text, newName))
    found.push(relationDraft('', someoneNew[1] as string, newName))
  const later = [petNamedNext(view), engagement(view), parting(view), reunion(view)].filter(
    (draft) => draft !== null,
  )
  return [...found, ...namedLater(view), ...listedRelations(view), ...later]
}

// "My mum is Catholic", "my wife is Welsh": a capitalised word of faith, people or place, in the form of an
// adjective (-ic, -ian, -ish, -ese, -an, -i), unless it is a first name compromise knows ("Brian", "Julian").
const DESCRIPTION_FORM = /^\p{Lu}\p{Ll}+(?:ic|ian|ish|ese|an|i)$/u

function isDescription(name: string): boolean {
  return !name.includes(' ') && DESCRIPTION_FORM.test(name) && !nlp(name).has('#FirstName')
}

/** "My new boss is Priya", "we named the puppy Biscuit", "my ex Mark": the name comes after the role. */
function namedLater(view: SentenceView): Draft[] {
  const found: Draft[] = []
  for (const match of view.lower.matchAll(ROLE_IS)) {
    const at = (match.index ?? 0) + match[0].length
    const name = properNameAt(view.text, at)
    if (!name) continue
    // "My mom is German", "my brother is Tom's age": a person's name, and all of it, or nothing.
    const after = view.text.slice(view.text.indexOf(name, at) + name.length)
    if (!/^\s*(?:[.,;:!?)]|$|(?:and|now|btw|too|though|by the way)\b)/.test(after)) continue
    // "My cat is Persian": a breed, or a pet's name? Only "is called" says.
    if (PETS.includes(match[2] as string)) continue
    if (looksLikePersonName(view.text, name) && !isDescription(name))
      found.push(relationDraft(match[1] ?? '', match[2] as string, name))
  }
  const petMatch = PET_NAMED.exec(view.lower)
  const petName = petMatch ? properNameAt(view.text, petMatch.index + petMatch[0].length) : null
  if (petMatch && petName) found.push(relationDraft(petMatch[1] ?? '', petMatch[2] as string, petName))
  const ex = /\b(?:my|our)\s+ex(?:\s*,|\s+is called|'s name is|\s+named)?\s+/.exec(view.lower)
  const exName = ex ? properNameAt(view.text, ex.index + ex[0].length) : null
  if (ex && exName) found.push(relationDraft('', 'ex', exName))
  return found
}
