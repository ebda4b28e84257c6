// The workspace lock: one dream at a time per notes/ tree, across processes; stale locks are reaped.
import { hostname } from 'node:os'
import { readFileSync } from 'node:fs'
import { link, mkdir, open, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { randomHex } from '../random-hex.js'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import { LockHeldError, WriteFailedError, isWriteRefusal } from '../errors.js'
import type { WorkspacePaths } from './paths.js'

export interface LockInfo {
  pid: number
  host: string
  runId: string
  startedAt: string
}

export interface HeldLock {
  info: LockInfo
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>
}

export interface LockOptions {
  file: string
  runId: string
  clock: Clock
  /** A lock older than this is stale whatever its pid. */
  staleAfterMs: number
  /** Test seam: whether a pid on this host is alive. */
  isAlive?: (pid: number) => boolean
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM means the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function readLock(file: string): Promise<LockInfo | null> {
  try {
    // One synchronous read of a tiny file: status asks while a dream keeps the loop busy (see readDailyNoteFileNow).
    return JSON.parse(readFileSync(file, 'utf8')) as LockInfo
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    // A torn or garbage lock file cannot prove anyone holds it.
    return { pid: -1, host: '?', runId: '?', startedAt: new Date(0).toISOString() }
  }
}

/** Why a lock is stale, or null when it is live. */
export function staleReason(info: LockInfo, options: Omit<LockOptions, 'file' | 'runId'>): string | null {
  const isAlive = options.isAlive ?? isPidAlive
  const ageMs = options.clock.now().getTime() - new Date(info.startedAt).getTime()
  if (!(ageMs < options.staleAfterMs)) return `older than ${Math.round(options.staleAfterMs / 60_000)} min`
  if (info.host === hostname() && !isAlive(info.pid)) return `pid ${info.pid} is not running`
  return null
}

export function describeLock(info: LockInfo): string {
  return `run ${info.runId} (pid ${info.pid} on ${info.host}, since ${info.startedAt})`
}

/**
 * Takes the lock or throws LockHeldError naming the holder. A stale lock is removed and retaken.
 * The lock appears with its content in one step — a hard link to a complete temp file — because a reader that
 * found it empty mid-write would take it for garbage, reap it, and two processes would both hold it.
 */
export async function acquireLock(options: LockOptions): Promise<HeldLock & { reaped: LockInfo | null }> {
  await mkdir(dirname(options.file), { recursive: true })
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    runId: options.runId,
    startedAt: options.clock.now().toISOString(),
  }
  const temp = join(dirname(options.file), `.${basename(options.file)}.${process.pid}.${randomHex(4)}.tmp`)
  try {
    await writeLockFile(temp, info)
    let reaped: LockInfo | null = null
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await placeLock(temp, options.file, info)) {
        return { info, reaped, release: () => releaseLock(options.file, info.runId) }
      }
      const holder = await readLock(options.file)
      if (!holder) continue
      if (staleReason(holder, options) === null) throw new LockHeldError(describeLock(holder))
      reaped = holder
      await rm(options.file, { force: true })
    }
    throw new LockHeldError('another process (the lock kept reappearing)')
  } finally {
    await rm(temp, { force: true })
  }
}

/**
 * Creates `file` (never over an existing one) holding `info`; a failed write removes what it made. Not fsynced: a
 * lock means something only while its holder runs, and a crash of the machine ends every holder, so a lock file
 * from before one is stale whatever it holds (a torn one reads as garbage, which is stale too). Other processes
 * read it through the page cache (on NFS, once closed, which happens before it is linked into place).
 */
async function writeLockFile(file: string, info: LockInfo): Promise<void> {
  let handle
  try {
    handle = await open(file, 'wx')
  } catch (error) {
    throw isWriteRefusal(error) ? new WriteFailedError(file, error) : error
  }
  try {
    await handle.writeFile(JSON.stringify(info))
  } catch (error) {
    // A half-written lock (disk full) would block every later dream until reaped: take it back now.
    await handle.close()
    await rm(file, { force: true })
    throw isWriteRefusal(error) ? new WriteFailedError(file, error) : error
  }
  await handle.close()
}

/** Links `temp` into place; false when a lock is already there. Without hard links, creates it in place. */
async function placeLock(temp: string, file: string, info: LockInfo): Promise<boolean> {
  try {
    await link(temp, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (!NO_HARD_LINKS.has(code ?? '')) throw error
  }
  try {
    await writeLockFile(file, info)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** What link() says on file systems without hard links (some network and FAT mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'])

async function releaseLock(file: string, runId: string): Promise<void> {
  const current = await readLock(file)
  if (current?.runId === runId) await rm(file, { force: true })
}

/** Removes the lock when stale; returns what was reaped. */
export async function reapStaleLock(options: Omit<LockOptions, 'runId'>): Promise<LockInfo | null> {
  const holder = await readLock(options.file)
  if (!holder || staleReason(holder, options) === null) return null
  await rm(options.file, { force: true })
  return holder
}

/** What taking the workspace lock for a short action needs. */
export interface WorkspaceLockDeps {
  paths: Pick<WorkspacePaths, 'lockFile'>
  clock: Clock
  config: { dream: Pick<ResolvedConfig['dream'], 'runTimeoutMs'> }
}

/** Runs `work` holding the workspace lock, so no dream writes notes meanwhile; a running dream → LOCK_HELD. */
export async function withWorkspaceLock<T>(
  deps: WorkspaceLockDeps,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await acquireLock({
    file: deps.paths.lockFile,
    runId: label,
    clock: deps.clock,
    staleAfterMs: deps.config.dream.runTimeoutMs,
  })
  try {
    return await work()
  } finally {
    await lock.release()
  }
}
