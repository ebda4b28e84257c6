// The offline dream's closing text: days summarised, facts added or superseded, files touched, what is left.
import { plural } from './text.js'
import type { IndexResult } from './memory-index.js'
import type { DayOutcome } from './summarise-days.js'
import type { MergeOutcome } from './types.js'

export interface DreamReport {
  days: readonly string[]
  messages: number
  dayOutcomes: readonly DayOutcome[]
  merges: readonly MergeOutcome[]
  /** Memory file names written. */
  touched: readonly string[]
  /** Days whose days/ page was written. */
  pagesWritten: readonly string[]
  index: IndexResult | null
}

function subjectOf(outcome: MergeOutcome): string {
  if (outcome.fact.kind === 'rename') return 'name'
  const headline = outcome.fact.headline
  if (headline && headline.includes(':')) return headline.slice(0, headline.indexOf(':'))
  return outcome.fact.key.split('.').slice(1).join(' ').replace(/-/g, ' ')
}

function listed(items: readonly string[], max = 6): string {
  return items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')} and ${items.length - max} more`
}

/** A short plain-text report; it becomes the summary posted back to the chat. */
export function describeDream(report: DreamReport, problems: readonly string[]): string {
  const window = `${report.days[0] ?? ''} → ${report.days.at(-1) ?? ''}`
  const parts: string[] = []
  const summarised = report.dayOutcomes.filter((outcome) => outcome.isWritten).map((outcome) => outcome.day)
  if (summarised.length > 0)
    parts.push(`summarised ${plural(summarised.length, 'day')} (${listed(summarised)})`)
  const added = report.merges.filter(
    (merge) => merge.action === 'added' || merge.action === 'historical',
  ).length
  const superseded = report.merges.filter((merge) => merge.action === 'superseded')
  if (added > 0) parts.push(`${plural(added, 'fact')} added`)
  if (superseded.length > 0) {
    const changes = superseded.map((merge) => `${subjectOf(merge)}: ${merge.replaced} → ${merge.fact.value}`)
    parts.push(`${superseded.length} superseded (${listed(changes, 3)})`)
  }
  if (report.pagesWritten.length > 0) parts.push(`day pages for ${listed(report.pagesWritten)}`)
  const trimmed = report.index?.trimmed.length ?? 0
  if (trimmed > 0) parts.push(`MEMORY.md trimmed ${trimmed} old day pointers`)
  const head = `Offline dream over ${window} (${report.messages} messages)`
  const lines = [
    parts.length > 0
      ? `${head}: ${parts.join('; ')}.`
      : `${head}: nothing new for the memory files; no day needed a summary.`,
  ]
  if (report.touched.length > 0) lines.push(`Memory files touched: ${report.touched.join(', ')}.`)
  const open = report.dayOutcomes
    .filter((outcome) => outcome.after !== 'complete')
    .map((outcome) => `${outcome.day} (${outcome.after})`)
  if (open.length > 0) lines.push(`Unresolved days: ${listed(open)}.`)
  if (report.index?.isOverBudget) {
    lines.push('MEMORY.md is over its budget because of text outside the dream block; left as written.')
  }
  if (problems.length > 0) lines.push(`Problems: ${listed([...problems], 3)}`)
  return lines.join('\n')
}
