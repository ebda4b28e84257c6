// The index's only disk access: stat files and dirs, list dirs, read bytes — each applying the path rules.
import * as fs from 'node:fs'
import { readdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { DreamlaneError, errorMessage } from '../errors.js'
import { isTempOrHidden } from '../notes/atomic-write.js'
import { absOf, isIndexableName, isInside, joinRel, realParentOf, type IndexScope } from './scope.js'
import type { FileStat } from './types.js'

// The per-file calls use callback fs behind promisify, not fs/promises: with a FileHandle's open, stat, read
// and close, settling a 10k-file rebuild took 800 ms instead of 560 (the largest part of its gap to a raw
// FTS5 build, which reads synchronously in ~180 ms).
const lstat = promisify(fs.lstat)
const stat = promisify(fs.stat)
const realpath = promisify(fs.realpath)
const open = promisify(fs.open)
const fstat = promisify(fs.fstat)
const read = promisify(fs.read)
const close = promisify(fs.close)

/** Larger files are not indexed (they are rarely notes, and would dominate memory and bm25). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024

export type FileProbe = { status: 'file'; stat: FileStat } | { status: 'skipped' } | { status: 'missing' }

/** A file's bytes with the stat of the descriptor they came from, or why it was not read. */
export type FileRead =
  { status: 'read'; bytes: Buffer; stat: FileStat } | { status: 'skipped' } | { status: 'missing' }

export interface DirListing {
  /** Indexable regular files and file symlinks, workspace-relative. */
  files: string[]
  /** Real (non-symlink), non-hidden subdirectories. */
  dirs: string[]
}

/**
 * Stats `rel` as the index sees it: a regular file, or a symlink whose real path stays inside the workspace,
 * at most MAX_FILE_BYTES. With `checkParents` (paths that did not come from a walk: the journal, hit
 * verification) the parent directory must have no symlink in its chain, as a walk would have required.
 */
export async function probeFile(scope: IndexScope, rel: string, checkParents: boolean): Promise<FileProbe> {
  const abs = absOf(scope, rel)
  return guard(rel, async () => {
    if (checkParents && (await realpath(dirname(abs))) !== realParentOf(scope, rel)) {
      return { status: 'skipped' }
    }
    let info = await lstat(abs)
    if (info.isSymbolicLink()) {
      if (!isInside(scope.workspaceReal, await realpath(abs))) return { status: 'skipped' }
      info = await stat(abs)
    }
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return { status: 'skipped' }
    return { status: 'file', stat: fileStatOf(info) }
  })
}

/** A directory's stat, or undefined when it is gone, not a directory, or (unless `follow`) a symlink. */
export async function statDir(
  scope: IndexScope,
  rel: string,
  follow: boolean,
): Promise<FileStat | undefined> {
  const probe = await guard(rel, async (): Promise<FileProbe> => {
    const info = follow ? await stat(absOf(scope, rel)) : await lstat(absOf(scope, rel))
    return info.isDirectory() ? { status: 'file', stat: fileStatOf(info) } : { status: 'skipped' }
  })
  return probe.status === 'file' ? probe.stat : undefined
}

/** The entries of `rel` worth looking at, or undefined when it cannot be listed any more. */
export async function listDir(scope: IndexScope, rel: string): Promise<DirListing | undefined> {
  let entries
  try {
    entries = await readdir(absOf(scope, rel), { withFileTypes: true })
  } catch (error) {
    if (isGoneOrRefused(error)) return undefined
    throw indexFailed(rel, error)
  }
  const listing: DirListing = { files: [], dirs: [] }
  for (const entry of entries) {
    const name = entry.name
    if (entry.isDirectory()) {
      if (!isTempOrHidden(name)) listing.dirs.push(joinRel(rel, name))
    } else if ((entry.isFile() || entry.isSymbolicLink()) && isIndexableName(scope, name)) {
      listing.files.push(joinRel(rel, name))
    }
  }
  return listing
}

/**
 * Reads `rel` with the stat of the very handle it read from, so the stored stat never describes newer bytes
 * than the stored text. The handle must be the inode `probed` described: a path swapped in between (say, for
 * a symlink out of the workspace) is not read. Undefined when the file vanished, was swapped, grew too large
 * or cannot be read.
 */
export async function readFileBytes(
  scope: IndexScope,
  rel: string,
  probed: FileStat,
): Promise<{ bytes: Buffer; stat: FileStat } | undefined> {
  const read = await guard(rel, async () => readDescriptor(await open(absOf(scope, rel), 'r'), probed.ino))
  return read.status === 'read' ? { bytes: read.bytes, stat: read.stat } : undefined
}

/** Where the platform can refuse to open a symlink (not Windows), a walk's new files skip their lstat. */
const NO_FOLLOW = fs.constants.O_NOFOLLOW

/**
 * Reads a file a walk found and the index has never seen, without probing it first: nothing stored could
 * let its stat skip the read, so it is opened straight away, refusing a symlink (ELOOP), and stat'ed through
 * the descriptor it is read from. That is one thread-pool round trip fewer per file than probe + read, on
 * the bulk of a full rebuild. Undefined for a symlink, or where the platform has no O_NOFOLLOW: probe it.
 */
export async function readNewFile(scope: IndexScope, rel: string): Promise<FileRead | undefined> {
  if (NO_FOLLOW === undefined) return undefined
  let fd: number
  try {
    fd = await open(absOf(scope, rel), fs.constants.O_RDONLY | NO_FOLLOW)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return undefined
    return guard(rel, (): Promise<FileRead> => Promise.reject(error))
  }
  return guard(rel, () => readDescriptor(fd))
}

/**
 * Reads the open `fd` whole with its own stat, when it is a regular file of indexable size (and, given `ino`, still
 * that inode), then closes it.
 */
async function readDescriptor(fd: number, ino?: number): Promise<FileRead> {
  try {
    const info = await fstat(fd)
    if (!info.isFile() || info.size > MAX_FILE_BYTES || (ino !== undefined && info.ino !== ino)) {
      return { status: 'skipped' }
    }
    return { status: 'read', stat: fileStatOf(info), bytes: await readWhole(fd, info.size) }
  } finally {
    await close(fd)
  }
}

/**
 * The descriptor's bytes: one positioned read when the file still has the size its stat gave (nearly always),
 * else reads to EOF in growing steps (more round trips on the thread pool, for a file being written now).
 */
async function readWhole(fd: number, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(size + 1)
  let length = 0
  for (;;) {
    const { bytesRead } = await read(fd, buffer, length, buffer.length - length, length)
    length += bytesRead
    if (bytesRead === 0 || (length === size && length < buffer.length)) return buffer.subarray(0, length)
    if (length === buffer.length) {
      if (length > MAX_FILE_BYTES) return buffer.subarray(0, length)
      const grown = Buffer.allocUnsafe(buffer.length * 2)
      buffer.copy(grown, 0, 0, length)
      buffer = grown
    }
  }
}

/** Runs `task` over `items` with at most `limit` in flight, keeping results in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

function fileStatOf(info: fs.Stats): FileStat {
  return { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino }
}

/** Runs a disk step, turning "gone" and "refused" into probe outcomes and anything else into INDEX_FAILED. */
async function guard<T extends { status: string }>(
  rel: string,
  task: () => Promise<T>,
): Promise<T | { status: 'skipped' } | { status: 'missing' }> {
  try {
    return await task()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' }
    if (isGoneOrRefused(error)) return { status: 'skipped' }
    throw indexFailed(rel, error)
  }
}

function isGoneOrRefused(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return ['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG', 'EISDIR'].includes(code ?? '')
}

function indexFailed(rel: string, error: unknown): DreamlaneError {
  return new DreamlaneError('INDEX_FAILED', `cannot index "${rel}": ${errorMessage(error)}`, { cause: error })
}
