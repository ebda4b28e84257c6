// Opens an empty messages DB for generated data, refusing to clobber one that already holds rows.
import { rm, stat } from 'node:fs/promises'
import { UsageError } from '../errors.js'
import { openDb } from '../db/open.js'
import { openMessagesDb, type MessagesDb } from '../db/messages.js'

const SIDE_FILES = ['-wal', '-shm', '-journal']

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}

/** True when `file` holds nothing worth keeping: missing, zero bytes, or a SQLite file whose tables are all empty. */
export async function isEmptyDbFile(file: string): Promise<boolean> {
  if ((await sizeOf(file)) === 0 && (await sizeOf(`${file}-wal`)) === 0) return true
  let db
  try {
    db = openDb(file, { readonly: true })
  } catch {
    // Unreadable as SQLite: someone's file, so not ours to throw away.
    return false
  }
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string
    }[]
    return tables.every(({ name }) => {
      const row = db
        .prepare(`SELECT EXISTS (SELECT 1 FROM "${name.replaceAll('"', '""')}") AS found`)
        .get() as {
        found: number
      }
      return row.found === 0
    })
  } catch {
    return false
  } finally {
    db.close()
  }
}

/**
 * A messages DB at `file` with the schema and no rows. An existing non-empty file is an error unless
 * `overwrite`, which deletes it (and its WAL/SHM side files) first.
 */
export async function openFreshMessagesDb(file: string, overwrite: boolean): Promise<MessagesDb> {
  if (!(await isEmptyDbFile(file)) && !overwrite) {
    throw new UsageError(
      `${file} already holds data; refusing to overwrite it (pass overwrite to replace it)`,
    )
  }
  // Even an empty file is replaced, so the schema is always ours and the result always fresh.
  await Promise.all(
    [file, ...SIDE_FILES.map((suffix) => file + suffix)].map((path) => rm(path, { force: true })),
  )
  return openMessagesDb(file, { create: true })
}
