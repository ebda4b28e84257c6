// What a dream must not see, as plain data (it crosses to reader and seeding threads): excluded chats, private
// stretches of chats, and what the user asked to forget.
import { compileForgetMatcher, type ForgetMatcher } from './forget-match.js'
import { redactPieces } from './redact.js'

/** A stretch of one chat kept out of memory (`/private on` … `/private off`); `until` null while it lasts. */
export interface PrivateSpan {
  chatJid: string
  /** ISO UTC, inclusive. */
  from: string
  /** ISO UTC, exclusive; null: still private. */
  until: string | null
}

export interface PrivacyRules {
  /** Chat jids or glob patterns (`*`, `?`) from `memory.excludeChats`. */
  excludeChats: readonly string[]
  privateSpans: readonly PrivateSpan[]
  /** Phrases under a tombstone (forgotten on request). */
  forgotten: readonly string[]
  /** Secrets are withheld from the messages read (db/window-secrets.ts), these kinds kept. @default not withheld */
  secrets?: { keepKinds: readonly string[]; timeZone: string }
}

export const NO_PRIVACY: PrivacyRules = { excludeChats: [], privateSpans: [], forgotten: [] }

/** The fields of a message the rules look at. */
export interface MessageFacts {
  chatJid: string
  /** The session tree's root (the chat itself unless it is a branch). */
  rootJid?: string
  timestamp: string
  content: string
}

/** PrivacyRules made ready to test many messages. */
export interface PrivacyFilter {
  readonly isEmpty: boolean
  readonly forgotten: ForgetMatcher
  /** True when the whole chat is kept out (by `memory.excludeChats`). */
  isChatExcluded(chatJid: string, rootJid?: string): boolean
  /**
   * What a dream may see of `message`: null when it is kept out (excluded chat, private stretch, or nothing left
   * once forgotten sentences are cut), else the message, its content without sentences that mention a tombstone.
   */
  apply<T extends MessageFacts>(message: T): T | null
}

export function compilePrivacy(rules: PrivacyRules = NO_PRIVACY): PrivacyFilter {
  const patterns = rules.excludeChats.map(globPattern)
  const spans = rules.privateSpans.map((span) => ({
    jid: span.chatJid,
    from: Date.parse(span.from),
    until: span.until === null ? Infinity : Date.parse(span.until),
  }))
  const forgotten = compileForgetMatcher(rules.forgotten)
  const isEmpty = patterns.length === 0 && spans.length === 0 && forgotten.phrases.length === 0
  const isChatExcluded = (chatJid: string, rootJid?: string): boolean =>
    patterns.some((pattern) => pattern.test(chatJid) || (rootJid !== undefined && pattern.test(rootJid)))
  const isPrivateAt = (chatJid: string, rootJid: string | undefined, timestamp: string): boolean => {
    if (spans.length === 0) return false
    const at = Date.parse(timestamp)
    return spans.some(
      (span) => (span.jid === chatJid || span.jid === rootJid) && at >= span.from && at < span.until,
    )
  }
  return {
    isEmpty,
    forgotten,
    isChatExcluded,
    apply(message) {
      if (isEmpty) return message
      if (isChatExcluded(message.chatJid, message.rootJid)) return null
      if (isPrivateAt(message.chatJid, message.rootJid, message.timestamp)) return null
      if (!forgotten.matches(message.content)) return message
      const redacted = redactPieces(message.content, forgotten, 'sentence')
      return redacted.text === null ? null : { ...message, content: redacted.text }
    },
  }
}

/** A jid or a glob: `*` any run of characters, `?` one; everything else literal, whole jid. */
function globPattern(glob: string): RegExp {
  const body = glob
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${body}$`, 'i')
}
