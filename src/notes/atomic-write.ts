// Crash-safe file replacement: temp file in the same directory, fsync, rename, fsync the directory.
import type { Dirent } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { randomHex } from '../random-hex.js'
import { NoteReadOnlyError, WriteFailedError, isWriteRefusal } from '../errors.js'
import { syncDir, type DirSyncs } from './dir-syncs.js'

/** Mode bits a new note gets (before the umask), like any file the user's editor would create. */
const NEW_FILE_MODE = 0o666

export interface AtomicWriteOptions {
  /** A batch whose owner syncs the folder later, once for all its files (see DirSyncs); else synced here. */
  dirSyncs?: DirSyncs
}

/**
 * Replaces `file` with `content` so that a crash leaves either the old or the new bytes, never a mix.
 * The replacement keeps the old file's permission bits. A file or folder the user made read-only (no write bit
 * for anyone) is refused with NoteReadOnlyError, even for root, who the kernel would let through.
 * The temp name starts with "." and ends with ".tmp" so backups, FTS and listings skip it.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(file)
  await makeFolder(dir)
  const mode = await writableMode(file)
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomHex(4)}.tmp`)
  try {
    const handle = await open(temp, 'wx', mode ?? NEW_FILE_MODE)
    try {
      // The umask applied to open(); an existing file's bits are copied exactly.
      if (mode !== null) await handle.chmod(mode)
      await handle.writeFile(content)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw isWriteRefusal(error) ? new WriteFailedError(file, error) : error
  }
  if (options.dirSyncs) options.dirSyncs.add(dir)
  else await syncDir(dir)
}

/** Creates `dir` (and missing parents) unless the nearest existing one is read-only. */
async function makeFolder(dir: string): Promise<void> {
  for (let folder = dir; ; folder = dirname(folder)) {
    try {
      if (isReadOnly((await stat(folder)).mode)) throw new NoteReadOnlyError(folder, 'folder')
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(folder) === folder) throw error
    }
  }
  try {
    await mkdir(dir, { recursive: true })
  } catch (error) {
    throw isWriteRefusal(error) ? new WriteFailedError(dir, error) : error
  }
}

/** The permission bits `file` has now (null when it does not exist yet), after refusing a read-only one. */
async function writableMode(file: string): Promise<number | null> {
  try {
    const { mode } = await stat(file)
    if (isReadOnly(mode)) throw new NoteReadOnlyError(file, 'file')
    return mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * Throws NoteReadOnlyError when writeFileAtomic would refuse `file` (it, or the nearest folder that exists, is
 * read-only) — so a multi-file operation (undo) can refuse before its first write instead of half-way.
 */
export async function assertWritable(file: string): Promise<void> {
  try {
    if (isReadOnly((await stat(file)).mode)) throw new NoteReadOnlyError(file, 'file')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    try {
      if (isReadOnly((await stat(folder)).mode)) throw new NoteReadOnlyError(folder, 'folder')
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(folder) === folder) throw error
    }
  }
}

/** No write bit for owner, group or others: someone made this read-only on purpose. */
export function isReadOnly(mode: number): boolean {
  return (mode & 0o222) === 0
}

/** `.<name>.<pid>.<hex>.tmp`: the temp files writeFileAtomic makes, with the pid of the writing process. */
const OWN_TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/

/**
 * Removes the temp files a killed writer (kill -9 mid-restore, a crash mid-dream) left under `dirs`, when their
 * writer is no longer running; returns what was removed. Other hidden files are not ours and stay.
 */
export async function removeOrphanTemps(
  dirs: readonly string[],
  isAlive: (pid: number) => boolean,
): Promise<string[]> {
  const removed: string[] = []
  for (const dir of dirs) {
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true, recursive: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      const pid = OWN_TEMP.exec(entry.name)?.[1]
      if (!entry.isFile() || pid === undefined || isAlive(Number(pid))) continue
      const file = join(entry.parentPath, entry.name)
      await rm(file, { force: true })
      removed.push(file)
    }
  }
  return removed
}

/** True for names dreamlane's own writers leave behind or that are hidden: never indexed or backed up. */
export function isTempOrHidden(name: string): boolean {
  return name.startsWith('.') || name.endsWith('.tmp')
}
