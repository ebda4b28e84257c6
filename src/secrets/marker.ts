// The text that stands where a secret was: says what kind of secret it was and where the user said it, never
// what it was. "(withheld wifi-password: said in chat Home on 2026-12-04, message 3A7F)".
import type { SecretKind } from './types.js'

/** Where a withheld value was said, so the user can find it in their own chat history. */
export interface SecretOrigin {
  /** The chat's name, or its jid when it has none. */
  chat: string
  /** Local day (YYYY-MM-DD) of the message. */
  day: string
  messageId: string
}

/** Any marker this module writes (and the bare one the note tools write when the origin is unknown). */
export const WITHHELD_MARKER =
  /\(withheld [a-z-]+(?:: said in chat [^()\n]{0,120} on \d{4}-\d{2}-\d{2}, message [^()\s]{1,80})?\)/g

/** Names in a marker keep to one line and no parentheses, so the marker stays one unit. */
function plain(text: string): string {
  return text
    .replace(/[()\n\r]+/g, ' ')
    .trim()
    .slice(0, 120)
}

export function withheldMarker(kind: SecretKind, origin?: SecretOrigin): string {
  if (!origin) return `(withheld ${kind})`
  return `(withheld ${kind}: said in chat ${plain(origin.chat)} on ${origin.day}, message ${plain(origin.messageId).replace(/\s+/g, '_')})`
}
