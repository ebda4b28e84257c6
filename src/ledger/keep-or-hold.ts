// Whether a run's changes may be kept: the ledger against its backup, the loss guard, and the hold rules.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BackupInfo } from '../backup/create.js'
import type { ResolvedConfig } from '../config/schema.js'
import { isTempOrHidden } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { SecretKind } from '../secrets/types.js'
import { collectRunContents, describeChange } from './ledger.js'
import { boilerplateOf, guardMemory, type GuardResult } from './loss-guard.js'
import type { ChangedContent, ChangeTotals, FileChange, LossFlag } from './types.js'

export interface AssessInput {
  /** The pre-dream backup: the "before" of every file. */
  backup: Pick<BackupInfo, 'file' | 'manifest'>
  /** Absolute paths of every file the run wrote. */
  written: readonly string[]
}

/** A run's changes weighed: the ledger, the loss guard's findings, and why (if at all) it must wait for a person. */
export interface Assessment {
  contents: ChangedContent[]
  changes: FileChange[]
  totals: ChangeTotals
  flags: LossFlag[]
  flaggedCount: number
  /** Keyed fact bullets the loss guard checked (those the changed memory files held before the run). */
  factsChecked: number
  /** Empty when the changes may be kept. */
  reasons: string[]
}

/**
 * Diffs every written file against the backup, runs the loss guard and applies the hold rules. `keepKinds`: the
 * secret kinds the user keeps, which the guard reads as they are (any other secret withheld is no loss).
 */
export async function assessChanges(
  input: AssessInput,
  paths: WorkspacePaths,
  dream: HoldRules,
  keepKinds: readonly SecretKind[] = [],
): Promise<Assessment> {
  const contents = await collectRunContents(paths.workspace, input.backup, input.written)
  const changes = contents.map(describeChange)
  const guard = await guardMemory({
    contents,
    manifest: input.backup.manifest,
    keepKinds,
    readUnchangedMemory: (changed) => readMemoryTexts(paths, changed),
    boilerplate: await readBoilerplate(
      paths,
      contents.map((content) => content.path),
    ),
  })
  const totals = totalsOf(changes, guard)
  const reasons = holdReasons(dream, totals, guard)
  const { flags, flaggedCount, factsChecked } = guard
  return { contents, changes, totals, flags, flaggedCount, factsChecked, reasons }
}

export function totalsOf(changes: readonly FileChange[], guard?: GuardResult): ChangeTotals {
  return {
    files: changes.length,
    linesAdded: changes.reduce((sum, change) => sum + change.linesAdded, 0),
    linesRemoved: changes.reduce((sum, change) => sum + change.linesRemoved, 0),
    entriesSuperseded: guard?.entriesSuperseded ?? 0,
    factsDropped: guard?.factsDropped ?? 0,
    memoryBytes: guard?.memoryBytes ?? 0,
    memoryBytesRemoved: guard?.memoryBytesRemoved ?? 0,
    removedShare: guard?.removedShare ?? 0,
  }
}

/** The settings the hold rules read. */
export type HoldRules = Pick<ResolvedConfig['dream'], 'review' | 'lossGuard'>

/** Why a run must wait for a person, in words; empty when its changes may be kept. */
export function holdReasons(
  dream: HoldRules,
  totals: ChangeTotals,
  guard: Pick<GuardResult, 'flaggedCount' | 'flags'>,
): string[] {
  if (totals.files === 0 || dream.review === 'never') return []
  if (dream.review === 'always') return ['review is set to "always"']
  const reasons: string[] = []
  const limit = dream.lossGuard.maxRemovedShare
  if (totals.removedShare > limit) {
    const bytes = `${totals.memoryBytesRemoved} of ${totals.memoryBytes} bytes; the limit is ${percent(limit)}`
    reasons.push(`it would remove ${percent(totals.removedShare)} of notes/memory/ (${bytes})`)
  }
  if (guard.flaggedCount > dream.lossGuard.maxFlaggedItems) {
    const facts = guard.flags.filter((flag) => flag.kind === 'fact')
    const terms = guard.flags.filter((flag) => flag.kind !== 'fact')
    // Fact flags come first in `flags` and are never capped away before term flags, so the rest are terms.
    const termCount = guard.flaggedCount - facts.length
    if (facts.length > 0)
      reasons.push(
        `${facts.length} keyed fact bullet(s) would be dropped from memory: ${listed(facts, facts.length)}`,
      )
    if (termCount > 0)
      reasons.push(
        `${termCount} name(s), number(s) or date(s) would vanish from memory: ${listed(terms, termCount)}`,
      )
  }
  return reasons
}

/** The first five terms, and how many more. */
function listed(flags: readonly LossFlag[], total: number): string {
  const named = flags
    .slice(0, 5)
    .map((flag) => flag.term)
    .join(', ')
  return `${named}${total > 5 ? `, +${total - 5} more` : ''}`
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`
}

/** Template lines of each changed top-level memory file that ships a template (notes-template/<name>). */
async function readBoilerplate(
  paths: WorkspacePaths,
  changed: readonly string[],
): Promise<Map<string, Set<string>>> {
  const boilerplate = new Map<string, Set<string>>()
  for (const path of changed) {
    const name = /^notes\/memory\/([^/]+\.md)$/.exec(path)?.[1]
    if (!name) continue
    try {
      boilerplate.set(path, boilerplateOf(await readFile(join(paths.template, name), 'utf8')))
    } catch {
      // No template for this file (or none shipped): all of it is guarded.
    }
  }
  return boilerplate
}

/** Texts of the memory files (and day pages) the run did not change: where a moved term may still live. */
async function readMemoryTexts(paths: WorkspacePaths, changed: ReadonlySet<string>): Promise<string[]> {
  const texts: string[] = []
  for (const [dir, rel] of [
    [paths.memory, 'notes/memory'],
    [paths.days, 'notes/memory/days'],
  ] as const) {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch {
      continue
    }
    for (const name of names.sort()) {
      if (!name.endsWith('.md') || isTempOrHidden(name) || changed.has(`${rel}/${name}`)) continue
      try {
        texts.push(await readFile(join(dir, name), 'utf8'))
      } catch {
        // A folder named *.md or a file removed meanwhile holds no memory to compare with.
      }
    }
  }
  return texts
}
