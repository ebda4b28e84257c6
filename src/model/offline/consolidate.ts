// Consolidate: merges extracted facts into the memory files — append new facts, count a known one stated on a
// new day (its freshness), and when a newer statement changes a single-valued subject, strike the old entry
// through as superseded (never delete).
import {
  insertInSection,
  parseEntries,
  reinforceEntry,
  renderEntry,
  renderHistorical,
  renderNamedPrevious,
  replaceLine,
  supersedeLine,
  type MemoryEntry,
} from './memory-file.js'
import { anyWord, foldCase, normalizeValue, sameValue, slugOf } from './text.js'
import type { Fact, FactFile, MergeOutcome } from './types.js'

interface Merged {
  text: string
  outcome: MergeOutcome
}

const headingOf = (fact: Fact): string => `## ${fact.section}`

function keyWords(key: string): Set<string> {
  return new Set(
    key
      .split('.')
      .slice(1)
      .join('-')
      .split('-')
      .filter((word) => word.length > 2),
  )
}

const RELATION = /^user\.relation\.([^.]+)/
// One relationship under the names it goes by as it grows: partner, then fiancé, then wife.
const COUPLE_ROLE = /^(?:partner|wife|husband|spouse|girlfriend|boyfriend|fiancé|fiancée)$/

/**
 * Another key that names the same subject differently ("plan.launch" for "plan.atlas-launch"). People are told
 * apart by their role: "my brother Sam" and "my friend Sam" are two people, whatever words their keys share.
 */
function isRelatedKey(a: string, b: string): boolean {
  const [roleA, roleB] = [RELATION.exec(a)?.[1], RELATION.exec(b)?.[1]]
  if (roleA !== undefined || roleB !== undefined) return roleA === roleB
  if (a.split('.')[0] !== b.split('.')[0]) return false
  const words = keyWords(b)
  return [...keyWords(a)].some((word) => words.has(word))
}

// What a trip is called when it is not named: "we moved the trip", "our holiday is off". Its entry says so too
// ("booked a week in Lisbon, flying out October 10").
const TRIP = anyWord(
  'trip trips holiday holidays vacation getaway travel travelling traveling flight flights flying fly journey',
)
const DATED = /^\d{4}-\d{2}-\d{2}/
// A plan's last day: its date, or the end of its range.
const lastDayOf = (value: string): string => value.slice(-10)

/** The one plan still to come that is a trip, when `fact` names a trip by its kind alone; else none. */
function theOpenTrip(entries: readonly MemoryEntry[], fact: Fact): MemoryEntry | undefined {
  const words = [...keyWords(fact.key)]
  if (!fact.key.startsWith('plan.') || words.length === 0 || !words.every((word) => TRIP.test(word)))
    return undefined
  const trips = entries.filter(
    (entry) =>
      entry.key.startsWith('plan.') &&
      entry.supersededOn === null &&
      DATED.test(entry.value ?? '') &&
      lastDayOf(entry.value ?? '') >= fact.day &&
      TRIP.test(foldCase(entry.visible)),
  )
  return trips.length === 1 ? trips[0] : undefined
}

function add(text: string, fact: Fact, lines: string[], outcome: MergeOutcome): Merged {
  return { text: insertInSection(text, headingOf(fact), lines), outcome }
}

// What people wrote by hand (lines without a key), where a fact may already be stated in other words' order.
function handwrittenText(text: string, entries: readonly MemoryEntry[]): string {
  const keyed = new Set(entries.map((entry) => entry.line))
  return text
    .split('\n')
    .filter((_, index) => !keyed.has(index))
    .join('\n')
}

/** A memory file's text with its keyed entries and its normalised handwritten part, each worked out once. */
class ParsedFile {
  readonly text: string
  readonly entries: MemoryEntry[]
  #handwritten: string | undefined

  constructor(text: string) {
    this.text = text
    this.entries = parseEntries(text)
  }

  get handwritten(): string {
    this.#handwritten ??= normalizeValue(handwrittenText(this.text, this.entries))
    return this.#handwritten
  }
}

/** A restatement: nothing new to add, but a keyed entry it restates counts the day (freshness). */
function duplicate(text: string, fact: Fact, restated?: MemoryEntry): Merged {
  const next = restated && restated.supersededOn === null ? reinforceEntry(text, restated, fact.day) : text
  return { text: next, outcome: { fact, action: 'duplicate' } }
}

// An ex of any kind: "user.relation.ex.kai", "user.relation.exgirlfriend.mia".
const EX_ROLE = /^ex/

/** The current entry, in any couple role, of the person `fact` names, stated before it. */
function coupleEntryBefore(entries: readonly MemoryEntry[], fact: Fact): MemoryEntry | undefined {
  return entries.find((entry) => {
    const role = RELATION.exec(entry.key)?.[1]
    return (
      entry.supersededOn === null &&
      role !== undefined &&
      COUPLE_ROLE.test(role) &&
      entry.value !== null &&
      sameValue(entry.value, fact.value) &&
      fact.day > (entry.lastSeen ?? entry.day ?? '')
    )
  })
}

/**
 * An ex ended ("Dan and I are back together"): the couple role the parting struck out is held again, as it was
 * named ("Boyfriend: Dan").
 */
function reunited(text: string, fact: Fact): string {
  if (!EX_ROLE.test(RELATION.exec(fact.key)?.[1] ?? '')) return text
  const parted = parseEntries(text).findLast((entry) => {
    const role = RELATION.exec(entry.key)?.[1]
    return (
      role !== undefined &&
      COUPLE_ROLE.test(role) &&
      entry.value !== null &&
      sameValue(entry.value, fact.value)
    )
  })
  if (!parted || parted.supersededOn === null) return text
  const headline = /^~*\*\*(.+?)\*\*/.exec(parted.visible)?.[1] ?? null
  const again: Fact = { ...fact, key: parted.key, value: parted.value as string, isSingle: true, headline }
  return insertInSection(text, headingOf(fact), [renderEntry(again)])
}

/** The current couple role an ex held before the parting ("Boyfriend: Kai" when "Ex: Kai" comes). */
function partedCoupleRole(entries: readonly MemoryEntry[], fact: Fact): MemoryEntry | undefined {
  const role = RELATION.exec(fact.key)?.[1]
  return role && EX_ROLE.test(role) ? coupleEntryBefore(entries, fact) : undefined
}

function mergeStatement(file: ParsedFile, fact: Fact): Merged {
  const parted = partedCoupleRole(file.entries, fact)
  if (parted) {
    const struck = replaceLine(
      file.text,
      parted.line,
      supersedeLine(parted, fact.day, fact.headline ?? fact.value),
    )
    const { text } = mergeStatement(new ParsedFile(struck), fact)
    return { text, outcome: { fact, action: 'superseded', replaced: parted.value ?? '' } }
  }
  const { text, entries } = file
  const restated = entries.filter((entry) => entry.key === fact.key && entry.supersededOn === null).at(-1)
  // "I'm not allergic to penicillin after all": the held statement is struck; with none held, nothing is written.
  if (fact.endsOnly) {
    if (!restated || fact.day < (restated.lastSeen ?? restated.day ?? '')) return duplicate(text, fact)
    const struck = replaceLine(
      text,
      restated.line,
      supersedeLine(restated, fact.day, fact.headline ?? fact.value),
    )
    const outcome: MergeOutcome = { fact, action: 'superseded', replaced: restated.value ?? fact.value }
    return { text: reunited(struck, fact), outcome }
  }
  const isKnown =
    entries.some((entry) => entry.key === fact.key) || file.handwritten.includes(normalizeValue(fact.text))
  if (isKnown) return duplicate(text, fact, restated)
  return add(text, fact, [renderEntry(fact)], { fact, action: 'added' })
}

/** The current entry of the same person in another couple role ("Partner: Tom" when "Fiancé: Tom" comes). */
function earlierCoupleRole(entries: readonly MemoryEntry[], fact: Fact): MemoryEntry | undefined {
  const role = RELATION.exec(fact.key)?.[1]
  if (!role || !COUPLE_ROLE.test(role) || entries.some((entry) => entry.key === fact.key)) return undefined
  return coupleEntryBefore(entries, fact)
}

function mergeSlot(file: ParsedFile, fact: Fact): Merged {
  const { text, entries } = file
  const grown = earlierCoupleRole(entries, fact)
  if (grown) {
    const struck = replaceLine(text, grown.line, supersedeLine(grown, fact.day, fact.headline ?? fact.value))
    return add(struck, fact, [renderEntry(fact)], {
      fact,
      action: 'superseded',
      replaced: grown.value ?? '',
    })
  }
  let key = fact.key
  if (!entries.some((entry) => entry.key === key)) {
    const related = entries.filter((entry) => entry.supersededOn === null && isRelatedKey(entry.key, key))
    // The same value under a differently worded subject is a restatement, not a new fact.
    const restated = related.find((entry) => entry.value !== null && sameValue(entry.value, fact.value))
    if (restated) return duplicate(text, fact, restated)
    // A change names its subject loosely ("the launch moved…"): follow the old value, or the one related slot.
    const named = fact.previous
      ? related.find((entry) => entry.value !== null && sameValue(entry.value, fact.previous as string))
      : fact.isCorrection && related.length === 1
        ? related[0]
        : fact.isCorrection && related.length === 0
          ? theOpenTrip(entries, fact)
          : undefined
    if (named) key = named.key
  }
  const slot = entries.filter((entry) => entry.key === key)
  const isKnown = (value: string): boolean =>
    slot.some((entry) => entry.value !== null && sameValue(entry.value, value))
  const current = slot.filter((entry) => entry.supersededOn === null).at(-1)
  if (!current) {
    if (isKnown(fact.value)) return { text, outcome: { fact, action: 'duplicate' } }
    if (fact.endsOnly) return { text, outcome: { fact, action: 'duplicate' } }
    const lines = [renderEntry(fact, key)]
    const previous = fact.previous
    if (previous && !isKnown(previous) && !sameValue(previous, fact.value)) {
      lines.unshift(renderNamedPrevious(fact, key, previous))
      return add(text, fact, lines, { fact, action: 'superseded', replaced: previous })
    }
    return add(text, fact, lines, { fact, action: 'added' })
  }
  if (current.value !== null && sameValue(current.value, fact.value)) return duplicate(text, fact, current)
  // A plan whose day has passed happened: calling off "the party" now is another party's news.
  if (fact.endsOnly && DATED.test(current.value ?? '') && lastDayOf(current.value ?? '') < fact.day)
    return { text, outcome: { fact, action: 'duplicate' } }
  // The last time the current value was stated, not only when it was first: an older statement is history.
  const currentDay = current.lastSeen ?? current.day ?? ''
  if (fact.day > currentDay || (fact.day === currentDay && !isKnown(fact.value))) {
    const struck = replaceLine(text, current.line, supersedeLine(current, fact.day, fact.value))
    return add(struck, fact, [renderEntry(fact, key)], {
      fact,
      action: 'superseded',
      replaced: current.value ?? '',
    })
  }
  if (isKnown(fact.value)) return { text, outcome: { fact, action: 'duplicate' } }
  return add(text, fact, [renderHistorical(fact, key, current)], { fact, action: 'historical' })
}

/** Merges one fact into the text of its memory file. */
export function mergeFact(text: string, fact: Fact): Merged {
  return mergeParsed(new ParsedFile(text), fact)
}

function mergeParsed(file: ParsedFile, fact: Fact): Merged {
  if (fact.kind === 'rename') return renameIn(file, fact)
  return fact.isSingle ? mergeSlot(file, fact) : mergeStatement(file, fact)
}

/**
 * "Her name is spelled Ula, not Ola": each current entry holding the old name is struck through, and the same entry
 * with the new name follows it (its key too, where the key was made from the name). Nothing holds it: no change.
 */
function renameIn(file: ParsedFile, fact: Fact): Merged {
  const old = fact.previous as string
  const held = file.entries.filter(
    (entry) => entry.supersededOn === null && entry.value !== null && sameValue(entry.value, old),
  )
  let text = file.text
  const oldSlug = slugOf(old)
  // From the last line up, so each insertion leaves the lines above it where they were.
  for (const entry of [...held].reverse()) {
    const key = entry.key.endsWith(`.${oldSlug}`)
      ? `${entry.key.slice(0, -oldSlug.length)}${slugOf(fact.value)}`
      : entry.key
    const label = /^\*\*(.+?)\*\*/.exec(entry.visible)?.[1]
    const headline = label?.endsWith(`: ${entry.value}`)
      ? `${label.slice(0, -(entry.value as string).length)}${fact.value}`
      : null
    const renamed = renderEntry({ ...fact, key, headline }, key)
    text = replaceLine(text, entry.line, `${supersedeLine(entry, fact.day, fact.value)}\n${renamed}`)
  }
  const action = held.length > 0 ? 'superseded' : 'duplicate'
  return { text, outcome: { fact, action, ...(held.length > 0 ? { replaced: old } : {}) } }
}

/**
 * Merges `facts` (oldest first) into `files`. Pure: returns the new texts and what happened to each fact;
 * merging the same facts again changes nothing.
 */
export function mergeFacts(
  files: ReadonlyMap<FactFile, string>,
  facts: readonly Fact[],
): { files: Map<FactFile, string>; outcomes: MergeOutcome[] } {
  const next = new Map(files)
  // A file is parsed again only when a fact changed it: most facts of a busy window are already known.
  const parsed = new Map<FactFile, ParsedFile>()
  const outcomes: MergeOutcome[] = []
  for (const fact of facts) {
    const text = next.get(fact.file) ?? ''
    let file = parsed.get(fact.file)
    if (file?.text !== text) parsed.set(fact.file, (file = new ParsedFile(text)))
    const merged = mergeParsed(file, fact)
    next.set(fact.file, merged.text)
    outcomes.push(merged.outcome)
  }
  return { files: next, outcomes }
}
