// "Don't remember that", "forget what I just said": the messages such a request points back at, and what in them
// a forget looks for in the notes.
import type { MessagesDb } from '../db/messages.js'
import { phrasesOfMessage } from '../privacy/forget-phrases.js'
import { WITHHELD_MARKER } from '../secrets/marker.js'
import { withholdSecrets } from '../secrets/withhold.js'
import { recentChatMessages, type ChatMessage } from './chat-message.js'
import { recogniseForgetRequest } from './forget-request/configuration.js'

/** Messages read back from the request: a turn is a few messages, with the replies between. */
const LOOK_BACK = 20
/** Most of the user's messages one turn counts. */
const MAX_TURN_MESSAGES = 5
const QUOTE_CHARS = 100

export interface PointedForget {
  /** The phrases to forget, as a `/forget` argument ("Dr Sousa, Rua Formosa, dentist is Dr Sousa"). */
  what: string
  /** The messages it points at, oldest first. */
  messages: ChatMessage[]
  /** A line saying which message(s), quoted short, for the reply before the preview. */
  intro: string
}

/**
 * What a pointer request in `chatJid` points at: the user's last turn before it (their messages since the reply
 * before, the request itself and the replies after left out), unless that turn was a command. Null when there is
 * none, or it names nothing to look for. Secrets are withheld first: a value never becomes a tombstone's phrase.
 */
export function pointedForget(
  messages: MessagesDb,
  chatJid: string,
  request: string,
  now: Date,
): PointedForget | null {
  const recent = recentChatMessages(messages, chatJid, LOOK_BACK, now)
  const newest = recent.at(-1)
  // The assistant host stores the request before it is answered; the stdin host does not.
  if (newest && newest.role === 'user' && newest.content.trim() === request.trim()) recent.pop()
  const turn: ChatMessage[] = []
  for (let index = recent.length - 1; index >= 0 && turn.length < MAX_TURN_MESSAGES; index--) {
    const message = recent[index] as ChatMessage
    if (message.role !== 'user') {
      if (turn.length > 0) break
      continue
    }
    if (isCommand(message.content)) break
    turn.unshift(message)
  }
  const texts = turn.map((message) => withholdSecrets(message.content).text.replace(WITHHELD_MARKER, ' '))
  const phrases = [...new Set(texts.flatMap(phrasesOfMessage))]
  if (phrases.length === 0) return null
  const quote = oneLine(texts.join(' '))
  const which = turn.length === 1 ? 'your last message' : `your last ${turn.length} messages`
  return { what: phrases.join(', '), messages: turn, intro: `That is ${which}: “${quote}”` }
}

/**
 * The relations the facts a preview removes are about (`<!-- key: user.relation.dentist… -->` → "dentist"): the
 * person a message named is also "my dentist" in the day's topics. Added to what a pointer forgets.
 */
export function relationsIn(items: readonly { kind: string; text: string }[]): string[] {
  const relations = new Set<string>()
  for (const item of items)
    if (item.kind === 'fact')
      for (const match of item.text.matchAll(/<!--\s*key:\s*user\.relation\.([a-z][a-z-]*)/g))
        relations.add((match[1] as string).replace(/-/g, ' '))
  return [...relations]
}

/** A slash command or another forget request: no turn to forget, and nothing before it is meant either. */
function isCommand(text: string): boolean {
  return text.trim().startsWith('/') || recogniseForgetRequest(text) !== null
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat
}
