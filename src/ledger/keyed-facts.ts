// Keyed-fact bullets (`- **Works at:** Acme`, `- **City: Porto** — … <!-- key: user.city -->`): a fact is
// its bullet, so one that disappears is a loss even when its words survive somewhere else in memory.
import type { LossFlag } from './types.js'

const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(\S.*)$/
const KEY_COMMENT = /<!--\s*key:\s*([^;>]+?)\s*(?:;\s*value:\s*([^;>]*?)\s*)?(?:;[^>]*)?-->/
const HEADLINE = /^\*\*([^*\n]+?)\*\*\s*(.*)$/
/** Flag lines are shortened like the term flags. */
const LINE_MAX = 160

/** One keyed fact as the guard identifies it. */
export interface KeyedFact {
  /** What names it: its `key:` comment (with the value, when single-valued), else its bold label and value. */
  ids: string[]
  /** The label people read: the bold headline. */
  label: string
  line: string
}

function squash(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\[\[[^\]]*\]\]/g, ' ')
    .replace(/~~|\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/** The keyed fact a line holds, or null when it is no bullet or carries neither a key nor a bold label. */
export function keyedFactOf(line: string): KeyedFact | null {
  const body = BULLET.exec(line)?.[1]
  if (!body) return null
  // A superseded entry is still the same fact, kept: strike-through does not change what it is.
  const visible = body.replace(/^~~(.*?)~~/, '$1')
  const key = KEY_COMMENT.exec(body)
  const headline = HEADLINE.exec(visible)
  if (!key && !headline) return null
  const ids: string[] = []
  // A fact with no value is its key: its statement may be reworded, or restated words merged in, and stay itself.
  if (key?.[1]) ids.push(`key:${key[1].toLowerCase()}=${key[2] === undefined ? '' : squash(key[2])}`)
  let label = key?.[1] ?? ''
  if (headline?.[1]) {
    label = headline[1].trim()
    // `**Works at:** Acme` — the label and the value after it; `**City: Porto** — said so` — the headline.
    const value = label.endsWith(':') ? (headline[2] ?? '').split(/\s+—\s+|\s+\[\[/)[0] : ''
    ids.push(`label:${squash(label)}|${squash(value ?? '')}`)
  }
  const trimmed = line.trim()
  return { ids, label, line: trimmed.length > LINE_MAX ? `${trimmed.slice(0, LINE_MAX - 1)}…` : trimmed }
}

/** Every keyed fact in `text`. */
export function keyedFactsIn(text: string): KeyedFact[] {
  const facts: KeyedFact[] = []
  for (const line of text.split('\n')) {
    const fact = keyedFactOf(line)
    if (fact) facts.push(fact)
  }
  return facts
}

/**
 * Keyed facts of the guarded memory files before the run that no memory text holds afterwards as a bullet of
 * its own (current or struck through as superseded). `unchanged` is read only when something seems dropped.
 */
export async function droppedKeyedFacts(
  before: readonly { path: string; text: string }[],
  afterTexts: readonly string[],
  unchanged: () => Promise<string[]>,
): Promise<LossFlag[]> {
  const candidates = before.flatMap(({ path, text }) => keyedFactsIn(text).map((fact) => ({ path, fact })))
  if (candidates.length === 0) return []
  const present = new Set<string>()
  const note = (text: string) => {
    for (const fact of keyedFactsIn(text)) for (const id of fact.ids) present.add(id)
  }
  afterTexts.forEach(note)
  const isKept = (fact: KeyedFact) => fact.ids.some((id) => present.has(id))
  let missing = candidates.filter(({ fact }) => !isKept(fact))
  if (missing.length === 0) return []
  ;(await unchanged()).forEach(note)
  missing = missing.filter(({ fact }) => !isKept(fact))
  return missing.map(({ path, fact }) => ({ kind: 'fact', term: fact.label, path, line: fact.line }))
}
