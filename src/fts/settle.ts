// Settles each candidate file: stat it, skip it when the stat vouches for it, else read, hash and chunk it.
import { createHash } from 'node:crypto'
import type { Clock } from '../clock.js'
import type { FileTouch, FileUpsert } from './apply.js'
import { chunkText } from './chunk.js'
import { FS_CONCURRENCY, isSameStat, type Candidate, type RefreshCounters } from './plan.js'
import { mapLimit, probeFile, readFileBytes, readNewFile } from './probe.js'
import { parentOf, type IndexScope } from './scope.js'
import type { FileStat } from './types.js'

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
    const read = await readCandidate(scope, path, candidate, counters, clock)
    if (read === 'unchanged') return
    if (read === 'skipped' || read === 'missing') {
      if (read === 'skipped') counters.skipped++
      if (stored) sink.remove(path)
      return
    }
    const { bytes, stat, checkedAtMs } = read
    const isRacy = stat.mtimeMs >= checkedAtMs - RACY_WINDOW_MS
    const hash = hashBytes(bytes)
    if (stored && stored.hash === hash) {
      const isSettled = isSameStat(stored, stat) && Boolean(stored.isRacy) === isRacy
      if (!isSettled) sink.touch({ path, stat, checkedAtMs, isRacy })
      return
    }
    const chunks = chunkText(bytes.toString('utf8'), scope.keepSecretKinds)
    sink.upsert({ path, dir: parentOf(path), stat, hash, chunks, checkedAtMs, isRacy })
  })
}

type CandidateRead =
  { bytes: Buffer; stat: FileStat; checkedAtMs: number } | 'unchanged' | 'skipped' | 'missing'

/** A candidate's bytes with the stat they were read under, or why there are none. */
async function readCandidate(
  scope: IndexScope,
  path: string,
  candidate: Candidate,
  counters: RefreshCounters,
  clock: Clock,
): Promise<CandidateRead> {
  const { stored, explicit } = candidate
  if (!stored && !explicit) {
    // Taken before the read: a later "now" would call fewer files racy than it should.
    const checkedAtMs = clock.now().getTime()
    const direct = await readNewFile(scope, path)
    if (direct) {
      counters.filesStatted++
      if (direct.status !== 'read') return direct.status
      counters.filesRead++
      return { bytes: direct.bytes, stat: direct.stat, checkedAtMs }
    }
  }
  // A second try covers a file replaced (new inode) between its stat and its read, as atomic saves do.
  for (let attempt = 1; attempt <= 2; attempt++) {
    const probe = await probeFile(scope, path, explicit)
    counters.filesStatted++
    if (probe.status !== 'file') return probe.status
    if (stored && !explicit && !stored.isRacy && isSameStat(stored, probe.stat)) return 'unchanged'
    const checkedAtMs = clock.now().getTime()
    const read = await readFileBytes(scope, path, probe.stat)
    counters.filesRead++
    if (read) return { ...read, checkedAtMs }
  }
  return 'skipped'
}

/** The content hash stored per file (sha256, hex). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
