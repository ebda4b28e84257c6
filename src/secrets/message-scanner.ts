// Withholds secrets from a stream of chat messages, oldest first: each message on its own, and the value a message
// brings for a noun the one before it left dangling ("the wifi password is" · "Tr0ub4dor&3").
import { LOCALES } from './configuration.js'
import { detectSecrets, type DetectOptions } from './detect.js'
import type { SecretOrigin } from './marker.js'
import { danglingFinder } from './parsers/phrases.js'
import type { SecretKind, SecretSpan } from './types.js'
import { replaceSpans, type Withheld } from './withhold.js'

/** A message as the scanner needs it: where it was said and what it says. */
export interface ScannedMessage {
  /** Chat jid: dangling nouns wait per chat. */
  chatId: string
  origin: SecretOrigin
  text: string
}

/** A follow-up holds only the value: one token, maybe quoted or in a code fence. */
const LONE_VALUE = /^\s*(?:```\w*\s*|`|["'“«])?([^\s`"'”»]{4,120})(?:`|```|["'”»])?\s*[.!]?\s*$/

/** A follow-up value with no phrase of its own must look chosen, not like a word of reply ("thanks", "ok"). */
const LOOKS_CHOSEN = /\d|[^\p{L}\p{N}]|\p{Lu}.*\p{Ll}.*\p{Lu}/u

/** How many following messages in the chat may bring a dangling noun's value. */
const FOLLOW_UPS = 2

const findDangling = LOCALES.map(danglingFinder)

export class MessageSecretScanner {
  readonly #options: DetectOptions
  readonly #pending = new Map<string, { kind: SecretKind; left: number }>()

  constructor(options: DetectOptions = {}) {
    this.#options = options
  }

  /** The message's text with its secrets withheld. Call in time order within each chat. */
  scan(message: ScannedMessage): Withheld {
    const spans = detectSecrets(message.text, this.#options)
    const pending = this.#pending.get(message.chatId)
    if (pending && spans.length === 0) {
      const follow = this.#followUp(message.text, pending.kind)
      if (follow) {
        this.#pending.delete(message.chatId)
        return replaceSpans(message.text, [follow], message.origin)
      }
      if (--pending.left === 0) this.#pending.delete(message.chatId)
    }
    this.#noteDangling(message)
    return replaceSpans(message.text, spans, message.origin)
  }

  #followUp(text: string, kind: SecretKind): SecretSpan | null {
    const match = LONE_VALUE.exec(text)
    const value = match?.[1]
    if (!match || value === undefined || !LOOKS_CHOSEN.test(value)) return null
    if (this.#options.keepKinds?.includes(kind)) return null
    const start = text.indexOf(value, match.index)
    return { kind, start, end: start + value.length }
  }

  #noteDangling(message: ScannedMessage): void {
    const tail = message.text.slice(-160)
    for (const find of findDangling) {
      const kind = find(tail)
      if (kind) {
        this.#pending.set(message.chatId, { kind, left: FOLLOW_UPS })
        return
      }
    }
  }
}
