// Moves staged chats into the messages DB, one transaction per chat; with --dry-run only counts what would be new.
import { DreamlaneError, errorMessage } from '../errors.js'
import type { MessagesDb } from '../db/messages.js'
import type { Stage } from './stage.js'
import type { ImportedChat } from './types.js'

export interface WriteTally {
  /** Chats that had at least one staged message or are branch chats. */
  chats: number
  /** Messages newly written (or new with a dry run). */
  messages: number
  /** Staged messages already present in the DB or repeated within the source. */
  duplicates: number
}

/** Called after each chat: chats done, chats in all, new messages so far. */
export type OnChatWritten = (done: number, total: number, messages: number) => void

/**
 * Writes every staged chat: chat row, branch row and messages commit together or not at all. Messages
 * are inserted with INSERT OR IGNORE on (id, chat_jid), which makes a re-import add nothing.
 */
export function writeStage(
  stage: Stage,
  target: MessagesDb,
  onChat: OnChatWritten = () => undefined,
): WriteTally {
  const chats = stage.chats()
  const tally: WriteTally = { chats: 0, messages: 0, duplicates: 0 }
  target.db.pragma('cache_size = -16000')
  const writeChat = target.db.transaction((chat: ImportedChat): number => {
    // Branch rows point at their root chat; the root is written first, this only covers a root the source lacks.
    if (chat.branch) target.upsertChat(chat.branch.rootChatJid, null)
    target.upsertChat(chat.jid, chat.name)
    if (chat.branch) target.upsertBranch({ ...chat.branch, chatJid: chat.jid })
    return target.insertMessages(stage.messagesOf(chat.jid))
  })
  for (const [index, chat] of chats.entries()) {
    const staged = stage.countMessages(chat.jid)
    let added: number
    try {
      added = writeChat(chat)
    } catch (error) {
      throw new DreamlaneError(
        'IMPORT_FAILED',
        `chat ${chat.jid} could not be written (${errorMessage(error)}); none of its rows were kept. ` +
          `${index} earlier chat(s) were committed; re-running the import is safe (it skips what is there).`,
        { cause: error },
      )
    }
    tally.chats++
    tally.messages += added
    tally.duplicates += staged - added
    onChat(index + 1, chats.length, tally.messages)
  }
  return tally
}

/** What `writeStage` would do, without writing: `target` is read only (null when the DB does not exist yet). */
export function countStage(
  stage: Stage,
  target: MessagesDb | null,
  onChat: OnChatWritten = () => undefined,
): WriteTally {
  const chats = stage.chats()
  const tally: WriteTally = { chats: 0, messages: 0, duplicates: 0 }
  const exists = target?.db.prepare('SELECT 1 FROM messages WHERE id = ? AND chat_jid = ?')
  for (const [index, chat] of chats.entries()) {
    const staged = stage.countMessages(chat.jid)
    let fresh = 0
    for (const id of stage.distinctIdsOf(chat.jid)) {
      if (!exists?.get(id, chat.jid)) fresh++
    }
    tally.chats++
    tally.messages += fresh
    tally.duplicates += staged - fresh
    onChat(index + 1, chats.length, tally.messages)
  }
  return tally
}
