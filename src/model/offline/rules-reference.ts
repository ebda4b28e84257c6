// Rules for reference.md: stable identifiers the user gives (addresses, account numbers, network names).
// They run per line, not per sentence: "new address: Rua X 212, 3º Esq., Porto" must not be cut at "Esq.".
import type { Draft } from './types.js'
import { slugOf } from './text.js'

const THINGS =
  'email address|phone number|license plate|number plate|post code|zip code|user name|wi-fi|wifi|' +
  'number|no\\.|id|code|address|username|handle|email|e-mail|phone|mobile|account|iban|policy|reference|ref|' +
  'booking|confirmation|plate|network|ssid|postcode|zip|locker|extension|room|seat|gate|desk|flat|apartment|unit'
// "my frequent flyer number is …", "our wifi network is called …", "the door code is …".
const STATED = new RegExp(
  `\\b(my|our|the|his|her|their|new(?<=(?:^|[,.;!]\\s*)new))\\s+((?:[a-z][a-z'-]*\\s+){0,3}?)(${THINGS})\\s*(?:is called|is named|is|=|:|'s)\\s+`,
)
// "new address for all the forms: Rua de Cedofeita 212 …".
const LABELLED = new RegExp(`\\b((?:[a-z][a-z'-]*\\s+){0,2}?)(${THINGS})\\b[^:\\n]{0,40}:\\s+(?=\\S)`)
const QUOTING = /\b(?:said|says|wrote|writes|reads|read|asked|asks|told|tells|replied|replies)\b/
// An identifier: a long digit run, or letters and digits joined by dashes ("TW-123456-PT").
const IDENTIFIER =
  /(?<![\w-])(\+?\d[\d ]{4,}\d|[A-Z]{1,5}-?\d{3,}(?:-[A-Z0-9]+)*|\d{3,}-\d{2,}(?:-\d+)*)(?![\w-])/
const THING_WORD = new RegExp(`\\b((?:[a-z][a-z'-]*\\s+)?)(${THINGS})\\b`)
// Things that name places or codes shared by a household; "the" alone would catch "the room is cold".
const SHARED_THINGS =
  /\b(?:wifi|wi-fi|network|ssid|door|gate|alarm|building|booking|confirmation|account|address|reference)\b/
const SECRET = /\b(?:password|passcode|passphrase|pin|pwd|secret|cvv|cvc|security code|one-time code|otp)\b/
const DROP_WORDS =
  /\b(?:new|old|current|updated|actual|correct|real|my|our|his|her|their|the|a|an|this|that)\b/g

// "staging is up at harbor-staging.example.com", "our wiki is at https://wiki.example.org": where a thing lives.
const SITE_AT = new RegExp(
  '\\b(?:the|our|my)?\\s*(?!(?:he|she|it|they|this|that|everyone|everybody|everything|someone|who|which)\\b)' +
    '([A-Za-z][\\w-]*(?: [A-Za-z][\\w-]*)?) (?:is|are) (?:now )?(?:(?:up|live|running|hosted|deployed|available) )?(?:at|on) ' +
    '(https?:\\/\\/[^\\s<>()]+[^\\s<>().,;:!?]|(?:[a-z0-9-]+\\.)+(?:com|org|net|io|dev|app|co|ai|me|info|internal|local|lan|cloud|site|tech|' +
    // Two-letter country domains, but not the file names they look like ("main.py", "app.ts").
    '(?!py|js|ts|md|sh|rb|go|rs|cc|cs|kt|pl|db|gz|7z|h\\b|c\\b)[a-z]{2})(?:\\/[^\\s<>()]*[^\\s<>().,;:!?])?)(?![\\w.-]*\\w)',
  'i',
)

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

function referenceDraft(thing: string, value: string): Draft {
  const label = thing.replace(DROP_WORDS, ' ').replace(/\s+/g, ' ').trim()
  return {
    kind: 'reference',
    file: 'reference.md',
    section: 'Reference',
    key: `ref.${slugOf(label, 4)}`,
    value,
    isSingle: true,
    headline: `${capitalize(label)}: ${value}`,
  }
}

// A stop that ends the value, not one of a street's abbreviations ("ul. Marszałkowska 10", "Av. da Liberdade 5",
// "Str. 12").
const SENTENCE_STOP = /(?<!\b(?:ul|al|pl|os|str|ave?|rd|st|blvd|apt|esq|nr|no|dr|bldg|fl|r|c))\.(?:\s|$)/i

/** The rest of the line after `at`, as a value: trailing punctuation and small talk cut off. */
function valueFrom(line: string, at: number, isWholeLine: boolean): string {
  const rest =
    line.slice(at).split(/\s+(?:btw|by the way|lol|haha|if you need it|just so you know)\b|[!?]/i)[0] ?? ''
  const value = isWholeLine ? rest : (rest.split(SENTENCE_STOP)[0] ?? '')
  return value.replace(/[\s.,;:]+$/, '').slice(0, 120)
}

// "my first booking is on November 28", "my flight is at 6": when and where a thing is, not what identifies it.
const WHEN_OR_WHERE =
  /^(?:on|at|in|for|from|by|until|till|next|this|tomorrow|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i
// A real identifier has a digit, a capital or an @ in it: "my phone is dead" is not one.
const isIdentifierLike = (value: string): boolean =>
  value.length >= 2 && /[\d@]|\p{Lu}/u.test(value) && !WHEN_OR_WHERE.test(value)

/** Reference facts in one line of a user message; secrets (passwords, PINs) are never kept. */
export function findReferences(line: string, lower: string): Draft[] {
  const stated = STATED.exec(lower)
  if (stated) {
    const thing = `${stated[2] ?? ''}${stated[3]}`.trim()
    const value = valueFrom(line, stated.index + stated[0].length, false)
    const isShared = stated[1] !== 'the' || SHARED_THINGS.test(thing)
    if (!SECRET.test(thing) && isShared && isIdentifierLike(value)) return [referenceDraft(thing, value)]
  }
  const labelled = LABELLED.exec(lower)
  // 'The email said: "Dear Sam, …"' quotes a message; a label names the thing right before its colon.
  if (
    labelled &&
    !QUOTING.test(labelled[0]) &&
    !/^["'“‘]/.test(line.slice(labelled.index + labelled[0].length))
  ) {
    const thing = `${labelled[1] ?? ''}${labelled[2]}`.trim()
    const value = valueFrom(line, labelled.index + labelled[0].length, true)
    if (!SECRET.test(lower) && isIdentifierLike(value) && /\d/.test(value))
      return [referenceDraft(thing, value)]
  }
  // The full pattern is costly on every line with a digit: only lines with a web address and an "is" try it.
  const site =
    / (?:is|are) /i.test(line) && /:\/\/|[a-z0-9-]\.[a-z]{2,}/i.test(line) ? SITE_AT.exec(line) : null
  if (site && !SECRET.test(lower))
    return [referenceDraft((site[1] as string).toLowerCase(), site[2] as string)]
  const address = /\b(?:i|we)\s+(?:now\s+|still\s+)?live at\s+/.exec(lower)
  if (address) {
    const value = valueFrom(line, address.index + address[0].length, false)
    if (/\d/.test(value)) return [referenceDraft('address', value)]
  }
  // "her microchip number, so you have it: 620098100734215": an identifier with a thing named nearby.
  const identifier = IDENTIFIER.exec(line)
  const thing = THING_WORD.exec(lower)
  const isDate = identifier !== null && /^\d{4}-\d{2}-\d{2}$|^\d{1,2}:\d{2}$/.test(identifier[1] as string)
  if (identifier && thing && !isDate && !SECRET.test(lower)) {
    return [referenceDraft(`${thing[1] ?? ''}${thing[2]}`.trim(), identifier[1] as string)]
  }
  return []
}

/** The text with anything secret-looking replaced, so it never reaches a memory file. */
export function redactSecrets(text: string): string {
  return text.replace(
    /\b(password|passcode|passphrase|pin|pwd|cvv|cvc|security code|otp)(\s*(?:is|:|=|'s)\s*)(\S+)/gi,
    '$1$2[redacted]',
  )
}
