// Settles each candidate file: stat it, skip it when the stat vouches for it, else read, hash and chunk it.
import { createHash } from 'node:crypto'
import type { Clock } from '../clock.js'
import type { FileTouch, FileUpsert } from './apply.js'
import { chunkText } from './chunk.js'
import { FS_CONCURRENCY, isSameStat, type Candidate, type RefreshCounters } from './plan.js'
import { mapLimit, probeFile, readFileBytes } from './probe.js'
import { parentOf, type IndexScope } from './scope.js'

/**
 * A file (or dir) whose mtime is this close to the moment we started reading it may be written again within
 * the same timestamp tick (a few ms on most filesystems, 2 s on FAT) without its stat changing, so an equal
 * stat cannot prove its content equal: such rows are marked racy and re-checked until they age out (git's
 * "racily clean" entries, same fix). Only mtime counts, as in git; the window leaves margin over FAT's tick.
 */
export const RACY_WINDOW_MS = 3_000

/** What settling found, handed over as it goes so a huge rebuild can be written in bounded batches. */
export interface SettleSink {
  upsert(file: FileUpsert): void
  touch(file: FileTouch): void
  remove(path: string): void
}

export async function settleCandidates(
  scope: IndexScope,
  candidates: Map<string, Candidate>,
  counters: RefreshCounters,
  clock: Clock,
  sink: SettleSink,
): Promise<void> {
  await mapLimit([...candidates], FS_CONCURRENCY, async ([path, candidate]) => {
    const { stored } = candidate
    let read: Awaited<ReturnType<typeof readFileBytes>>
    let checkedAtMs = 0
    // A second try covers a file replaced (new inode) between its stat and its read, as atomic saves do.
    for (let attempt = 1; attempt <= 2 && !read; attempt++) {
      const probe = await probeFile(scope, path, candidate.explicit)
      counters.filesStatted++
      if (probe.status !== 'file') {
        if (probe.status === 'skipped') counters.skipped++
        if (stored) sink.remove(path)
        return
      }
      if (stored && !candidate.explicit && !stored.isRacy && isSameStat(stored, probe.stat)) return
      // Taken before the read: a later "now" would call fewer files racy than it should.
      checkedAtMs = clock.now().getTime()
      read = await readFileBytes(scope, path, probe.stat)
      counters.filesRead++
    }
    if (!read) {
      counters.skipped++
      if (stored) sink.remove(path)
      return
    }
    const isRacy = read.stat.mtimeMs >= checkedAtMs - RACY_WINDOW_MS
    const hash = hashBytes(read.bytes)
    if (stored && stored.hash === hash) {
      const isSettled = isSameStat(stored, read.stat) && Boolean(stored.isRacy) === isRacy
      if (!isSettled) sink.touch({ path, stat: read.stat, checkedAtMs, isRacy })
      return
    }
    const chunks = chunkText(read.bytes.toString('utf8'))
    sink.upsert({ path, dir: parentOf(path), stat: read.stat, hash, chunks, checkedAtMs, isRacy })
  })
}

/** The content hash stored per file (sha256, hex). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
