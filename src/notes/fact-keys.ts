// Keys the fact bullets a model leaves in a memory file, so the runtime tracks them as it tracks the offline
// engine's: every fact bullet without a key comment gets one (key from the file stem, its person or `###` group and
// its subject; `value:`; `seen:` from its `[[day]]` links). A keyed bullet whose bold value no longer matches its
// comment, or a new bullet giving a current fact's subject another value, supersedes it the offline engine's way
// (the old value struck through with the day, the new line keyed after it); one restating a fact's value merges
// into it (links and new words kept, seen counted). Pure and idempotent: a second pass changes nothing.
import { freshnessOf, withSeen, type FactFreshness } from './fact-freshness.js'
import { findFactSlots, type FactSlot as Slot } from './fact-slots.js'
import {
  isSameValue,
  normalizeValue,
  parseFactLine,
  renderFactLine,
  slugOf,
  withoutLinks,
  type FactLine,
  type KeyComment,
} from './fact-lines.js'

/** What keying did to one file. */
export interface FactKeysResult {
  text: string
  /** Keys given to bullets that had none. */
  keyed: string[]
  /** Keys whose `seen:` grew: a new day's link, or a restatement merged in. */
  reinforced: string[]
  /** `key: old → new` for each value struck through and replaced. */
  superseded: string[]
  /** Bullets that restated a fact already held, folded into it. */
  merged: number
}

/** A keyed fact as this pass leaves it: its line, and the struck-through lines that go before it. */
interface Entry {
  index: number
  key: string
  value: string | null
  text: string
  before: string[]
  isCurrent: boolean
  /** It was keyed before this pass: a new value for it is a change, not a second fact. */
  wasKeyed: boolean
}

const daysLinked = (links: readonly string[]): FactFreshness | null => {
  const [first, last] = [links[0], links.at(-1)]
  return first && last ? { firstSeen: first, lastSeen: last, daysSeen: links.length } : null
}

const isSameFreshness = (a: FactFreshness | null, b: FactFreshness | null): boolean =>
  a?.firstSeen === b?.firstSeen && a?.lastSeen === b?.lastSeen && a?.daysSeen === b?.daysSeen

/** The same value, or a restatement that names none: either way the same fact. */
const isSameFact = (held: string | null, said: string | null): boolean =>
  held === null || said === null || isSameValue(said, held)

/** The bold value no longer says what the comment records (a lead naming its subject too still matches). */
const isChanged = (fact: FactLine, recorded: string): boolean =>
  fact.value !== null &&
  !isSameValue(fact.value, recorded) &&
  !isSameValue(`${fact.subject}: ${fact.value}`, recorded)

class FileKeys {
  readonly result: Omit<FactKeysResult, 'text'> = { keyed: [], reinforced: [], superseded: [], merged: 0 }
  readonly #entries = new Map<number, Entry>()
  readonly #removed = new Set<number>()
  /** Current entries by derived key and by their own key. */
  readonly #current = new Map<string, Entry[]>()
  /** Every key in the file, current or superseded. */
  readonly #keys = new Set<string>()

  readonly lines: readonly string[]
  readonly today: string

  constructor(lines: readonly string[], today: string) {
    this.lines = lines
    this.today = today
  }

  #hold(entry: Entry, derived: string): void {
    this.#entries.set(entry.index, entry)
    this.#keys.add(entry.key)
    if (!entry.isCurrent) return
    for (const name of new Set([derived, entry.key]))
      this.#current.set(name, [...(this.#current.get(name) ?? []), entry])
  }

  #drop(entry: Entry): void {
    entry.isCurrent = false
    for (const [name, held] of this.#current) {
      this.#current.set(
        name,
        held.filter((candidate) => candidate !== entry),
      )
    }
  }

  #isTaken(key: string): boolean {
    return [...(this.#current.get(key) ?? [])].some((entry) => entry.key === key)
  }

  #lineEnd(index: number): string {
    return (this.lines[index] ?? '').endsWith('\r') ? '\r' : ''
  }

  /** A keyed bullet: a changed bold value is superseded, new day links count in `seen:`. */
  readKeyed(slot: Slot): void {
    const comment = slot.fact.comment as KeyComment
    const raw = (this.lines[slot.index] ?? '').replace(/\r$/, '')
    const isCurrent = !slot.fact.isStruck && comment.superseded === null
    const entry: Entry = {
      index: slot.index,
      key: comment.key,
      value: comment.value ?? slot.fact.value,
      text: raw,
      before: [],
      isCurrent,
      wasKeyed: true,
    }
    if (isCurrent && comment.value !== null && isChanged(slot.fact, comment.value)) {
      this.#supersedeInPlace(entry, slot.fact, comment)
      this.#hold(entry, slot.derived)
      return
    }
    if (isCurrent) {
      const seen = freshnessOf(raw)
      const grew = comment.seen ? !isSameFreshness(seen, comment.seen) : slot.fact.links.length > 1
      if (seen && grew) {
        entry.text = withSeen(raw, seen)
        this.result.reinforced.push(comment.key)
      }
    }
    this.#hold(entry, slot.derived)
  }

  /**
   * The model edited a keyed bullet's value: the old value is struck through with the days it was seen on, and the
   * line as the model left it follows, keyed anew with the days after them.
   */
  #supersedeInPlace(entry: Entry, fact: FactLine, comment: KeyComment): void {
    const firstLink = fact.links[0]
    const lastOld = comment.seen?.lastSeen ?? firstLink ?? null
    const oldLinks = lastOld === null ? [] : fact.links.filter((day) => day <= lastOld)
    const newLinks = fact.links.filter((day) => lastOld === null || day > lastOld)
    const day = newLinks.at(-1) ?? this.today
    const value = fact.value as string
    const oldHead = `**${fact.subject}: ${comment.value}**${oldLinks.map((link) => ` [[${link}]]`).join('')}`
    const struck = `~~${oldHead}~~ — superseded ${day} → ${value}`
    entry.before.push(
      renderFactLine(fact, struck, { ...comment, superseded: day, seen: null }) + this.#lineEnd(entry.index),
    )
    let visible = fact.visible
    for (const link of oldLinks) visible = visible.replace(`[[${link}]]`, '')
    visible = visible.replace(/\s{2,}/g, ' ').trimEnd()
    const seen = daysLinked(newLinks) ?? { firstSeen: day, lastSeen: day, daysSeen: 1 }
    entry.text = renderFactLine(fact, visible, { key: comment.key, value, superseded: null, seen })
    entry.value = value
    this.result.superseded.push(`${comment.key}: ${comment.value} → ${value}`)
  }

  /** A bullet without a key: a restatement, a change of a current fact, or a new fact. */
  readNew(slot: Slot): void {
    const { fact } = slot
    if (fact.isStruck) {
      const key = this.#current.get(slot.derived)?.[0]?.key ?? slot.derived
      const on = fact.links.at(-1) ?? this.today
      this.#key(slot, key, { key, value: fact.value, superseded: on, seen: null }, false)
      return
    }
    const held = this.#current.get(slot.derived) ?? []
    const same = held.find((entry) => isSameFact(entry.value, fact.value))
    if (same) return this.#merge(same, slot)
    // Two bullets written in one turn with one subject are two facts; a new value for a fact kept before changes it.
    const only = held.length === 1 && !slot.isMulti ? held[0] : undefined
    if (only?.wasKeyed) return this.#supersede(only, slot)
    let key = slot.derived
    if (this.#isTaken(key) || held.length > 0) {
      const base = `${slot.derived}.${slugOf(fact.value ?? fact.detail)}`
      key = base
      for (let n = 2; this.#isTaken(key); n++) key = `${base}-${n}`
    }
    this.#key(slot, key, { key, value: fact.value, superseded: null, seen: daysLinked(fact.links) })
  }

  #key(slot: Slot, key: string, comment: KeyComment, isCurrent = true, isNewKey = true): void {
    const text = renderFactLine(slot.fact, slot.fact.visible, comment)
    const entry = {
      index: slot.index,
      key,
      value: comment.value,
      text,
      before: [],
      isCurrent,
      wasKeyed: false,
    }
    this.#hold(entry, slot.derived)
    if (isNewKey) this.result.keyed.push(key)
  }

  /** A restatement: its new days and words go onto the fact it restates, and the bullet itself goes. */
  #merge(entry: Entry, slot: Slot): void {
    const held = parseFactLine(entry.text) as FactLine
    const comment = held.comment as KeyComment
    const heldWords = normalizeValue(withoutLinks(held.visible))
    const added = [slot.fact.value, slot.fact.detail].filter(
      (part): part is string =>
        part !== null && normalizeValue(part) !== '' && !heldWords.includes(normalizeValue(part)),
    )
    const days = slot.fact.links.filter((day) => !held.links.includes(day))
    const visible = [
      `${held.visible}${added.length > 0 ? `; ${added.join(' — ')}` : ''}`,
      ...days.map((day) => `[[${day}]]`),
    ].join(' ')
    const before = freshnessOf(entry.text)
    const next = renderFactLine(held, visible, comment)
    const seen = freshnessOf(next)
    entry.text = seen && !isSameFreshness(seen, before) ? withSeen(next, seen) : next
    if (seen && !isSameFreshness(seen, before)) this.result.reinforced.push(entry.key)
    if (entry.value === null && slot.fact.value !== null) entry.value = slot.fact.value
    this.#removed.add(slot.index)
    this.result.merged += 1
  }

  /** A new value for a current fact's subject: the fact is struck through, the new bullet keyed under its key. */
  #supersede(entry: Entry, slot: Slot): void {
    const held = parseFactLine(entry.text) as FactLine
    const comment = held.comment as KeyComment
    const day = slot.fact.links.at(-1) ?? this.today
    const value = slot.fact.value as string
    entry.text = renderFactLine(held, `~~${held.visible}~~ — superseded ${day} → ${value}`, {
      ...comment,
      value: comment.value ?? entry.value,
      superseded: day,
      seen: null,
    })
    this.#drop(entry)
    this.result.superseded.push(`${entry.key}: ${entry.value} → ${value}`)
    const seen = daysLinked(slot.fact.links)
    this.#key(slot, entry.key, { key: entry.key, value, superseded: null, seen }, true, false)
  }

  text(): string {
    const out: string[] = []
    this.lines.forEach((line, index) => {
      if (this.#removed.has(index)) return
      const entry = this.#entries.get(index)
      if (!entry) return void out.push(line)
      out.push(...entry.before, `${entry.text}${this.#lineEnd(index)}`)
    })
    return out.join('\n')
  }
}

const isCurrentKeyed = (slot: Slot): boolean =>
  slot.fact.comment !== null && slot.fact.comment.superseded === null && !slot.fact.isStruck

/**
 * Keyed bullets whose key another current bullet already holds: a model copied a keyed line, to restate or change
 * it. The copy is read as a new bullet (a restatement or a change of the one it copied); the one that still says
 * what its comment records, else the first, keeps the key.
 */
function copiedKeys(slots: readonly Slot[]): Slot[] {
  const byKey = new Map<string, Slot[]>()
  for (const slot of slots.filter(isCurrentKeyed)) {
    const key = slot.fact.comment?.key as string
    byKey.set(key, [...(byKey.get(key) ?? []), slot])
  }
  const copies: Slot[] = []
  for (const held of byKey.values()) {
    if (held.length < 2) continue
    const recorded = (slot: Slot) => slot.fact.comment?.value ?? null
    const holder =
      held.find((slot) => recorded(slot) === null || !isChanged(slot.fact, recorded(slot) as string)) ??
      held[0]
    copies.push(...held.filter((slot) => slot !== holder))
  }
  return copies
}

/**
 * `text`, the memory file named `file` (user.md, project.md, …), with every fact bullet keyed and tracked as of
 * the local day `today` (the day a change is recorded on when its bullet names none). MEMORY.md, daily notes and
 * other non-fact files must not be passed. Returns the text unchanged, byte for byte, when there is nothing to do.
 */
export function keyFactFile(text: string, file: string, today: string): FactKeysResult {
  const lines = text.split('\n')
  const slots = findFactSlots(lines, file.replace(/\.md$/, ''))
  const keys = new FileKeys(lines, today)
  for (const slot of copiedKeys(slots)) slot.fact = { ...slot.fact, comment: null }
  for (const slot of slots) if (slot.fact.comment) keys.readKeyed(slot)
  for (const slot of slots) if (!slot.fact.comment) keys.readNew(slot)
  const next = keys.text()
  const { keyed, reinforced, superseded, merged } = keys.result
  return { text: next, keyed, reinforced: [...new Set(reinforced)], superseded, merged }
}
