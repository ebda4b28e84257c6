// A dream's window read with its secrets withheld: every message of a window stream scanned in order, chat by chat,
// so neither an engine, a cue nor a record ever sees a value, only where it was said.
import type { SecretKind } from '../secrets/types.js'
import { MessageSecretScanner } from '../secrets/message-scanner.js'
import { localDayOf } from '../time/local-day.js'
import type { MessageRow } from './message-row.js'

/** How a window read withholds secrets (plain data: it crosses to reader and seeding threads). */
export interface WindowSecrets {
  /** Kinds the user keeps on purpose (`privacy.keepSecretKinds`). */
  keepKinds: readonly string[]
  /** The zone the withheld marker's day is told in. */
  timeZone: string
}

/** Withholds the secrets of each message passed in; call in the stream's order. */
export function windowSecretFilter(settings: WindowSecrets): (message: MessageRow) => MessageRow {
  const scanner = new MessageSecretScanner({ keepKinds: settings.keepKinds as readonly SecretKind[] })
  return (message) => {
    const origin = {
      chat: message.chatName || message.chatJid,
      day: localDayOf(new Date(message.timestamp), settings.timeZone),
      messageId: message.id,
    }
    const withheld = scanner.scan({ chatId: message.chatJid, origin, text: message.content })
    return withheld.kinds.length === 0 ? message : { ...message, content: withheld.text }
  }
}
