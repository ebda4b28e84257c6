// The ledger as text for people: per-file headers and unified diffs (ANSI-coloured on a terminal), totals, flags.
import type { ChangeTotals, FileChange, LossFlag } from './types.js'
import { describeCounts } from './ledger.js'

const ANSI = {
  red: '\x1b[31m',
  green: '\x1b[32m',
  cyan: '\x1b[36m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  reset: '\x1b[0m',
}

export interface RenderOptions {
  /** ANSI colours (for a TTY). @default false */
  color?: boolean
}

/** Every changed file: a header with its counts and hashes, then its unified diff. */
export function renderChanges(changes: readonly FileChange[], options: RenderOptions = {}): string {
  if (changes.length === 0) return 'no files changed'
  const paint = painter(options.color ?? false)
  const blocks = changes.map((change) => {
    const hashes = `${short(change.beforeSha256)} → ${short(change.afterSha256)}`
    const header =
      paint('bold', `${change.path}  ${change.change}  +${change.linesAdded} −${change.linesRemoved}`) +
      paint('dim', `  (${hashes})`)
    if (change.tooLarge)
      return `${header}\n  (too large for a line diff: ${change.beforeBytes} → ${change.afterBytes} bytes)`
    const lines = change.diff.split('\n').filter((line) => line !== '')
    return [header, ...lines.map((line) => colourLine(line, paint))].join('\n')
  })
  return blocks.join('\n\n')
}

function colourLine(line: string, paint: Painter): string {
  if (line.startsWith('+++') || line.startsWith('---')) return paint('bold', line)
  if (line.startsWith('@@')) return paint('cyan', line)
  if (line.startsWith('+')) return paint('green', line)
  if (line.startsWith('-')) return paint('red', line)
  return line
}

/** "3 files changed, +12 −4; 1 entry superseded, 0 facts dropped; 2.1% of memory removed" */
export function renderTotals(totals: ChangeTotals): string {
  const share = Math.round(totals.removedShare * 1000) / 10
  const superseded = `${totals.entriesSuperseded} entr${totals.entriesSuperseded === 1 ? 'y' : 'ies'} superseded`
  const removed = `${share}% of memory removed (${totals.memoryBytesRemoved} of ${totals.memoryBytes} bytes)`
  return `${describeCounts(totals)}; ${superseded}, ${totals.factsDropped} fact(s) dropped; ${removed}`
}

/** One line per flagged item: kind, term, file, the line it stood on. */
export function renderFlags(flags: readonly LossFlag[]): string[] {
  return flags.map((flag) => `${flag.kind.padEnd(6)} ${flag.term} — ${flag.path}: ${flag.line}`)
}

type Painter = (colour: keyof typeof ANSI, text: string) => string

function painter(color: boolean): Painter {
  return (colour, text) => (color ? `${ANSI[colour]}${text}${ANSI.reset}` : text)
}

function short(hash: string | null): string {
  return hash === null ? 'none' : hash.slice(0, 10)
}
