// Rules for reference.md: stable identifiers the user gives (addresses, account numbers, network names).
import type { Draft, SentenceView } from './types.js'
import { slugOf } from './text.js'

const THINGS =
  'email address|phone number|license plate|number plate|post code|zip code|user name|wi-fi|wifi|' +
  'number|no\\.|id|code|address|username|handle|email|e-mail|phone|mobile|account|iban|policy|reference|ref|' +
  'booking|confirmation|plate|network|ssid|postcode|zip|locker|extension|room|seat|gate|desk|flat|apartment|unit'
// "my frequent flyer number is …", "our wifi network is called …", "the door code is …".
const REFERENCE = new RegExp(
  `\\b(my|our|the)\\s+((?:[a-z][a-z'-]*\\s+){0,3}?)(${THINGS})\\s*(?:is called|is named|is|=|:|'s)\\s+`,
)
// Things that name places or codes shared by a household; "the" alone would catch "the room is cold".
const SHARED_THINGS = /\b(?:wifi|wi-fi|network|ssid|door|gate|alarm|building|booking|confirmation|account|address|reference)\b/
const SECRET = /\b(?:password|passcode|passphrase|pin|pwd|secret|cvv|cvc|security code|one-time code|otp)\b/
const DROP_WORDS = /\b(?:new|old|current|updated|actual|correct|real)\b/g

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

/** The rest of the sentence after `at`, as a value: trailing punctuation and small talk cut off. */
function valueFrom(text: string, at: number): string {
  return text
    .slice(at)
    .split(/\s+(?:btw|by the way|lol|haha|if you need it|just so you know)\b|[!?]|\.\s|\.$/i)[0]!
    .replace(/[\s.,;:]+$/, '')
    .slice(0, 120)
}

/** Reference facts; secrets (passwords, PINs) are never kept — the sentence is dropped instead. */
export function findReferences(view: SentenceView): Draft[] {
  const found: Draft[] = []
  const match = REFERENCE.exec(view.lower)
  if (match) {
    const thing = `${match[2] ?? ''}${match[3]}`.trim()
    const value = valueFrom(view.text, match.index + match[0].length)
    const isShared = match[1] !== 'the' || SHARED_THINGS.test(thing)
    // A real identifier has a digit, a capital or an @ in it: "my phone is dead" is not one.
    const isIdentifier = /[\d@]|\p{Lu}/u.test(value)
    if (!SECRET.test(thing) && isShared && isIdentifier && value.length >= 2) found.push(referenceDraft(thing, value))
  }
  const address = /\b(?:i|we)\s+(?:now\s+|still\s+)?live at\s+/.exec(view.lower)
  if (address) {
    const value = valueFrom(view.text, address.index + address[0].length)
    if (/\d/.test(value)) found.push(referenceDraft('address', value))
  }
  return found
}

/** The sentence with anything secret-looking replaced, so it never reaches a memory file. */
export function redactSecrets(text: string): string {
  return text.replace(
    /\b(password|passcode|passphrase|pin|pwd|cvv|cvc|security code|otp)(\s*(?:is|:|=|'s)\s*)(\S+)/gi,
    '$1$2[redacted]',
  )
}
