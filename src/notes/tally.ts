// Running counts over a slice of messages: what a daily note's front matter and cue header report.
import { roleOf, type MessageRow } from '../db/messages.js'

/** Counts, first/last timestamps and distinct trees/chats; memory grows with trees and chats, not messages. */
export class MessageTally {
  total = 0
  user = 0
  assistant = 0
  /** UTF-8 bytes of the messages' content: what a dream's notes budget is a share of. */
  bytes = 0
  /** ISO UTC of the first and last message added (messages arrive oldest first). */
  first: string | null = null
  last: string | null = null
  readonly trees = new Set<string>()
  readonly chats = new Set<string>()

  /** `iso` is the message's timestamp normalised to `Date#toISOString()`. */
  add(message: MessageRow, iso: string): void {
    this.total++
    this.bytes += Buffer.byteLength(message.content, 'utf8')
    if (roleOf(message) === 'assistant') this.assistant++
    else this.user++
    if (this.first === null || iso < this.first) this.first = iso
    if (this.last === null || iso > this.last) this.last = iso
    this.trees.add(message.rootJid)
    this.chats.add(message.chatJid)
  }
}
