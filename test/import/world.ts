// Test world for imports: fixture paths, a run of importHistory into a temp workspace, and reading rows back.
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { ZipArchive } from 'archiver'
import { openMessagesDb } from '../../src/db/messages.js'
import { importHistory, type ImportOptions, type ImportResult } from '../../src/import/import-history.js'
import { makeTempDir, type TestWorkspace } from '../helpers/workspace.js'
import type { Row } from '../helpers/message-rows.js'

export const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url))

export function fixture(name: string): string {
  return join(FIXTURES, name)
}

/** A messages row as stored (the same shape the sample tests read back). */
export type StoredMessage = Row

export function runImport(
  ws: TestWorkspace,
  source: string,
  options: Partial<ImportOptions> = {},
): Promise<ImportResult> {
  return importHistory({
    source,
    messagesDb: ws.paths.messagesDb,
    tempDir: makeTempDir(),
    timeZone: 'UTC',
    ...options,
  })
}

export interface StoredChat {
  jid: string
  name: string | null
  last_message_time: string | null
}

export interface StoredBranch {
  branch_id: string
  chat_jid: string
  root_chat_jid: string
  parent_branch_id: string | null
  created_at: string | null
}

/** Every message, chat and branch row of the DB at `file`, read with plain SQL. */
export function readDb(file: string): {
  messages: StoredMessage[]
  chats: StoredChat[]
  branches: StoredBranch[]
} {
  const db = openMessagesDb(file, { readonly: true })
  try {
    return {
      messages: db.db
        .prepare('SELECT * FROM messages ORDER BY chat_jid, timestamp, rowid')
        .all() as StoredMessage[],
      chats: db.db
        .prepare('SELECT jid, name, last_message_time FROM chats ORDER BY jid')
        .all() as StoredChat[],
      branches: db.db.prepare('SELECT * FROM chat_branches ORDER BY chat_jid').all() as StoredBranch[],
    }
  } finally {
    db.close()
  }
}

/** A deflated zip like the ones ChatGPT and WhatsApp hand out. */
export async function writeExportZip(
  file: string,
  entries: Record<string, string | Buffer>,
): Promise<string> {
  const archive = new ZipArchive({ zlib: { level: 6 } })
  const done = pipeline(archive, createWriteStream(file))
  for (const [name, content] of Object.entries(entries)) archive.append(content, { name })
  await Promise.all([archive.finalize(), done])
  return file
}
