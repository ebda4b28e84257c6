// The vocabulary of the change ledger: one file's change, a run's totals, loss-guard flags.
export type { ReviewMode } from '../config/schema.js'

/** What one run did to one file, from its pre-dream backup to what it left (or would leave). */
export interface FileChange {
  /** Workspace-relative, '/'-separated, e.g. notes/memory/user.md. */
  path: string
  change: 'added' | 'modified' | 'removed'
  /** sha256 (hex) before the run, or null when the file did not exist. */
  beforeSha256: string | null
  /** sha256 (hex) after the run, or null when the run removed the file. */
  afterSha256: string | null
  beforeBytes: number
  afterBytes: number
  linesAdded: number
  linesRemoved: number
  /** Unified diff before → after ('' when too large to diff; the counts are then whole-file). */
  diff: string
  tooLarge: boolean
}

/** The bytes of one changed file on each side; null where the file does not exist. */
export interface ChangedContent {
  path: string
  before: Buffer | null
  after: Buffer | null
}

/** `fact`: a keyed-fact bullet (`- **Works at:** …`) gone as a bullet, whatever became of its words. */
export type LossKind = 'name' | 'number' | 'date' | 'fact'

/** A proper noun, number, date or keyed fact that was in memory/ before the run and is nowhere in memory after it. */
export interface LossFlag {
  kind: LossKind
  term: string
  /** The memory file it vanished from. */
  path: string
  /** The line it stood on, shortened. */
  line: string
}

/** A run's ledger in numbers: what the summary, the CLI and the dashboard show first. */
export interface ChangeTotals {
  files: number
  linesAdded: number
  linesRemoved: number
  /** Memory entries newly struck through / marked superseded (kept, not deleted). */
  entriesSuperseded: number
  /** Memory bullets that are gone without a trace: not kept, not struck through, not moved. */
  factsDropped: number
  /** Size of notes/memory/ before the run (bytes), the loss guard's denominator. */
  memoryBytes: number
  /** Net bytes removed from notes/memory/ outside dream-owned blocks. */
  memoryBytesRemoved: number
  /** memoryBytesRemoved / memoryBytes, 0..1. */
  removedShare: number
}
