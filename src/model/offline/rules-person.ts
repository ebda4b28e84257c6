// Rules for user.md: who the user is (name, city, origin, work, age, birthday).
import { isActorNoun, looksLikePersonName, properNameAt } from './entities.js'
import { nlp } from './nlp.js'
import type { Draft, SentenceView } from './types.js'
import { slugOf } from './text.js'

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
    /\b(?:i|we)(?:'m|'re|'ve| am| are| have)?(?:\s+(?:just|recently|finally|now|still|currently|actually|officially|both|all|since))*\s+(?:live|living|lived|reside|residing|based|moved|relocated|settled)\b(?:\s+(?:back|over|out|house))?/
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
  // "I live now in Rotterdam": an adverb may follow the verb too.
  const to = /^(?:\s+(?:now|currently|still))?,?\s+(?:to|in|into)\s+(?:the\s+(?=\p{Lu}))?/u.exec(
    view.lower.slice(at),
  )
  if (!to) return null
  const city = properNameAt(view.text, at + to[0].length)
  if (!city) return null
  // "we've lived in York for two weeks now" still lives there; "I lived in Paris", "I've lived in Rome and Oslo" may not.
  if (/\blived$/.test(match[0])) {
    const rest = view.lower.slice(at + to[0].length + city.length)
    if (!/(?:'ve|\shave)\b/.test(match[0]) || !/^\s+(?:for|since)\b/.test(rest)) return null
  }
  if (!previous) {
    const rest = view.text.slice(at + to[0].length + city.length)
    const trailingFrom = /^,?\s+from\s+(?:the\s+)?/i.exec(rest)
    if (trailingFrom) previous = properNameAt(rest, trailingFrom[0].length)
  }
  // "I live in Spain": where the user lives is a country then, not a city.
  const label = nlp(city).has('#Country') ? 'Lives in' : 'City'
  return { ...identity('user.city', label, city), previous }
}

// What a workplace is, said after its name: "the Headingley sports clinic", "St Mary's hospital".
const WORKPLACE_TAIL =
  /^(['’]s)?\s+((?:[a-z]+\s+)?(?:clinic|hospital|surgery|practice|school|college|university|academy|nursery|library|museum|gallery|bakery|cafe|café|restaurant|bar|pub|hotel|shop|store|salon|gym|studio|agency|firm|company|bank|lab|factory|warehouse|office|council|centre|center|charity|foundation|group|club))\b/

/** An employer's name with what kind of place it is, when that follows in lower case. */
function workplace(text: string, name: string | null): string | null {
  if (!name) return null
  const after = text.indexOf(name) + name.length
  const tail = WORKPLACE_TAIL.exec(text.slice(after))
  return tail ? `${name}${tail[1] ?? ''} ${tail[2]}` : name
}

/**
 * "I'm pulling shots at Blue Door Coffee, I'm a barista there": the place "there" points back to, named after "at"
 * earlier in the sentence, when only one is.
 */
function workplaceBefore(text: string, end: number): string | null {
  const names = [...text.slice(0, end).matchAll(/\bat\s+(?:the\s+(?=\p{Lu}))?/gu)]
    .map((at) => properNameAt(text, at.index + at[0].length))
    .filter((name) => name !== null)
  return names.length === 1 ? workplace(text, names[0]!) : null
}

// "I'm teaching guitar lessons at Harmony Music School now", "I teach piano at Riverside Academy": a subject taught
// at a named place is the job. Not "teaching a class" (once) or "teaching my son at home" (no place named).
const TEACHES_AT =
  /\bi(?:'m| am)?\s+(?:(?:now|currently|also)\s+)?(?:teach|teaching)\s+(?!(?:a|an|the|my|our|his|her|their|them|him|it|this|that|some|kids|children|people|myself)\b)([a-z]+)(?:\s+(?:lessons|classes))?\s+at\s+(?:the\s+(?=\p{Lu}))?/u

function teachingAt(view: SentenceView): Draft[] | null {
  const match = TEACHES_AT.exec(view.lower)
  const place = match ? properNameAt(view.text, match.index + match[0].length) : null
  if (!match || !place) return null
  return [
    identity('user.job', 'Job', `${match[1]} teacher`),
    identity('user.employer', 'Works at', workplace(view.text, place) ?? place),
  ]
}

/** Job title and employer: "I'm a product designer at Fernwood Labs", "I just joined Acme as a data engineer". */
function findWork(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const named =
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
  const employer = workplace(view.text, named)
  const move = /\b(?:i'm|i am|i)\s+(?:(?:just|finally)\s+)?(?:leaving|left|quit|quitting)\s+/.exec(view.lower)
  const left = move ? properNameAt(view.text, move.index + move[0].length) : null
  const forAt = left ? view.lower.indexOf(' for ', move!.index + move![0].length + left.length) : -1
  const joined =
    forAt >= 0 && forAt < move!.index + move![0].length + left!.length + 4
      ? properNameAt(view.text, forAt + 5)
      : null
  if (joined && left) found.push({ ...identity('user.employer', 'Works at', joined), previous: left })
  else if (employer) found.push(identity('user.employer', 'Works at', employer))
  const teaches = employer || joined ? null : teachingAt(view)
  if (teaches) return [...found, ...teaches]
  let role =
    /\b(?:i'm|i am|i work as|i'm working as|i am working as|i'm now|i am now|and work as|(?:i've|i have) been(?= (?:a|an) [a-z-]+(?: [a-z-]+)? for\b)|(?:i|i've|i have)(?:\s+(?:just|recently|finally|also))?\s+(?:been working as|been hired as|got hired as|(?:started|got|landed|took|accepted|found)\s+(?:a|an|my|the)\s+(?:new\s+)?(?:(?:part-time|full-time|part time|full time|summer|weekend|second)\s+)?(?:job|position|role|gig)\s+as)|(?:joined|hired (?:at|by))\s+(?:[\w&'-]+\s+){1,3}?as)\s+(?:a|an)\s+((?:[a-z][a-z-]*)(?:\s+(?!at\b|for\b|with\b|in\b|and\b|but\b|so\b|who\b|that\b|of\b|to\b|from\b|on\b|my\b|your\b|his\b|her\b|our\b|their\b|there\b)[a-z][a-z-]*){0,3})(?=\s+(?:at|for|with|in)\s+|\s+there\b|\s*[,.;!]|\s*$)/.exec(
      view.lower,
    )
  // "I live in Krakow and work as a nurse": the "and" joins the user's own clause, not someone else's.
  if (role?.[0].startsWith('and') && !/\bi\b/.test(view.lower.slice(0, role.index))) role = null
  if (!role) {
    const title = newTitle(view, employer !== null)
    if (title) found.push(identity('user.job', 'Job', title))
  }
  const title = role
    ? view.text.slice(role.index + role[0].length - (role[1] as string).length, role.index + role[0].length)
    : ''
  if (role && isJobTitle(title, view.lower)) {
    found.push(identity('user.job', 'Job', title))
    const at = /^\s+(?:at|for|with)\s+(?:the\s+(?=\p{Lu}))?/u.exec(
      view.text.slice(role.index + role[0].length),
    )
    const company = at
      ? workplace(view.text, properNameAt(view.text, role.index + role[0].length + at[0].length))
      : /^\s+there\b/.test(view.lower.slice(role.index + role[0].length))
        ? workplaceBefore(view.text, role.index)
        : null
    // A student at Leeds Uni studies there; nobody employs them.
    if (company && !employer && !STUDIES.test(title))
      found.push(identity('user.employer', 'Works at', company))
  }
  return found
}

// "I'm a former teacher", "an ex-banker": a job no longer held. "A first-time buyer", "a big fan", "a total
// nerd": a status or a trait.
const NOT_NOW_OR_TRAIT =
  /^(?:former|ex-|retired|first-time|big|huge|total|complete|massive|real|true|proper|born|natural|self-confessed|self-proclaimed|recovering|serial|chronic|hopeless|typical)\b/
const STUDIES = /\b(?:student|pupil|undergrad|undergraduate|postgrad|postgraduate)$/i
// A laugh makes "I'm a doctor of procrastination lol" a joke.
const LAUGH = /\b(?:lol|lmao|rofl|haha\w*|jk)\b|😂|🤣/u

/**
 * A title as "I'm a …" gives it: an actor noun, not a trait or a status, and not a name's capitals ("I'm a
 * Londoner", "an Arsenal supporter"); a Title Cased title ("Software Engineer") or an acronym ("CTO") is fine.
 */
function isJobTitle(title: string, lower: string): boolean {
  if (!isActorNoun(title) || NOT_NOW_OR_TRAIT.test(title.toLowerCase()) || LAUGH.test(lower)) return false
  const words = title.split(/\s+/)
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word) && !/^\p{Lu}{2,}$/u.test(word))
  return capitalised.length === 0 || (words.length >= 2 && capitalised.length === words.length)
}

const TITLE =
  '([a-z][a-z-]*(?:\\s+(?!at\\b|for\\b|with\\b|in\\b|and\\b|but\\b|so\\b|on\\b|today\\b|yesterday\\b)[a-z][a-z-]*){0,3})'
const TITLE_END = '(?=\\s+(?:at|for|with|in|on|today|yesterday|last|this)\\b|\\s*[,.;!]|\\s*$)'
// "I got promoted to team lead", "I've been promoted to senior engineer".
const PROMOTED = new RegExp(
  `\\b(?:i|i've|i have|i'm|i am|i was|i got)(?:\\s+(?:just|finally|officially|recently))?(?:\\s+(?:been|got|was|am))?\\s+promoted\\s+to\\s+(?:(?:a|an)\\s+)?${TITLE}${TITLE_END}`,
)
// "I started a new job at Northwind on Monday, as a data analyst": the title after the employer's sentence part.
const AS_TITLE = new RegExp(`,\\s+as\\s+(?:a|an)\\s+${TITLE}${TITLE_END}`)

/** A job title said with a promotion, or after the employer the sentence names. */
function newTitle(view: SentenceView, namesEmployer: boolean): string | null {
  const match = PROMOTED.exec(view.lower) ?? (namesEmployer ? AS_TITLE.exec(view.lower) : null)
  if (!match || !isActorNoun(match[1] as string)) return null
  const end = match.index + match[0].length
  return view.text.slice(end - (match[1] as string).length, end)
}

// "Lost my job as a banker yesterday", "I got laid off from Acme", "I quit my job": no job now. Not "almost lost",
// "fired up", or "left my job at 5" (the office, not the job).
const JOB_ENDED =
  /(?:^|\b(?:i|i've|i have)\s+)(?:(?:just|recently|finally|officially)\s+)?(lost|quit)\s+my\s+(?:job|position)\b|\bi(?:'ve| have| was| got)?\s+(?:just\s+|recently\s+)?(?:been\s+|got\s+)?(laid off|fired(?! up)|let go(?! of))\b/
const HOW_ENDED: Record<string, string> = { lost: 'lost the job', quit: 'quit' }

/** The job or employer the user no longer has: `none`, saying why, superseding `previous` when it is known. */
function noneNow(key: 'user.job' | 'user.employer', why: string, previous: string | null): Draft {
  const label = key === 'user.job' ? 'Job' : 'Works at'
  return { ...identity(key, label, 'none'), headline: `${label}: none (${why})`, previous }
}

function jobEnded(view: SentenceView): Draft[] {
  const match = JOB_ENDED.exec(view.lower)
  if (
    !match ||
    /\b(?:almost|nearly|afraid|worried|scared|might|may|could)\b/.test(view.lower.slice(0, match.index))
  )
    return []
  const how = HOW_ENDED[match[1] ?? ''] ?? (match[2] as string)
  const at = match.index + match[0].length
  const as =
    /^\s+as\s+(?:a|an)\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)(?=\s+(?:at|for|with|in|on|yesterday|today|last|this|and|but|so)\b|\s*[,.;!]|\s*$)/.exec(
      view.lower.slice(at),
    )
  const title = as && isActorNoun(as[1] as string) ? (as[1] as string) : null
  const afterTitle = at + (as ? as[0].length : 0)
  const from = /^\s+(?:at|from|with)\s+(?:the\s+(?=\p{Lu}))?/u.exec(view.lower.slice(afterTitle))
  const employer = from ? properNameAt(view.text, afterTitle + from[0].length) : null
  const found = [noneNow('user.job', `${how}${title ? ` as ${title}` : ''}`, title)]
  // The employer goes with the job: named, it is struck by name; unnamed, whichever memory holds (if any) ends.
  found.push(
    employer
      ? noneNow('user.employer', `left ${employer}`, employer)
      : { ...noneNow('user.employer', how, null), endsOnly: true },
  )
  return found
}

// "I don't work at Google anymore", "I no longer work for Acme", "I'm not a nurse anymore": the old one ends.
// "I'm no longer at Stripe" too, or just "no longer at Stripe", unless it names a place ("no longer at Heathrow").
const NO_LONGER_AT =
  /\bi\s+(?:no longer|don't|do not)\s+work\s+(?:at|for)\s+(?:the\s+(?=\p{Lu}))?|(?:\bi(?:'m| am)\s+|^)(no longer) at\s+/u
const NO_LONGER_A =
  /\bi(?:'m| am)\s+(?:no longer\s+(?:a|an)\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)|not\s+(?:a|an)\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)\s+any\s?more)(?=\s*[,.;!]|\s*$|\s+(?:and|but|so|since)\b)/

function workNoLonger(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const at = NO_LONGER_AT.exec(view.lower)
  const named = at ? properNameAt(view.text, at.index + at[0].length) : null
  const employer = named && at?.[1] && nlp(named).has('#Place') ? null : named
  // "I don't work at Google" alone is no change; "anymore" or "no longer" makes it one. "…, I'm at Acme now" names
  // the employer that follows.
  if (at && employer && /\bno longer\b|\bany\s?more\b/.test(view.lower)) {
    const after = at.index + at[0].length + employer.length
    const next = /\b(?:i'm|i am|now)\s+(?:now\s+)?(?:at|with|working at|working for)\s+/.exec(
      view.lower.slice(after),
    )
    const now = next ? properNameAt(view.text, after + next.index + next[0].length) : null
    found.push(
      now
        ? { ...identity('user.employer', 'Works at', now), previous: employer }
        : noneNow('user.employer', `left ${employer}`, employer),
    )
  }
  const role = NO_LONGER_A.exec(view.lower)
  const title = role ? (role[1] ?? role[2] ?? '') : ''
  if (role && isActorNoun(title)) found.push(noneNow('user.job', `no longer ${title}`, title))
  return found
}

// "I run my own bakery", "we opened a café in March", "I love running my own studio": a business the user runs.
// Not "starting my own business" (a plan, or a hope) or "run a business meeting".
const RUNS_BUSINESS =
  /\b(?:i|we)(?:'m|'re| am| are|'ve| have)?\s+(?:(?:now|finally|just|recently|also|still|really)\s+)*(?:(?:love|enjoy|like)\s+)?(?:running|run|own|opened|launched)\s+(?:a|an|my|our)\s+(own\s+)?((?:[a-z-]+\s+)?(?:business|company|studio|shop|store|bakery|restaurant|café|cafe|startup|firm|practice|clinic|salon|agency|gym|bar|farm|biz))(?![\p{L}\p{N}])(?!\s+(?:meeting|plan|idea|trip|class|course)\b)/u

function business(view: SentenceView): Draft | null {
  const match = RUNS_BUSINESS.exec(view.lower)
  if (!match) return null
  const what = `${match[1] ? 'own ' : ''}${match[2] as string}`
  return { ...identity(`user.business.${slugOf(match[2] as string, 3)}`, 'Runs', what), isSingle: false }
}

// "I'm 27 years old", "I turned 40", and a bare "I'm 31" that opens the sentence and ends its clause ("im 31
// lol"), not "I'm 10 minutes away", "I'm 90% sure" or a cover story ("If anyone asks, I'm 35").
const AGE =
  /\bi(?:'m| am)\s+(\d{1,3})\s+years?\s+old\b|\bi(?: just)? turned\s+(\d{1,3})\b|^(?:(?:oh|well|yeah|btw|fyi|also|and|so)[,\s]+)*i(?:'m| am)\s+([1-9]\d)(?=\s*(?:[.!]|$|\s(?:lol|haha|btw|now|and i)\b))/

// "I got an offer from Northline, I'm going to be an operations manager": an offer the user says they will work in.
const OFFER_FROM =
  /\bi\s+(?:(?:just|finally)\s+)?(?:got|accepted|took)\s+(?:an|the|a)\s+(?:job\s+)?offer\s+(?:from|at|with)\s+(?:the\s+(?=\p{Lu}))?/u
const WILL_BE = new RegExp(
  `[,;]\\s+(?:and\\s+)?(?:i'm going to be|i'll be|i will be)\\s+(?:a|an)\\s+${TITLE}${TITLE_END}`,
)

/** The employer and job of an offer the sentence takes up ("…, I'm going to be a…"); none for an offer alone. */
function offerTakenUp(view: SentenceView): Draft[] {
  const offer = OFFER_FROM.exec(view.lower)
  const employer = offer ? properNameAt(view.text, offer.index + offer[0].length) : null
  const role = employer ? WILL_BE.exec(view.lower.slice(offer!.index + offer![0].length)) : null
  if (!employer || !role || !isJobTitle(role[1] as string, view.lower)) return []
  return [
    identity('user.employer', 'Works at', workplace(view.text, employer) ?? employer),
    identity('user.job', 'Job', role[1] as string),
  ]
}

/** Identity facts: name, city, origin, work, age, birthday. */
export function findIdentity(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const introduced = introducedName(view)
  const name =
    nameAfter(
      view,
      /\b(?:my name is|my name's|my names|call me|i'm called|i am called|people call me|everyone calls me|i go by)\s+/,
    ) ?? introduced?.name
  if (name) found.push(identity('user.name', 'Name', name))
  const ended = [...jobEnded(view), ...workNoLonger(view)]
  const work = ended.length > 0 ? ended : [...findWork(view), ...offerTakenUp(view)]
  found.push(...(work.length === 0 && introduced ? appositiveWork(view, introduced.end) : work))
  const city = findCity(view)
  if (city) found.push(city)
  const runs = business(view)
  if (runs) found.push(runs)
  const origin =
    nameAfter(view, /\b(?:i'm|i am)\s+(?:originally\s+)?from\s+/) ?? nameAfter(view, /\bi grew up in\s+/)
  if (origin) found.push(identity('user.origin', 'From', withTheOf(view.text, origin)))
  const age = AGE.exec(view.lower)
  if (age) found.push(identity('user.age', 'Age', (age[1] ?? age[2] ?? age[3]) as string))
  const birthday = /\bmy birthday(?:'s| is)\b/.test(view.lower) ? view.mentions[0] : undefined
  if (birthday && birthday.otherDay === undefined)
    found.push(identity('user.birthday', 'Birthday', birthday.day.slice(5)))
  return found
}

/**
 * "from the States": a one-word name said with "the" that is not a place name of its own keeps it ("the States",
 * "the Lakes"); "the Netherlands" is "Netherlands".
 */
function withTheOf(text: string, name: string): string {
  const said = new RegExp(`\\bthe\\s+${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text)
  return said && !name.includes(' ') && !nlp(name.toLowerCase()).has('#Place') ? `the ${name}` : name
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
