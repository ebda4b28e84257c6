// Proper names in a sentence: capitalised word runs ("San Francisco", "Fernwood Labs", "St Mary's Hospital").
import { nlp } from './nlp.js'

const NAME_WORD = /^\p{Lu}[\p{L}\p{M}\p{N}'’.&-]*/u
// Small words that may sit inside a name between two capitalised words.
const CONNECTOR = /^(?:de|da|do|dos|das|del|della|di|du|van|von|der|den|la|le|bin|al|y|of|and|&)\s+/

// Capitalised words that are never a name on their own.
const NOT_NAMES = new Set(
  (
    'I Im Ive Id Ill My Our We You Your He She They It The A An This That These Those And But Or So If ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August ' +
    'September October November December Today Tomorrow Yesterday Tonight Next Last Please Thanks Ok Okay Yes No ' +
    'Hi Hey Hello Also Actually Btw Oh Well Just Still Now Then There Here What When Where Why How Who'
  ).split(' '),
)

/**
 * True for capitalised words that are never names on their own ("Monday", "The", "I'm"). "I'm" and "I’m" alike:
 * the list holds the contractions without their apostrophe ("Im", "Ive").
 */
export function isNeverAName(word: string): boolean {
  return NOT_NAMES.has(word) || NOT_NAMES.has(word.replace(/['’]/g, ''))
}

function trimName(name: string): string {
  return name.replace(/(?:['’]s)?[.,;:!?'’-]*$/u, '')
}

/** The capitalised run that starts at `index` (leading spaces skipped), or null. */
export function properNameAt(text: string, index: number): string | null {
  let rest = text.slice(index).replace(/^\s+/, '')
  const words: string[] = []
  while (rest !== '') {
    const word = NAME_WORD.exec(rest)?.[0]
    if (!word || isNeverAName(word.replace(/[.,'’]+$/, ''))) break
    words.push(word)
    rest = rest.slice(word.length)
    // A name ends at punctuation; only a space (and maybe a connector) joins the next capitalised word.
    if (/[.,;:!?]$/.test(word) && !/^(?:St|Dr|Mr|Mrs|Ms|Jr)\.$/.test(word)) break
    const gap = /^\s+/.exec(rest)?.[0]
    if (!gap) break
    const afterGap = rest.slice(gap.length)
    const connector = CONNECTOR.exec(afterGap)?.[0]
    const next = connector ? afterGap.slice(connector.length) : afterGap
    // Judged as the first word is: "Tom and I." must not take "I." (with its stop) for a name.
    const nextWord = NAME_WORD.exec(next)?.[0]
    if (!nextWord || isNeverAName(nextWord.replace(/[.,'’]+$/, ''))) break
    if (connector) words.push(connector.trim())
    rest = next
  }
  const name = trimName(words.join(' '))
  return name === '' ? null : name
}

/** The capitalised run that ends just before `index` ("Tomas is my brother" → "Tomas"), or null. */
export function properNameBefore(text: string, index: number): string | null {
  const head = text.slice(0, index).replace(/[\s,]+$/, '')
  const match = /((?:\p{Lu}[\p{L}\p{M}'’.-]*\s+)*\p{Lu}[\p{L}\p{M}'’.-]*)$/u.exec(head)
  if (!match) return null
  const words = (match[1] as string).split(/\s+/).filter((word) => !isNeverAName(word))
  const name = trimName(words.join(' '))
  return name === '' ? null : name
}

/** True when compromise reads `name` as a person rather than a place, organisation or plain word. */
export function looksLikePersonName(sentence: string, name: string): boolean {
  const doc = nlp(sentence)
  const people = doc.people().out('array') as string[]
  if (people.some((person) => person.includes(name) || name.includes(trimName(person)))) return true
  // "I'm Sorry", "I'm Happy to help": compromise tags a capitalised word a proper noun, but the word is an adjective.
  if (!name.includes(' ') && nlp(name.toLowerCase()).has('(#Adjective|#Adverb|#Expression)')) return false
  const match = doc.match(name)
  if (!match.found) return false
  // Unfamiliar names ("Priya") get no person tag; capitalisation is the signal, unless it is clearly something else.
  return !match.has('(#Place|#Organization|#Demonym|#Adjective|#Verb|#Date|#Value|#Pronoun|#Expression)')
}

// Words that end like a job but say what someone is like or does for fun ("a visual learner", "a big reader", "a
// genius"), kin, fans and diets ("a vegetarian", "an Arsenal supporter").
const NOT_JOBS =
  /^(?:fan|believer|sucker|user|number|member|stranger|customer|client|patient|visitor|guest|tourist|newcomer|foreigner|lover|partner|other|brother|sister|mother|father|daughter|supporter|follower|learner|beginner|starter|thinker|overthinker|worrier|dreamer|planner|procrastinator|sleeper|napper|eater|drinker|smoker|reader|gamer|runner|walker|swimmer|climber|hiker|biker|skier|surfer|winner|loser|survivor|fighter|introvert|extrovert|ambivert|optimist|pessimist|realist|idealist|perfectionist|minimalist|genius|vegetarian|vegan|pescatarian|humanitarian|christian|person|foodie|newbie|morning|night|owl)$/i

/** True when compromise tags the last word of `phrase` as a role noun (engineer, designer, teacher…). */
export function isActorNoun(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/)
  const last = words.at(-1) ?? ''
  if (NOT_JOBS.test(last)) return false
  if (
    /(?:er|or|ist|ian|ant|ent|nurse|chef|doctor|lawyer|teacher|student|architect|lead|ceo|cto|cfo|vp|\bdev|barista|nanny|midwife|paramedic|pilot|clerk|mechanic|surgeon)$/i.test(
      last,
    )
  )
    return true
  return nlp(phrase).match('#Actor$').found
}

/** The last capitalised run in `text` that compromise reads as a person ("Jonas says hi btw." → "Jonas"). */
export function lastPersonNamed(text: string): string | null {
  const names: string[] = []
  let from = 0
  for (const match of text.matchAll(/(?<![\p{L}\p{M}'’])\p{Lu}/gu)) {
    const start = match.index ?? 0
    if (start < from) continue
    const name = properNameAt(text, start)
    if (!name) continue
    names.push(name)
    from = start + name.length
  }
  return names.reverse().find((name) => looksLikePersonName(text, name)) ?? null
}
