// The tools' side of "secrets never enter notes": what a note write withholds, what a call's record may keep,
// and the secrets this turn's message pages showed the model, so a value it copies is withheld wherever it lands.
import { withheldMarker, type SecretOrigin } from '../secrets/marker.js'
import { MessageSecretScanner } from '../secrets/message-scanner.js'
import { detectSecrets } from '../secrets/detect.js'
import type { SecretKind, SecretSpan } from '../secrets/types.js'
import { replaceSpans, type Withheld } from '../secrets/withhold.js'
import { localDayOf } from '../time/local-day.js'
import { flatPageMessages } from './message-json.js'

interface SeenSecret {
  kind: SecretKind
  origin: SecretOrigin
}

interface PageMessage {
  id?: unknown
  chat?: unknown
  chat_name?: unknown
  ts?: unknown
  content?: unknown
}

/**
 * Shortest seen value looked for in a note on its own: a PIN's 4 digits would match prices and years there. Records
 * look for any seen value (4+ characters, as a whole token), since what they over-redact is no one's memory.
 */
const NOTE_MIN_KNOWN_CHARS = 6
const RECORD_MIN_KNOWN_CHARS = 4

/** The secrets one turn has seen: in message pages it served, and in notes it was asked to write. */
export class SecretGuard {
  readonly #keepKinds: readonly SecretKind[]
  readonly #timeZone: string
  readonly #scanner: MessageSecretScanner
  readonly #seen = new Map<string, SeenSecret>()
  /** Pages not read yet: a page handed on to an engine's thread undecoded is that engine's to withhold. */
  readonly #unread: { readonly content: string }[] = []

  constructor(keepKinds: readonly SecretKind[], timeZone: string) {
    this.#keepKinds = keepKinds
    this.#timeZone = timeZone
    this.#scanner = new MessageSecretScanner({ keepKinds })
  }

  /**
   * Will learn the secrets of a get_messages / search_messages result when a write or a record needs them: read
   * then, so a page passed on to another thread as bytes is never decoded here.
   */
  notePageResult(result: { readonly content: string }): void {
    this.#unread.push(result)
  }

  #readPages(): void {
    for (const result of this.#unread.splice(0)) {
      let json: string
      try {
        json = result.content
      } catch {
        continue // handed to another thread: that engine withholds it (model/offline/gather.ts)
      }
      this.notePage(json)
    }
  }

  /** Learns the secrets of a get_messages / search_messages page (JSON), each with the message it came from. */
  notePage(json: string): void {
    let messages: PageMessage[]
    try {
      messages = flatPageMessages(JSON.parse(json))
    } catch {
      return // not a page (a refusal's text): nothing to learn
    }
    for (const message of messages) {
      const text = typeof message.content === 'string' ? message.content : ''
      const ts = typeof message.ts === 'string' ? message.ts : ''
      const chat = typeof message.chat === 'string' ? message.chat : ''
      if (text === '' || Number.isNaN(Date.parse(ts))) continue
      const origin: SecretOrigin = {
        chat: typeof message.chat_name === 'string' && message.chat_name !== '' ? message.chat_name : chat,
        day: localDayOf(new Date(ts), this.#timeZone),
        messageId: typeof message.id === 'string' ? message.id : '',
      }
      const found = this.#scanner.scan({ chatId: chat, origin, text })
      for (const span of found.spans) this.#remember(text.slice(span.start, span.end), span.kind, origin)
    }
  }

  #remember(value: string, kind: SecretKind, origin: SecretOrigin): void {
    if (value.length >= RECORD_MIN_KNOWN_CHARS && !this.#seen.has(value))
      this.#seen.set(value, { kind, origin })
  }

  /** `content` as a note may hold it: every secret found or seen replaced by its marker (with its message). */
  withholdForNote(content: string): Withheld {
    this.#readPages()
    const spans = this.#spansIn(content, NOTE_MIN_KNOWN_CHARS)
    if (spans.length === 0) return { text: content, kinds: [], spans }
    let out = ''
    let at = 0
    for (const span of spans) {
      const seen = this.#seen.get(content.slice(span.start, span.end))
      out += content.slice(at, span.start) + withheldMarker(span.kind, seen?.origin)
      at = span.end
    }
    return { text: out + content.slice(at), kinds: spans.map((span) => span.kind), spans }
  }

  /** `text` as a run record may keep it: every secret replaced by its bare marker. */
  redactForRecord(text: string): string {
    return replaceSpans(text, this.#spansIn(text, RECORD_MIN_KNOWN_CHARS)).text
  }

  /**
   * `value` (a transcript) with every string in it redacted for the record, pages still unread read first. A call's
   * record is redacted with `redactDeep` as it is made, before its page may be handed on to another thread.
   */
  redactTranscript<T>(value: T): T {
    this.#readPages()
    return this.redactDeep(value)
  }

  /** `value` (a call's input) with every string in it redacted for the record. */
  redactDeep<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return this.redactForRecord(value) as T
    if (value === null || typeof value !== 'object' || depth > 6) return value
    if (Array.isArray(value)) return value.map((item: unknown) => this.redactDeep(item, depth + 1)) as T
    const entries = Object.entries(value).map(([key, item]) => [key, this.redactDeep(item, depth + 1)])
    return Object.fromEntries(entries) as T
  }

  /** Spans of detected secrets and of seen values, in order, none overlapping (a detected one wins). */
  #spansIn(text: string, minKnownChars: number): SecretSpan[] {
    const spans = detectSecrets(text, { keepKinds: this.#keepKinds })
    for (const [value, seen] of this.#seen) {
      if (value.length < minKnownChars) continue
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
        const end = at + value.length
        if (!isWholeToken(text, at, end) || spans.some((span) => at < span.end && end > span.start)) continue
        spans.push({ kind: seen.kind, start: at, end })
      }
    }
    return spans.sort((a, b) => a.start - b.start)
  }
}

/** One line for the model: what its write lost and why, so it does not try to put the values back. */
export function withheldNotice(kinds: readonly SecretKind[]): string {
  if (kinds.length === 0) return ''
  const names = [...new Set(kinds)].join(', ')
  return (
    `; withheld ${kinds.length} secret(s) (${names}): notes keep that a secret was said and where, never its ` +
    'value (the user finds it in their chat history). Do not write secret values into notes.'
  )
}

/** A seen value counts where it stands alone, not inside a longer word or number. */
function isWholeToken(text: string, start: number, end: number): boolean {
  const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char)
  return !isWordChar(text[start - 1]) && !isWordChar(text[end])
}
