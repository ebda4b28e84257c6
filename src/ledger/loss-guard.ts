// The loss guard: compares notes/memory/ before and after a run and names what vanished without a trace.
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import type { ManifestEntry } from '../backup/manifest.js'
import { droppedKeyedFacts, keyedFactsIn } from './keyed-facts.js'
import { addMentions, extractTerms, midSentenceNames, withoutComments, type Term } from './terms.js'
import type { ChangedContent, LossFlag } from './types.js'

const MEMORY_PREFIX = 'notes/memory/'
/**
 * recent-context.md is window-scoped by design: every dream rewrites it for its own days, and what leaves it
 * stays in the daily notes it digests. Guarding it would hold every run whose window moved.
 */
const WINDOW_SCOPED = new Set(['notes/memory/recent-context.md'])
// Dream-owned blocks are regenerated from other notes by every run; what people and facts own lies outside.
const OWNED_BLOCK = /<!-- dreamlane:begin (\S+) -->[\s\S]*?<!-- dreamlane:end \1 -->/g
const STRUCK = /~~[^~\n]+~~|\bsuperseded\b/i
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(\S.*)$/
/** Flags kept in the run record; the count covers all of them. */
const MAX_FLAGS = 50

export interface GuardInput {
  /** Every file the run changed, before and after. */
  contents: readonly ChangedContent[]
  /** The pre-dream backup's manifest: sizes of all of memory/, changed or not. */
  manifest: readonly ManifestEntry[]
  /** Texts of the memory files the run did not change; read only when a term seems to have vanished. */
  readUnchangedMemory: (changed: ReadonlySet<string>) => Promise<string[]>
  /** Per memory file, the lines of its shipped template (headings, the explanatory quote): not memory. */
  boilerplate?: ReadonlyMap<string, ReadonlySet<string>>
  /** Secret kinds the user keeps (`privacy.keepSecretKinds`): read as they are, not withheld. @default none */
  keepKinds?: readonly SecretKind[]
}

export interface GuardResult {
  flags: LossFlag[]
  flaggedCount: number
  /** Keyed fact bullets the changed memory files held before the run: what the keyed-fact check covered. */
  factsChecked: number
  entriesSuperseded: number
  factsDropped: number
  memoryBytes: number
  memoryBytesRemoved: number
  removedShare: number
}

export function isGuardedPath(path: string): boolean {
  return path.startsWith(MEMORY_PREFIX) && !WINDOW_SCOPED.has(path)
}

/**
 * What the loss guard looks at in a memory file: everything but the blocks a dream regenerates and the
 * lines of the starter template (a first dream rewriting the template loses nothing anyone wrote).
 */
export function guardedText(text: string, boilerplate: ReadonlySet<string> = new Set()): string {
  const kept = text.replace(OWNED_BLOCK, '')
  if (boilerplate.size === 0) return kept
  return kept
    .split('\n')
    .filter((line) => !boilerplate.has(line.trim()))
    .join('\n')
}

/** The non-blank lines of a template, trimmed: what guardedText leaves out. */
export function boilerplateOf(template: string): Set<string> {
  return new Set(
    template
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  )
}

interface Sides {
  path: string
  before: string
  after: string
}

export async function guardMemory(input: GuardInput): Promise<GuardResult> {
  const guarded: Sides[] = input.contents
    .filter((content) => isGuardedPath(content.path))
    .map((content) => ({
      path: content.path,
      // A secret withheld is no loss, and a flag's line must not show it: the guard reads the before text withheld.
      before: guardedText(
        withholdSecrets(content.before?.toString('utf8') ?? '', { keepKinds: input.keepKinds }).text,
        input.boilerplate?.get(content.path),
      ),
      after: guardedText(content.after?.toString('utf8') ?? '', input.boilerplate?.get(content.path)),
    }))
  const afterTexts = input.contents.map((content) => content.after?.toString('utf8') ?? '')
  const changedPaths = new Set(input.contents.map((content) => content.path))
  // Keyed facts first: a dropped fact bullet is named even when its words (and so its terms) live on.
  const vanished = [
    ...(await droppedKeyedFacts(
      guarded.map((side) => ({ path: side.path, text: side.before })),
      // A fact bullet lives in memory: one copied into a daily note has still left memory.
      input.contents
        .filter((content) => content.path.startsWith(MEMORY_PREFIX))
        .map((content) => content.after?.toString('utf8') ?? ''),
      () => input.readUnchangedMemory(changedPaths),
    )),
    ...(await vanishedTerms(guarded, afterTexts, input)),
  ]
  const memoryBytes = input.manifest
    .filter((entry) => isGuardedPath(entry.path))
    .reduce((sum, entry) => sum + entry.size, 0)
  const net = guarded.reduce(
    (sum, side) => sum + Buffer.byteLength(side.before) - Buffer.byteLength(side.after),
    0,
  )
  const memoryBytesRemoved = Math.max(0, net)
  return {
    flags: vanished.slice(0, MAX_FLAGS),
    flaggedCount: vanished.length,
    factsChecked: guarded.reduce((sum, side) => sum + keyedFactsIn(side.before).length, 0),
    entriesSuperseded: Math.max(
      0,
      guarded.reduce((sum, side) => sum + countStruck(side.after) - countStruck(side.before), 0),
    ),
    factsDropped: countDroppedFacts(guarded, afterTexts),
    memoryBytes,
    memoryBytesRemoved,
    removedShare: memoryBytes === 0 ? (memoryBytesRemoved > 0 ? 1 : 0) : memoryBytesRemoved / memoryBytes,
  }
}

/**
 * Terms of the changed memory files that no longer appear anywhere: not in what the run wrote (any file,
 * struck-through lines included — a superseded entry keeps its words) and not in the rest of memory/.
 */
async function vanishedTerms(
  guarded: readonly Sides[],
  afterTexts: readonly string[],
  input: GuardInput,
): Promise<LossFlag[]> {
  const names = midSentenceNames(guarded.map((side) => side.before))
  const candidates = new Map<string, Term & { path: string }>()
  for (const side of guarded) {
    for (const term of extractTerms(side.before, names)) {
      if (!candidates.has(term.key)) candidates.set(term.key, { ...term, path: side.path })
    }
  }
  if (candidates.size === 0) return []
  const mentioned = new Set<string>()
  for (const text of afterTexts) addMentions(mentioned, text)
  let missing = [...candidates.values()].filter((term) => !mentioned.has(term.key))
  if (missing.length === 0) return []
  for (const text of await input.readUnchangedMemory(new Set(input.contents.map((content) => content.path))))
    addMentions(mentioned, text)
  missing = missing.filter((term) => !mentioned.has(term.key))
  return missing.map((term) => ({ kind: term.kind, term: term.term, path: term.path, line: term.line }))
}

function countStruck(text: string): number {
  return text.split('\n').filter((line) => STRUCK.test(line)).length
}

function normalise(text: string): string {
  return withoutComments(text)
    .replace(/~~|\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/** Bullets of the changed memory files whose text is found nowhere in what the run wrote. */
function countDroppedFacts(guarded: readonly Sides[], afterTexts: readonly string[]): number {
  const after = afterTexts.map(normalise).join('\n')
  let dropped = 0
  for (const side of guarded) {
    for (const line of side.before.split('\n')) {
      const bullet = BULLET.exec(line)?.[1]
      if (!bullet) continue
      const text = normalise(bullet)
      if (text !== '' && !after.includes(text)) dropped += 1
    }
  }
  return dropped
}
