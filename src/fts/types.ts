// The FTS index's shapes: what a refresh takes and reports, what a search returns, the rows behind them.
import type { Clock } from '../clock.js'
import type { StateDb } from '../db/state.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { IndexConfig } from './scope.js'

export interface RefreshInput {
  state: StateDb
  paths: WorkspacePaths
  config: IndexConfig
  /** Walk every root and stat every file, not just the dir sweep (`index refresh --full`). @default false */
  full?: boolean
  /**
   * Indexed files the rolling sweep re-stats per incremental refresh, so in-place edits that leave directory
   * mtimes alone are still found within a bounded number of refreshes. @default max(8, ceil(indexed / 64))
   */
  sweepFiles?: number
  /**
   * Source of "now" for `lastRefreshAt` and the racy-timestamp check, which compares it with file mtimes:
   * a clock behind the filesystem's makes every row racy (re-hashed each time: slow, still correct), one
   * ahead of it turns the check off. @default systemClock
   */
  clock?: Clock
}

export interface RefreshResult {
  added: number
  updated: number
  removed: number
  /** Indexed files left as they were (checked and equal, or not suspected of change). */
  unchanged: number
  /** Files whose bytes were read (new, changed, marked dirty, or in doubt); 0 on a no-change refresh. */
  filesRead: number
  /** Files stat'ed (directory sweep of changed dirs, rolling sweep, racy rows, journal, or a full walk). */
  filesStatted: number
  dirsStatted: number
  /** Directories whose entries were listed (changed, new or racy ones; all of them on a full walk). */
  dirsScanned: number
  /** Entries seen but not indexable: too large, symlinked out of the workspace, unreadable. */
  skipped: number
  /** True when this refresh walked everything (asked for, first run, or roots/extensions changed). */
  full: boolean
}

export interface SearchInput {
  state: StateDb
  paths: WorkspacePaths
  config: IndexConfig
  query: string
  /** At most this many hits (1–500). @default 20 */
  limit?: number
  /** Only paths starting with this string, workspace-relative with '/' separators (e.g. 'notes/memory/'). */
  pathPrefix?: string
  /** Run an incremental refresh (journal + directory sweep) before querying. @default true */
  refresh?: boolean
  clock?: Clock
}

export interface SearchHit {
  /** Workspace-relative, '/' separators. */
  path: string
  /** 1-based line of the first match in the chunk. */
  line: number
  /** That line (trimmed to ~200 chars) with matches wrapped in « ». */
  snippet: string
  /** Higher is better: -bm25 for word and trigram matches, an occurrence count for the LIKE fallback. */
  score: number
}

/** The parts of a stat that decide "maybe changed": any difference means read and hash. */
export interface FileStat {
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

/** One indexed file as stored in fts_files. */
export interface FileRow extends FileStat {
  id: number
  path: string
  dir: string
  hash: string
  checkedAtMs: number
  /** 1 when the file's mtime was within the racy window of its read: equal stats prove nothing. */
  isRacy: 0 | 1
}

/** One directory under a root as stored in fts_dirs; its mtime/ctime change on create, delete and rename. */
export interface DirRow {
  path: string
  mtimeMs: number
  ctimeMs: number
  ino: number
  isRacy: 0 | 1
}
