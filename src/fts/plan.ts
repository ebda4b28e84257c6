// Decides which files a refresh looks at: a full walk, or the cheap sweep (changed dirs, racy rows, a slice).
import type { Clock } from '../clock.js'
import type { StateDb } from '../db/state.js'
import { listDir, mapLimit, statDir } from './probe.js'
import { isInScope, parentOf, type IndexScope } from './scope.js'
import {
  loadAllFiles,
  loadDirs,
  loadFile,
  loadFilesInDir,
  loadRacyFiles,
  loadSweepSlice,
  readMeta,
} from './store.js'
import type { DirRow, FileRow, FileStat } from './types.js'

/** Stats and listings in flight at once: enough to keep the libuv pool busy, few enough to stay polite. */
export const FS_CONCURRENCY = 32

export interface Candidate {
  stored?: FileRow
  /** Named by the journal or a hit verification rather than found by a walk: always read, parents checked. */
  explicit: boolean
}

export interface RefreshCounters {
  filesRead: number
  filesStatted: number
  dirsStatted: number
  dirsScanned: number
  skipped: number
}

export interface ScanPlan {
  candidates: Map<string, Candidate>
  removedFiles: Set<string>
  removedTrees: Set<string>
  /** Directories listed by this refresh, with the stat taken before listing them. */
  scannedDirs: ScannedDir[]
  sweepCursor?: string
  counters: RefreshCounters
}

/** `checkedAtMs` is taken before the stat, so the racy test errs towards listing the dir again. */
export interface ScannedDir {
  path: string
  stat: FileStat
  checkedAtMs: number
}

export function emptyPlan(): ScanPlan {
  const counters = { filesRead: 0, filesStatted: 0, dirsStatted: 0, dirsScanned: 0, skipped: 0 }
  return {
    candidates: new Map(),
    removedFiles: new Set(),
    removedTrees: new Set(),
    scannedDirs: [],
    counters,
  }
}

/** Equal stats (size, mtime, ctime, inode): the file is presumed unchanged unless its row is racy. */
export function isSameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

/** A directory's own size is filesystem noise; mtime, ctime and inode tell whether its entries changed. */
function isSameDirStat(row: DirRow, stat: FileStat): boolean {
  return row.mtimeMs === stat.mtimeMs && row.ctimeMs === stat.ctimeMs && row.ino === stat.ino
}

/**
 * Walks every root; every stored file or dir the walk does not reach is removed. With `ignoreStored` (the
 * stored index is being wiped in the same transaction) every file counts as new and is read.
 */
export async function planFullWalk(
  state: StateDb,
  scope: IndexScope,
  clock: Clock,
  ignoreStored = false,
): Promise<ScanPlan> {
  const plan = emptyPlan()
  const stored = ignoreStored ? new Map<string, FileRow>() : loadAllFiles(state)
  const byDir = new Map<string, Map<string, FileRow>>()
  for (const row of stored.values()) {
    const inDir = byDir.get(row.dir) ?? new Map<string, FileRow>()
    byDir.set(row.dir, inDir.set(row.path, row))
  }
  await walkDirs(scope, clock, scope.roots, plan, (dir) => byDir.get(dir) ?? new Map())
  const reached = new Set(plan.scannedDirs.map((dir) => dir.path))
  for (const path of stored.keys()) {
    if (!plan.candidates.has(path)) plan.removedFiles.add(path)
  }
  for (const dir of ignoreStored ? [] : loadDirs(state)) {
    if (!reached.has(dir.path)) plan.removedTrees.add(dir.path)
  }
  return plan
}

/**
 * The cheap sweep. Creating, deleting or renaming an entry changes its directory's mtime and ctime (atomic
 * writers and most editors save by rename), so only directories are stat'ed, and only the changed ones are
 * listed and their files stat'ed. Files named by the journal, racy rows and the next rolling-sweep slice are
 * checked too; in-place edits that leave the directory alone are the slice's (and hit verification's) job.
 */
export async function planSweep(
  state: StateDb,
  scope: IndexScope,
  clock: Clock,
  sweepFiles: number,
): Promise<ScanPlan> {
  const plan = emptyPlan()
  const stored = new Map(loadDirs(state).map((row) => [row.path, row]))
  const children = childrenOf(stored.values())
  const roots = new Set(scope.roots)
  const toStat = [...new Set([...stored.keys(), ...roots])]
  const checkedAtMs = clock.now().getTime()
  const stats = await mapLimit(toStat, FS_CONCURRENCY, (dir) => statDir(scope, dir, roots.has(dir)))
  plan.counters.dirsStatted += toStat.length
  const changed: ScannedDir[] = []
  const fresh: string[] = []
  toStat.forEach((dir, index) => {
    const stat = stats[index]
    const row = stored.get(dir)
    if (!stat) {
      if (row) plan.removedTrees.add(dir)
    } else if (!row) {
      fresh.push(dir)
    } else if (row.isRacy || !isSameDirStat(row, stat)) {
      changed.push({ path: dir, stat, checkedAtMs })
    }
  })
  const listings = await mapLimit(changed, FS_CONCURRENCY, (dir) => listDir(scope, dir.path))
  changed.forEach((dir, index) => {
    const listing = listings[index]
    if (!listing) {
      plan.removedTrees.add(dir.path)
      return
    }
    recordListing(plan, dir, listing.files, byPath(loadFilesInDir(state, dir.path)))
    const listed = new Set(listing.dirs)
    fresh.push(...listing.dirs.filter((sub) => !stored.has(sub)))
    for (const child of children.get(dir.path) ?? []) {
      if (!listed.has(child)) plan.removedTrees.add(child)
    }
  })
  await walkDirs(scope, clock, fresh, plan, (dir) => byPath(loadFilesInDir(state, dir)))
  for (const row of loadRacyFiles(state)) addStored(plan, row)
  const slice = loadSweepSlice(state, readMeta(state, 'sweep_cursor') ?? '', sweepFiles)
  for (const row of slice) addStored(plan, row)
  plan.sweepCursor = slice.at(-1)?.path
  return plan
}

/** Adds the journal's paths as explicit candidates; paths the rules exclude only ever leave the index. */
export function addExplicit(
  state: StateDb,
  scope: IndexScope,
  plan: ScanPlan,
  paths: readonly string[],
): void {
  for (const path of paths) {
    const stored = plan.candidates.get(path)?.stored ?? loadFile(state, path)
    if (isInScope(scope, path)) plan.candidates.set(path, { stored, explicit: true })
    else if (stored) plan.removedFiles.add(path)
  }
}

/** Lists directories level by level from `starts`, adding their files as candidates. */
async function walkDirs(
  scope: IndexScope,
  clock: Clock,
  starts: readonly string[],
  plan: ScanPlan,
  storedIn: (dir: string) => Map<string, FileRow>,
): Promise<void> {
  const roots = new Set(scope.roots)
  let level = [...starts]
  while (level.length > 0) {
    const checkedAtMs = clock.now().getTime()
    const found = await mapLimit(level, FS_CONCURRENCY, async (dir) => {
      const stat = await statDir(scope, dir, roots.has(dir))
      const listing = stat && (await listDir(scope, dir))
      return stat && listing ? { dir: { path: dir, stat, checkedAtMs }, listing } : undefined
    })
    plan.counters.dirsStatted += level.length
    level = []
    for (const entry of found) {
      if (!entry) continue
      recordListing(plan, entry.dir, entry.listing.files, storedIn(entry.dir.path))
      level.push(...entry.listing.dirs)
    }
  }
}

function recordListing(
  plan: ScanPlan,
  dir: ScannedDir,
  files: readonly string[],
  stored: Map<string, FileRow>,
): void {
  plan.counters.dirsScanned++
  plan.scannedDirs.push(dir)
  for (const file of files) {
    plan.candidates.set(file, { stored: stored.get(file), explicit: false })
    stored.delete(file)
  }
  for (const gone of stored.keys()) plan.removedFiles.add(gone)
}

function addStored(plan: ScanPlan, row: FileRow): void {
  if (plan.candidates.has(row.path) || plan.removedFiles.has(row.path)) return
  plan.candidates.set(row.path, { stored: row, explicit: false })
}

function byPath(rows: FileRow[]): Map<string, FileRow> {
  return new Map(rows.map((row) => [row.path, row]))
}

function childrenOf(dirs: Iterable<DirRow>): Map<string, string[]> {
  const children = new Map<string, string[]>()
  for (const { path } of dirs) {
    if (path === '') continue
    const parent = parentOf(path)
    const siblings = children.get(parent)
    if (siblings) siblings.push(path)
    else children.set(parent, [path])
  }
  return children
}
