// Memory-file entries: one bullet per fact, keyed by a trailing `<!-- key: … -->` comment. Only such lines
// are ever touched; every other byte of the file (what people wrote) is kept as it is.
import { ARCHIVE_HEADING } from '../../notes/fact-archive.js'
import { freshnessOf, reinforce, withSeen } from '../../notes/fact-freshness.js'
import { sanitizeField } from './text.js'
import type { Fact } from './types.js'

/** A keyed bullet found in a memory file. */
export interface MemoryEntry {
  /** Line index in the file. */
  line: number
  key: string
  /** The slot value, for single-valued subjects. */
  value: string | null
  /** Day the entry was superseded, or null while it is current. */
  supersededOn: string | null
  /** Day the fact was stated: the last `[[YYYY-MM-DD]]` link on the line. */
  day: string | null
  /** Last day the fact was stated again (its `seen:` field), else `day`. */
  lastSeen: string | null
  /** The entry sits under `## Archive`: faded, kept, and still the fact's record. */
  isArchived: boolean
  /** The bullet text before the comment. */
  visible: string
  bullet: string
}

const ENTRY =
  /^(\s*[-*+] )(.*?)\s*<!-- key: ([^;\s]+)(?:; value: ([^;]*?))?(?:; superseded: (\d{4}-\d{2}-\d{2}))?(?:; seen: [^;]*?)? -->\s*$/
const DAY_LINK = /\[\[(\d{4}-\d{2}-\d{2})\]\]/g
const SECTION = /^#{1,2} /

/** Every keyed entry of a memory file, in file order. */
export function parseEntries(text: string): MemoryEntry[] {
  const entries: MemoryEntry[] = []
  let isArchived = false
  text.split('\n').forEach((raw, line) => {
    const clean = raw.replace(/\r$/, '')
    if (SECTION.test(clean)) isArchived = clean.trim().toLowerCase() === ARCHIVE_HEADING.toLowerCase()
    const match = ENTRY.exec(clean)
    if (!match) return
    const days = [...(match[2] as string).matchAll(DAY_LINK)]
    const day = days.at(-1)?.[1] ?? null
    entries.push({
      line,
      bullet: match[1] as string,
      visible: match[2] as string,
      key: match[3] as string,
      value: match[4] ?? null,
      supersededOn: match[5] ?? null,
      day,
      lastSeen: freshnessOf(clean)?.lastSeen ?? day,
      isArchived,
    })
  })
  return entries
}

/** Message text made safe for a one-line bullet: no line breaks, and no HTML comment can open or close. */
export function escapeInline(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/<!--/g, '&lt;!--').replace(/-->/g, '--&gt;').trim()
}

function comment(key: string, value: string | null, supersededOn: string | null): string {
  const parts = [`key: ${key}`]
  if (value !== null) parts.push(`value: ${sanitizeField(value)}`)
  if (supersededOn !== null) parts.push(`superseded: ${supersededOn}`)
  return `<!-- ${parts.join('; ')} -->`
}

/** The bullet for a current fact: `- **City: Porto** — <statement> [[2026-11-18]] <!-- key: user.city; value: Porto -->`. */
export function renderEntry(fact: Fact, key = fact.key): string {
  const head = fact.headline ? `**${escapeInline(fact.headline)}** — ` : ''
  return `- ${head}${escapeInline(fact.text)} [[${fact.day}]] ${comment(key, fact.isSingle ? fact.value : null, null)}`
}

function headlineWith(fact: Fact, value: string): string {
  if (!fact.headline) return value
  return fact.headline.endsWith(fact.value) ? `${fact.headline.slice(0, -fact.value.length)}${value}` : value
}

/**
 * The old value a statement names ("from Lisbon to Porto") when memory never held it: kept, struck through,
 * so the change is on record even if the earlier statement fell outside every window.
 */
export function renderNamedPrevious(fact: Fact, key: string, previous: string): string {
  const head = escapeInline(headlineWith(fact, previous))
  const mark = `superseded ${fact.day} → ${escapeInline(fact.value)}`
  return `- ~~**${head}**~~ — ${mark} [[${fact.day}]] ${comment(key, previous, fact.day)}`
}

/** An older statement learned after a newer one: recorded as already superseded by the current value. */
export function renderHistorical(fact: Fact, key: string, current: MemoryEntry): string {
  const on = current.day ?? fact.day
  const head = fact.headline ? `**${escapeInline(fact.headline)}** — ` : ''
  const body = `${head}${escapeInline(fact.text)} [[${fact.day}]]`
  return `- ~~${body}~~ — superseded ${on} → ${escapeInline(current.value ?? '')} ${comment(key, fact.value, on)}`
}

/** `entry`'s line struck through and marked "superseded <day> → <new value>"; its words are all kept. */
export function supersedeLine(entry: MemoryEntry, on: string, replacement: string): string {
  const mark = `superseded ${on} → ${escapeInline(replacement)}`
  return `${entry.bullet}~~${entry.visible}~~ — ${mark} ${comment(entry.key, entry.value, on)}`
}

/**
 * `text` with `entry` marked as stated again on `day`: its `seen:` field counts the day when it falls outside
 * the days already seen (a re-dream over the same days changes nothing). Unchanged text when it does not count.
 */
export function reinforceEntry(text: string, entry: MemoryEntry, day: string): string {
  const line = text.split('\n')[entry.line] ?? ''
  const freshness = freshnessOf(line)
  if (!freshness) return text
  const next = reinforce(freshness, day)
  if (next === freshness) return text
  return replaceLine(text, entry.line, withSeen(line, next))
}

/** `text` with line `index` replaced. */
export function replaceLine(text: string, index: number, line: string): string {
  const lines = text.split('\n')
  lines[index] = line
  return lines.join('\n')
}

/** The shared heading helper, under the name this engine uses. */
export { insertUnderHeading as insertInSection } from '../../notes/markdown.js'
