// Waiting on another process's SQLite lock for a bounded time, and naming that process when Linux can tell.
import { readFileSync, statSync } from 'node:fs'

/** How long a messages DB held by another process is waited on before giving up. @default 5000 */
export const DEFAULT_DB_WAIT_MS = 5000

export interface DbWait {
  /** Give up after this long. @default DEFAULT_DB_WAIT_MS */
  waitMs?: number
  /** Called about once a second while waiting: how long so far, and who holds the lock (when known). */
  onWait?: (info: { waitedMs: number; holder: string | null }) => void
}

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code?.startsWith('SQLITE_BUSY_') === true
}

/**
 * Runs `attempt` until it stops failing with SQLITE_BUSY or `wait.waitMs` passes; returns its value, or
 * null when the lock was never released (the caller names the holder in its error).
 * Each try waits on the connection's own busy handler, so keep that short (a few hundred ms).
 */
export function retryWhileBusy<T>(attempt: () => T, wait: DbWait, file: string): { value: T } | null {
  const waitMs = wait.waitMs ?? DEFAULT_DB_WAIT_MS
  const started = Date.now()
  let lastReport = started
  for (;;) {
    try {
      return { value: attempt() }
    } catch (error) {
      if (!isBusy(error)) throw error
    }
    const now = Date.now()
    if (now - started >= waitMs) return null
    if (now - lastReport >= 1000) {
      lastReport = now
      wait.onWait?.({ waitedMs: now - started, holder: describeDbHolder(file) })
    }
  }
}

/**
 * "pid 123 (sqlite3 notes.db)" for the process holding a POSIX lock on `file` (or its -wal/-shm), from
 * /proc/locks; null when nobody else does or the platform cannot say.
 */
export function describeDbHolder(file: string): string | null {
  let locks: string
  try {
    locks = readFileSync('/proc/locks', 'utf8')
  } catch {
    return null
  }
  const inodes = new Set<string>()
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      inodes.add(String(statSync(path).ino))
    } catch {
      // A side file that is not there holds no lock.
    }
  }
  for (const line of locks.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 13804 fe:00:2185089 1073741824 1073742335"
    const fields = line.trim().split(/\s+/)
    const pid = Number(fields[4])
    const inode = fields[5]?.split(':')[2]
    if (!inode || !inodes.has(inode) || !Number.isInteger(pid) || pid === process.pid) continue
    return `pid ${pid}${commandOf(pid)}`
  }
  return null
}

function commandOf(pid: number): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
    return command ? ` (${command.length > 80 ? `${command.slice(0, 79)}…` : command})` : ''
  } catch {
    return ''
  }
}
