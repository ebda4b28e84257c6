// PiClaw messages DB: check its schema, then copy chats, branches and messages (dream: channels excluded).
import { DREAM_CHANNEL_PREFIX, MessagesDb } from '../db/messages.js'
import { openDb, type Db } from '../db/open.js'
import { DreamlaneError, errorMessage } from '../errors.js'
import type { ImportSink } from './types.js'

/** Tables and columns dreamlane reads; a PiClaw DB has more, which is fine. */
const REQUIRED: Record<string, string[]> = {
  chats: ['jid', 'name'],
  chat_branches: ['branch_id', 'chat_jid', 'root_chat_jid'],
  messages: [
    'id',
    'chat_jid',
    'sender',
    'sender_name',
    'content',
    'timestamp',
    'is_from_me',
    'is_bot_message',
  ],
}

// ISO strings compare as text; these bound every timestamp a PiClaw DB writes.
const EVER_START = new Date('1970-01-01T00:00:00.000Z')
const EVER_END = new Date('9999-12-31T23:59:59.999Z')

interface BranchRow {
  branch_id: string
  chat_jid: string
  root_chat_jid: string
  parent_branch_id: string | null
  created_at: string | null
}

/** Lists what `db` lacks of the PiClaw schema, e.g. `messages.is_bot_message`; empty when usable. */
export function missingSchema(db: Db): string[] {
  const missing: string[] = []
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const present = new Set(
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
    )
    if (present.size === 0) missing.push(`table ${table}`)
    else for (const column of columns) if (!present.has(column)) missing.push(`${table}.${column}`)
  }
  return missing
}

/** Opens `file` read-only and checks its schema before anything is read, with a message naming what is missing. */
export function openPiclawDb(file: string): MessagesDb {
  let db: Db
  try {
    db = openDb(file, { readonly: true })
  } catch (error) {
    throw new DreamlaneError('IMPORT_UNREADABLE', `${file}: cannot open as SQLite (${errorMessage(error)})`, {
      cause: error,
    })
  }
  try {
    const missing = missingSchema(db)
    if (missing.length > 0) {
      throw new DreamlaneError(
        'MESSAGES_DB_SCHEMA',
        `${file} is not a PiClaw messages DB: missing ${missing.join(', ')} ` +
          `(expected chats(jid, name), chat_branches(branch_id, chat_jid, root_chat_jid), ` +
          `messages(id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message))`,
      )
    }
    return new MessagesDb(db, file)
  } catch (error) {
    db.close()
    if (error instanceof DreamlaneError) throw error
    throw new DreamlaneError(
      'IMPORT_UNREADABLE',
      `${file}: not a readable SQLite database (${errorMessage(error)})`,
      { cause: error },
    )
  }
}

/** Copies every chat, branch and message of `source` into `sink`; `sink.advance` counts messages read. */
export function readPiclaw(source: MessagesDb, sink: ImportSink): void {
  const names = new Map<string, string | null>()
  for (const chat of source.listChats()) names.set(chat.jid, chat.name)
  const branchColumns = new Set(
    (source.db.prepare('PRAGMA table_info(chat_branches)').all() as { name: string }[]).map((c) => c.name),
  )
  const branches = source.db
    .prepare(
      `SELECT branch_id, chat_jid, root_chat_jid,
        ${branchColumns.has('parent_branch_id') ? 'parent_branch_id' : 'NULL AS parent_branch_id'},
        ${branchColumns.has('created_at') ? 'created_at' : 'NULL AS created_at'}
      FROM chat_branches WHERE substr(chat_jid, 1, 6) <> ?`,
    )
    .all(DREAM_CHANNEL_PREFIX) as BranchRow[]
  const branchOf = new Map(branches.map((branch) => [branch.chat_jid, branch]))
  for (const [jid, name] of names) if (!branchOf.has(jid)) sink.chat({ jid, name })
  for (const branch of branches) {
    sink.chat({
      jid: branch.chat_jid,
      name: names.get(branch.chat_jid) ?? null,
      branch: {
        branchId: branch.branch_id,
        rootChatJid: branch.root_chat_jid,
        parentBranchId: branch.parent_branch_id,
        createdAt: branch.created_at ?? undefined,
      },
    })
  }

  let read = 0
  for (const row of source.iterateWindow(EVER_START, EVER_END)) {
    read++
    sink.advance(1)
    const time = new Date(row.timestamp)
    if (Number.isNaN(time.getTime())) {
      sink.problem({
        item: `${row.chatJid} message ${row.id}`,
        reason: `timestamp "${row.timestamp}" is not ISO 8601`,
      })
      continue
    }
    sink.message({ ...row, timestamp: time.toISOString() })
  }
  const total = countMessages(source)
  if (total > read) {
    sink.problem({ reason: `timestamps outside 1970..9999 ISO 8601: not read`, count: total - read })
  }
}

/** Messages outside dream channels: the progress total, and the check that nothing was silently left out. */
export function countMessages(source: MessagesDb): number {
  const row = source.db
    .prepare('SELECT count(*) AS n FROM messages WHERE substr(chat_jid, 1, 6) <> ?')
    .get(DREAM_CHANNEL_PREFIX) as { n: number }
  return row.n
}
