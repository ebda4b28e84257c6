// Test helper: reads a messages DB back as plain rows and hashes them, to compare two generated files.
import { createHash } from 'node:crypto'
import { openDb } from '../../src/db/open.js'

export interface Row {
  id: string
  chat_jid: string
  sender: string | null
  sender_name: string | null
  content: string
  timestamp: string
  is_from_me: number
  is_bot_message: number
}

/** Every message row, ordered; optionally only those with `start <= timestamp < end` (ISO). */
export function readMessageRows(file: string, range?: { start: Date; end: Date }): Row[] {
  const db = openDb(file, { readonly: true })
  try {
    return db
      .prepare(
        `SELECT id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message
        FROM messages WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp, chat_jid, id`,
      )
      .all(range?.start.toISOString() ?? '', range?.end.toISOString() ?? '\uffff') as Row[]
  } finally {
    db.close()
  }
}

/** sha256 over every row of chats, chat_branches and messages, in a stable order. */
export function hashDb(file: string): string {
  const db = openDb(file, { readonly: true })
  try {
    const hash = createHash('sha256')
    for (const sql of [
      'SELECT * FROM chats ORDER BY jid',
      'SELECT * FROM chat_branches ORDER BY branch_id',
      'SELECT * FROM messages ORDER BY chat_jid, id',
    ]) {
      for (const row of db.prepare(sql).all()) hash.update(JSON.stringify(row)).update('\n')
    }
    return hash.digest('hex')
  } finally {
    db.close()
  }
}

export function hashRows(rows: readonly Row[]): string {
  const hash = createHash('sha256')
  for (const row of rows) hash.update(JSON.stringify(row)).update('\n')
  return hash.digest('hex')
}
