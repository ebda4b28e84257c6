// The secrets pass: notes that already hold a secret (written by hand, or before dreams withheld them) are cleaned
// by the next dream, under its lock and after its backup; a file is read again only once it changed.
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { migrate } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import { walkTextFiles } from '../tools/walk.js'

export interface CleanedNote {
  /** Absolute path. */
  file: string
  kinds: SecretKind[]
}

const MIGRATIONS = [
  { version: 1, sql: 'CREATE TABLE secrets_scan (key TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;' },
]

/** Withholds every secret in notes/ changed since the last pass; returns the files it cleaned. */
export async function withholdSecretsInNotes(
  paths: WorkspacePaths,
  state: StateDb,
  keepKinds: readonly SecretKind[],
): Promise<CleanedNote[]> {
  migrate(state, 'secrets', MIGRATIONS)
  const row = state.prepare("SELECT value FROM secrets_scan WHERE key = 'notes_mtime_ms'").get() as
    { value: number } | undefined
  const since = row?.value ?? -1
  let latest = since
  const cleaned: CleanedNote[] = []
  // A workspace whose notes/ is not made yet (a dream right after an import) holds no secret to clean.
  if (!existsSync(join(paths.workspace, 'notes'))) return cleaned
  for await (const rel of walkTextFiles(paths.workspace, 'notes', ['.md', '.txt'])) {
    const file = join(paths.workspace, rel)
    const { mtimeMs } = await stat(file)
    if (mtimeMs <= since) continue
    latest = Math.max(latest, mtimeMs)
    const text = await readFile(file, 'utf8')
    const withheld = withholdSecrets(text, { keepKinds })
    if (withheld.kinds.length === 0) continue
    await writeFileAtomic(file, withheld.text)
    cleaned.push({ file, kinds: withheld.kinds })
  }
  state
    .prepare(
      "INSERT INTO secrets_scan (key, value) VALUES ('notes_mtime_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .run(latest)
  return cleaned
}

/** The summary's line: how many, which kinds, which files; never a value. '' when nothing was cleaned. */
export function describeCleaned(cleaned: readonly CleanedNote[], workspace: string): string {
  if (cleaned.length === 0) return ''
  const count = cleaned.reduce((sum, note) => sum + note.kinds.length, 0)
  const kinds = [...new Set(cleaned.flatMap((note) => note.kinds))].join(', ')
  const files = cleaned.map((note) => note.file.slice(workspace.length + 1)).join(', ')
  return `withheld ${count} secret(s) already in notes: ${kinds} (${files})`
}
