// Rules for the user's stable preferences: likes and dislikes, diet, favourites, scheduling habits.
import { nlp } from './nlp.js'
import type { Draft, SentenceView } from './types.js'
import { contentWords, lastSentenceOf, slugOf } from './text.js'

const ADVERBS =
  'really|much|strongly|definitely|usually|always|generally|totally|absolutely|still|also|just|mostly|only|actually|' +
  "genuinely|kinda|do|don't|do not|never|can't|cannot|would|'d|typically|normally|honestly|seriously|tend to"
const VERBS = 'prefer|like|love|enjoy|adore|hate|dislike|loathe|detest|stand|avoid|eat|drink|rather|take'
const PREFERENCE = new RegExp(`\\b(?:i|we)((?:\\s*(?:${ADVERBS}))*)\\s+(${VERBS})\\b`)

// Objects that make "I like it" small talk or a reaction, not a preference.
const EMPTY_OBJECT =
  /^\s+(?:it|that|this|them|those|these|you|your|to (?:know|hear|think|see|ask|say|help|try|check|get)|how|what|when you|the idea|the way you|a lot)\b|^\s*[.!,]*\s*$/

// "I love the thought", "I love the vibe": a reaction to what was just said, not a standing preference.
const REACTION_OBJECT =
  /^\s+(?:the\s+)?(?:thought|idea|vibe|energy|sound|feeling|way|look|pic|photo|picture|story|attitude|spirit)s?\b/

// Diets one keeps or gives up; being lactose intolerant is not given up, so it is only a diet held.
const DIET_NAMES = 'vegetarian|vegan|pescatarian|keto|gluten[- ]free|dairy[- ]free|teetotal|sober'
const DIETS = new RegExp(
  "\\b(?:i'm|i am|we're|we are|(?:i|we)(?:'ve| have) been|(?:i|we)(?:'ve| have)? (?:become|became|gone|went))\\s+" +
    `(?:(?:now|still|also|strictly|mostly|fully|basically|a)\\s+)*(${DIET_NAMES}|lactose[- ]intolerant)\\b` +
    // "started eating fish again, so pescatarian now": the "I'm" left out.
    // "vegetarian again, I missed cheese": a diet gone back to.
    `|(?:^|,\\s*|\\bso\\s+)(?:(?:basically|officially|a)\\s+)?(${DIET_NAMES})\\s+(?:now|again)\\b`,
)

// "I'm allergic to peanuts and shellfish", "I have a severe cat allergy": the user's own allergy, never someone else's.
const ALLERGIC_TO =
  /\bi(?:'m| am)\s+(?:(?:also|very|severely|super|really|deathly|mildly|slightly|a bit|a little)\s+)*allergic to\s+((?:[a-z'-]+)(?:(?:,\s*|\s+(?:and|or)\s+|\s+)[a-z'-]+){0,4}?)(?=\s*[,.;:!)]|\s+(?:so|but|which|since|because|too|as well|though)\b|\s+and\s+(?:my|our|his|her|their|i|i'm|we|he|she|they)\b|\s*$)/
// "my only allergy is shellfish", "my allergies are dust and pollen".
const MY_ALLERGY =
  /\bmy\s+(?:(?:only|one|main|worst|biggest|food)\s+)*allerg(?:y|ies)\s+(?:is|are)\s+((?:[a-z'-]+)(?:(?:,\s*|\s+(?:and|or)\s+|\s+)[a-z'-]+){0,4}?)(?=\s*[,.;:!)]|\s+(?:so|but|which|since|because|too|as well|though)\b|\s*$)/
const HAS_ALLERGY =
  /\bi(?:'ve got| have got| have| got)\s+(?:a|an)\s+(?:(?:severe|mild|bad|serious|slight|deadly|nasty)\s+)?((?:[a-z'-]+\s+){1,2}?)allergy\b/

const NOT_AN_ALLERGEN = /^(?:it|that|this|them|something|everything|anything|nothing|you)\b/

// "I'm not allergic to penicillin after all", "I'm no longer allergic to cats", "I've outgrown my egg allergy": the
// held allergy ends. Not a doubt ("if I'm not allergic…", "hopefully I'm not allergic").
const NOT_ALLERGIC =
  /\bi(?:'m| am)\s+(?:not|no longer)\s+allergic to\s+([a-z'-]+(?:\s+[a-z'-]+)?)(?=\s*[,.;:!)]|\s+(?:after all|any\s?more|now|either|at all)\b|\s*$)|\bi(?:'ve| have)?\s+outgr(?:own|ew)\s+my\s+([a-z'-]+(?:\s+[a-z'-]+)?)\s+allergy\b/
const DOUBT = /\b(?:if|unless|whether|hope|hopefully|maybe|might|not sure|think|guess)\b/

/** An allergy the user no longer has, ending the one memory holds under that key (and writing nothing else). */
function allergyEnded(view: SentenceView): Draft | null {
  const match = NOT_ALLERGIC.exec(view.lower)
  const what = (match?.[1] ?? match?.[2])?.trim()
  if (!match || !what || DOUBT.test(view.lower.slice(0, match.index)) || NOT_AN_ALLERGEN.test(what))
    return null
  return {
    ...preference(`user.allergy.${slugOf(what, 3)}`, `Allergy: ${what} (no longer)`, what, false),
    endsOnly: true,
  }
}

function allergy(view: SentenceView): Draft | null {
  // "my allergy is acting up" says how it is, not what it is to: after "is", an allergen is a noun.
  const mine = MY_ALLERGY.exec(view.lower)
  const isAllergen = mine !== null && nlp(mine[1] ?? '').has('^#Noun')
  const match = ALLERGIC_TO.exec(view.lower) ?? (isAllergen ? mine : null) ?? HAS_ALLERGY.exec(view.lower)
  const what = match?.[1]?.trim()
  if (!match || !what || NOT_AN_ALLERGEN.test(what)) return null
  // "allergic to Mondays lol" is a joke: allergens are common nouns, and a laugh takes the claim back.
  const cased = view.text.slice(match.index, match.index + match[0].length)
  if (
    /\p{Lu}/u.test(cased.slice(cased.toLowerCase().lastIndexOf(what))) ||
    /\b(?:lol|haha|lmao|jk)\b/.test(view.lower)
  )
    return null
  return preference(`user.allergy.${slugOf(what, 3)}`, `Allergy: ${what}`, what, false)
}

// "I'm no longer vegetarian", "not vegan anymore": the diet ends ("I'm not vegan" alone never had one).
// "I've given up on being vegan", "I quit keto" too.
const DIET_ENDED = new RegExp(
  `\\b(?:i'm|i am|we're|we are)\\s+(?:no longer\\s+(?:a\\s+)?(${DIET_NAMES})|not\\s+(?:a\\s+)?(${DIET_NAMES})\\s+any\\s?more)\\b` +
    `|\\b(?:i|we)(?:'ve| have)?\\s+(?:finally\\s+|just\\s+)?(?:given up|gave up|quit|stopped)\\s+(?:on\\s+)?(?:being\\s+)?(?:a\\s+)?(${DIET_NAMES})\\b`,
)

function preference(key: string, headline: string | null, value: string, isSingle: boolean): Draft {
  return { kind: 'preference', file: 'user.md', section: 'Preferences', key, value, isSingle, headline }
}

function likesAndDislikes(view: SentenceView): Draft | null {
  const match = PREFERENCE.exec(view.lower)
  if (!match) return null
  const adverbs = match[1] ?? ''
  const verb = match[2] as string
  const after = view.lower.slice(match.index + match[0].length)
  if (EMPTY_OBJECT.test(after)) return null
  // "I'd like a refund" and "would love to" are requests or wishes; "I'd rather" and "I'd prefer" are preferences.
  if (/would|'d/.test(adverbs) && verb !== 'rather' && verb !== 'prefer') return null
  if (verb === 'stand' && !/\b(?:can't|cannot)\b/.test(adverbs)) return null
  if (
    (verb === 'eat' || verb === 'drink') &&
    !/\b(?:usually|always|never|only|don't|do not|mostly|typically)\b/.test(adverbs)
  ) {
    return null
  }
  if (verb === 'take' && !/^\s+my\s+(?:coffee|tea)\b/.test(after)) return null
  if (verb === 'rather' && !/would|'d/.test(adverbs)) return null
  // Precision first: the user's own statement ("I love…" opening the sentence), about a thing named in at
  // least two content words, and not a reaction to the other person ("I love the thought, Nate!").
  const opening = view.lower
    .slice(0, match.index)
    .replace(/^(?:(?:oh|and|but|so|also|yeah|honestly|btw|tbh|tbf|ngl)[,\s]+)*/, '')
  const object = objectOf(after)
  if (opening.trim() !== '' || /\b(?:you|your|you're|that|this|it)\b/.test(object)) return null
  if (contentWords(after).length < 1 || REACTION_OBJECT.test(after)) return null
  // "I love the color and texture" answers a photo; "I love the jokes of Iron Man" names what it is about.
  const casedObject = view.text.slice(match.index + match[0].length).slice(0, object.length)
  if (/^\s+the\b/.test(object) && !/\s\p{Lu}/u.test(casedObject)) return null
  const statement = view.lower.slice(match.index)
  // The key keeps a negation: "I don't love horror films" and "I love horror films" are two facts, not one.
  const isDenied =
    /\b(?:don't|do not|never)\b/.test(adverbs) && !/^(?:hate|dislike|loathe|detest|avoid)$/.test(verb)
  return preference(`user.pref.${isDenied ? 'not-' : ''}${slugOf(statement)}`, null, statement, false)
}

/**
 * What a liking is about: the words after the verb up to the clause's end. "I don't like Java at all, never want
 * to use it again" is about Java; the "it" of the next clause points back at it, not at something the other
 * person said.
 */
function objectOf(after: string): string {
  return after.split(/[,;:.!?—–]|\s(?:because|since|but|so|and then|when|as)\s/, 1)[0] ?? ''
}

// "no meetings before 10", "I never take calls after 6pm".
function schedulingHabit(view: SentenceView): Draft | null {
  const rule =
    /(?:^|[:;,.—–-]\s*|\b(?:and|also|oh|btw|so|just|reminder|fyi|remember)\s+)no\s+[a-z-]+(?:\s+[a-z-]+)?\s+(?:before|after|on|during|at|past)\s+(?=\d|noon|midnight|lunch|dinner|morning|evening|night|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\S/.exec(
      view.lower,
    ) ??
    /\bi\s+(?:don't|do not|never|won't|can't)\s+(?:do|take|schedule|book|accept|have|join)\s+[a-z-]+\s+(?:before|after|on|during)\s+\S/.exec(
      view.lower,
    )
  if (!rule) return null
  const statement = view.lower.slice(rule.index).replace(/^[:;,.—–\s-]+/, '')
  return preference(`user.pref.${slugOf(statement)}`, null, statement, false)
}

// "vegan for January", "gave up coffee for Lent", "for a week", "for now": a diet for a while is no standing one.
const FOR_A_WHILE =
  /\bfor\s+(?:(?:a|an|one|two|three|four|\d+|a few|a couple of)\s+(?:days?|weeks?|months?)|a while|now|lent|ramadan|(?:dry\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december))\b|\buntil\b/

// "I stopped eating meat", "I gave up coffee", "I no longer drink".
function dietChange(view: SentenceView): Draft | null {
  const match =
    /\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:recently|just|finally|mostly|completely)\s+)?(?:stopped|quit|gave up|given up|cut out|no longer|don't|do not|never)\s+(?:eating|drinking|eat|drink)\b/.exec(
      view.lower,
    ) ??
    /\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:recently|just|finally)\s+)?(?:gave up|given up|quit|cut out)\s+(?:meat|dairy|sugar|coffee|alcohol|caffeine|gluten|booze|drinking|smoking)\b/.exec(
      view.lower,
    )
  if (!match || FOR_A_WHILE.test(view.lower)) return null
  const statement = view.lower.slice(match.index)
  // Keyed by what was given up, so the key reads as the fact: user.diet.no-meat, "Diet: no meat".
  const given = /(?:eating|drinking|eat|drink|gave up|given up|quit|cut out)\s+(?:any\s+)?([a-z]+)/.exec(
    statement,
  )?.[1]
  if (given === undefined || /^(?:and|or|the|a|an|it|that|this|so|now|anymore|any)$/.test(given)) {
    return preference(`user.pref.${slugOf(statement)}`, null, statement, false)
  }
  return preference(`user.diet.no-${given}`, `Diet: no ${given}`, statement, false)
}

// "found a café that does an oat flat white. that's my order everywhere": the preference is the sentence before.
function pointedPreference(view: SentenceView): Draft | null {
  const match =
    /^(?:(?:and|so|btw|also)[,]?\s+)?(?:that's|that is|this is|it's|those are|these are)\s+(?:\w+\s+)?(?:my|our)\s+(?:usual\s+|go-to\s+|regular\s+|standard\s+|favou?rite\s+|default\s+)?(?:order|drink|coffee|tea|usual|go-to|thing|jam|style|spot|place|pick)\b/.exec(
      view.lower,
    )
  const previous = lastSentenceOf(view.context)
  // The sentence pointed at must be the user's own news ("found a café that…"), not a remark ("it sounds…").
  if (!match || previous === '' || /^(?:it|that|this|there)\b/i.test(previous) || /\byou\b/i.test(previous))
    return null
  const statement = `${previous} ${view.lower}`
  // Keyed by what it is ("my order" → user.pref.usual-order), not by the first words of the sentence.
  const thing =
    /\b(?:my|our)\s+(?:usual\s+|go-to\s+|regular\s+|standard\s+|favou?rite\s+|default\s+)?([a-z-]+)\s*$/.exec(
      match[0],
    )?.[1] as string
  const named = ['usual', 'go-to', 'thing', 'pick'].includes(thing) ? 'choice' : thing
  return {
    ...preference(`user.pref.usual-${named}`, `Usual ${named}`, statement, false),
    text: `${previous} ${view.text}`,
  }
}

/** Preferences, most specific first: diet, favourites, habits, then likes and dislikes. */
export function findPreferences(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const diet = DIETS.exec(view.lower)
  const dietEnded = DIET_ENDED.exec(view.lower)
  if (dietEnded) {
    const was = (dietEnded[1] ?? dietEnded[2] ?? dietEnded[3]) as string
    found.push({ ...preference('user.diet', `Diet: no longer ${was}`, 'none', true), previous: was })
  } else if (diet && !FOR_A_WHILE.test(view.lower))
    found.push(preference('user.diet', `Diet: ${diet[1] ?? diet[2]}`, (diet[1] ?? diet[2]) as string, true))
  // "My preferred language is Python": a standing choice, kept as a favourite is.
  const favourite =
    /\bmy (?:all[- ]time\s+)?(favou?rite|preferred)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:is|are)\s+(.+?)[.!]*$/.exec(
      view.lower,
    )
  // "My favourite film is not Titanic" names none.
  if (favourite && !/^(?:not|no longer|no)\b/.test(favourite[3] as string)) {
    // The match runs to the end of the sentence, so the value's place in the original text is known.
    const length = (favourite[3] as string).length
    const end = view.text.length - (/[.!]*$/.exec(favourite[0])?.[0].length ?? 0)
    const value = view.text.slice(end - length, end)
    const thing = favourite[2] as string
    const kind = favourite[1] === 'preferred' ? 'preferred' : 'favourite'
    const label = `${kind === 'preferred' ? 'Preferred' : 'Favourite'} ${thing}: ${value}`
    found.push(preference(`user.${kind}.${slugOf(thing, 3)}`, label, value, true))
  }
  // "Harry Potter is my favorite book": the name comes first.
  const named =
    /^(?:(?:oh|yes|yeah|well|definitely|honestly)[,!\s]+)*(.+?)\s+(?:is|are)\s+(?:still\s+)?my\s+(?:all[- ]time\s+)?favou?rite\s+([a-z]+(?:\s+[a-z]+)?)\s*[.!]*$/.exec(
      view.lower,
    )
  const namedValue = named
    ? view.text
        .slice(named.index + named[0].indexOf(named[1] as string))
        .slice(0, (named[1] as string).length)
    : ''
  if (
    !favourite &&
    named &&
    /^\p{Lu}/u.test(namedValue) &&
    !/^(?:it|that|this|he|she|they|there|which)\b/.test(named[1] as string)
  ) {
    const thing = named[2] as string
    found.push(
      preference(`user.favourite.${slugOf(thing, 3)}`, `Favourite ${thing}: ${namedValue}`, namedValue, true),
    )
  }
  const chronotype = /\bi'm (?:a|an|not a) (?:morning person|night owl|early bird|early riser)\b/.exec(
    view.lower,
  )
  if (chronotype) found.push(preference(`user.pref.${slugOf(chronotype[0])}`, null, chronotype[0], false))
  for (const rule of [allergyEnded, allergy, schedulingHabit, dietChange, pointedPreference]) {
    const draft = rule(view)
    if (draft) found.push(draft)
  }
  if (found.length === 0) {
    const liking = likesAndDislikes(view)
    if (liking) found.push(liking)
  }
  return found
}
