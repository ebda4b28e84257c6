// What MEMORY.md points at: a one-line description of each memory file and a hook for each day. The fact files
// come in order of their most important live fact, so the file to read first is named first.
import { isCurrentFactLine } from '../../notes/fact-archive.js'
import { lineImportance, type FreshnessParams } from '../../notes/fact-freshness.js'
import { datedPlans } from './current-state.js'
import { parseEntries } from './memory-file.js'
import type { DayPointer, FilePointer } from './memory-index.js'
import { dayTopics } from './day-topics.js'
import { distinctFacts, factLabel } from './digest.js'
import { plural, truncateWords } from './text.js'
import type { Fact, WindowMessage } from './types.js'
import type { WordWeights } from './word-weights.js'

export interface IndexSources {
  /** Memory file texts after this run's changes, by name. */
  texts: ReadonlyMap<string, string>
  days: readonly string[]
  messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>
  factsByDay: ReadonlyMap<string, readonly Fact[]>
  /** Days with a notes/memory/days/ page after this run. */
  dayPages: ReadonlySet<string>
  weights: WordWeights
  /** The local day importance is measured on; without it (and `freshness`) the files keep their fixed order. */
  today?: string
  freshness?: FreshnessParams
}

// Live facts: current and not archived. Archived ones stay in the file (and searchable), not in the counts.
function liveCount(text: string): number {
  return parseEntries(text).filter((entry) => entry.supersededOn === null && !entry.isArchived).length
}

// The headline value of a live entry, e.g. "Maya Ortega" for user.name.
function currentValue(text: string, key: string): string | null {
  const live = parseEntries(text).filter(
    (entry) => entry.key === key && entry.supersededOn === null && !entry.isArchived,
  )
  return live.at(-1)?.value ?? null
}

/** The highest importance of a file's live facts on `today` (0 with none, or none dated). */
function topImportance(text: string, today: string, freshness: FreshnessParams): number {
  const live = new Set(
    parseEntries(text)
      .filter((entry) => !entry.isArchived)
      .map((entry) => entry.line),
  )
  let top = 0
  text.split('\n').forEach((line, index) => {
    if (!live.has(index) || !isCurrentFactLine(line)) return
    top = Math.max(top, lineImportance(line, today, freshness) ?? 0)
  })
  return top
}

/** The four fact files' pointers by their most important live fact; equals keep their fixed order. */
function byImportance(pointers: FilePointer[], sources: IndexSources): FilePointer[] {
  const { today, freshness } = sources
  if (today === undefined || freshness === undefined) return pointers
  const facts = pointers.slice(0, 4)
  const rank = new Map(
    facts.map((pointer) => [
      pointer.name,
      topImportance(sources.texts.get(pointer.name) ?? '', today, freshness),
    ]),
  )
  const ordered = [...facts].sort((a, b) => (rank.get(b.name) ?? 0) - (rank.get(a.name) ?? 0))
  return [...ordered, ...pointers.slice(4)]
}

export function filePointers(sources: IndexSources): FilePointer[] {
  const text = (name: string): string => sources.texts.get(name) ?? ''
  const who = ['user.name', 'user.city', 'user.job']
    .map((key) => currentValue(text('user.md'), key))
    .filter((value): value is string => value !== null)
  const today = sources.days.at(-1) ?? ''
  const next = datedPlans(text('project.md'), today, today, 1)[0]
  const nextDate = next ? /\*\*(\d{4}-\d{2}-\d{2})/.exec(next)?.[1] : undefined
  const window = `${sources.days[0] ?? ''} → ${today}`
  const count = (name: string, one: string, many?: string): string => plural(liveCount(text(name)), one, many)
  const people = who.length > 0 ? `: ${who.join(', ')}` : ''
  const upcoming = nextDate ? `; next ${nextDate}` : ''
  return byImportance(
    [
      { name: 'user.md', description: `who the user is${people} (${count('user.md', 'fact')})` },
      { name: 'feedback.md', description: `how to answer (${count('feedback.md', 'item')})` },
      {
        name: 'project.md',
        description: `decisions, plans, deadlines (${count('project.md', 'entry', 'entries')}${upcoming})`,
      },
      {
        name: 'reference.md',
        description: `ids, addresses, accounts (${count('reference.md', 'entry', 'entries')})`,
      },
      { name: 'current-state.md', description: 'open threads, dated plans, day states' },
      { name: 'recent-context.md', description: `the days ${window} in brief` },
    ],
    sources,
  )
}

/** One pointer per window day with messages and a days/ page (daily notes get none: see memory-index.ts). */
export function dayPointers(sources: IndexSources): DayPointer[] {
  const pointers: DayPointer[] = []
  const paged = sources.days.filter(
    (day) => sources.dayPages.has(day) && (sources.messagesByDay.get(day)?.length ?? 0) > 0,
  )
  for (const day of paged) {
    const messages = sources.messagesByDay.get(day) ?? []
    const facts = distinctFacts(sources.factsByDay.get(day) ?? []).filter(
      (fact) => fact.headline !== null && fact.kind !== 'plan',
    )
    const hook = [
      ...facts.slice(0, 2).map((fact) => factLabel(fact, 40)),
      ...dayTopics(messages, sources.weights),
    ]
      .slice(0, 5)
      .join(', ')
    pointers.push({ day, target: `days/${day}.md`, hook: truncateWords(hook, 100) })
  }
  return pointers
}
