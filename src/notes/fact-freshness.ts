// Fact freshness: when a keyed fact was first and last stated, on how many days, and the importance that
// decays from it (RockBot's grace / half-life / floor). Only the days and the count are stored, in the fact's
// `<!-- key: …; seen: FIRST..LAST xDAYS -->` comment; importance is computed when a dream writes.
/** When a fact was stated: stable data only, so a file changes when the fact is stated again, not daily. */
export interface FactFreshness {
  /** First local day the fact was stated. */
  firstSeen: string
  /** Last local day the fact was stated. */
  lastSeen: string
  /** Distinct days it was stated on (≥ 1); reinforcements are `daysSeen - 1`. */
  daysSeen: number
}

/** The decay parameters (`memory.freshness` in config; RockBot's defaults). */
export interface FreshnessParams {
  /** Days after the last statement before importance starts to decay. @default 30 */
  graceDays: number
  /** Past the grace, importance halves every this many days; 0 turns decay off. @default 45 */
  halfLifeDays: number
  /** A fact whose importance falls below this moves to `## Archive`. @default 0.1 */
  floor: number
  /** Importance each reinforcement adds to the base of 0.5, up to 1. @default 0.1 */
  reinforcementBoost: number
}

/** Importance of a fact stated once, before any decay. */
export const BASE_IMPORTANCE = 0.5

const DAY = /\d{4}-\d{2}-\d{2}/
/** A `[[YYYY-MM-DD]]` day link (global: for matchAll and replace). */
export const DAY_LINK = /\[\[(\d{4}-\d{2}-\d{2})\]\]/g
const KEY_COMMENT = /<!--\s*key:\s*([^;\s>]*)[^>]*?-->/
const SEEN_FIELD = /;\s*seen:\s*(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2}) x(\d+)/
const VALUE_FIELD = /;\s*value:\s*([^;>]*?)\s*(?:;|-->)/

/** The key of the keyed bullet `line` ("user.city"), or null when it has no key comment. */
export function keyOf(line: string): string | null {
  return KEY_COMMENT.exec(line)?.[1] ?? null
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * Importance on `today`: `min(1, 0.5 + boost × reinforcements) × 0.5^(max(0, age − grace) / halfLife)`, where
 * age is the days since `lastSeen`. First seen does not change the number (it orders equals in the files).
 * Pure: the same freshness and day always give the same importance.
 */
export function factImportance(freshness: FactFreshness, today: string, params: FreshnessParams): number {
  const reinforcements = Math.max(0, freshness.daysSeen - 1)
  const base = Math.min(1, BASE_IMPORTANCE + params.reinforcementBoost * reinforcements)
  if (params.halfLifeDays <= 0) return base
  const decaying = Math.max(0, daysBetween(freshness.lastSeen, today) - params.graceDays)
  return base * 0.5 ** (decaying / params.halfLifeDays)
}

/** Whether a fact with this importance belongs in `## Archive`. */
export function isBelowFloor(importance: number, params: FreshnessParams): boolean {
  return importance < params.floor
}

/** Freshness after the fact was stated on `day`: a day outside first..last counts once; one inside, never. */
export function reinforce(freshness: FactFreshness, day: string): FactFreshness {
  if (day > freshness.lastSeen) return { ...freshness, lastSeen: day, daysSeen: freshness.daysSeen + 1 }
  if (day < freshness.firstSeen) return { ...freshness, firstSeen: day, daysSeen: freshness.daysSeen + 1 }
  return freshness
}

/** The distinct days `text` links to, oldest first. */
export function dayLinksOf(text: string): string[] {
  return [...new Set([...text.matchAll(DAY_LINK)].map((match) => match[1] as string))].sort()
}

function visiblePart(line: string): string {
  const at = line.search(KEY_COMMENT)
  return at === -1 ? line : line.slice(0, at)
}

/**
 * A keyed bullet's freshness: its `seen:` field widened by the `[[day]]` links on the line (a model that
 * restates a fact adds the day's link), or, without the field, the links alone — first, last and how many.
 * Null for a line with no key comment or no day to go by.
 */
export function freshnessOf(line: string): FactFreshness | null {
  const comment = KEY_COMMENT.exec(line)?.[0]
  if (!comment) return null
  const links = dayLinksOf(visiblePart(line))
  const seen = SEEN_FIELD.exec(comment)
  if (!seen) {
    const [first, last] = [links[0], links.at(-1)]
    return first && last ? { firstSeen: first, lastSeen: last, daysSeen: links.length } : null
  }
  let freshness: FactFreshness = {
    firstSeen: seen[1] as string,
    lastSeen: seen[2] as string,
    daysSeen: Math.max(1, Number(seen[3])),
  }
  for (const day of links) freshness = reinforce(freshness, day)
  return freshness
}

/**
 * The day a fact's importance is measured from: its last statement, or its own date when its value is a later
 * one (a plan or deadline stays alive until it is due).
 */
export function anchorDay(line: string, freshness: FactFreshness): string {
  const value = VALUE_FIELD.exec(KEY_COMMENT.exec(line)?.[0] ?? '')?.[1] ?? ''
  const dates = value.match(new RegExp(DAY.source, 'g')) ?? []
  const due = dates.at(-1)
  return due && due > freshness.lastSeen ? due : freshness.lastSeen
}

/** Importance of a keyed bullet on `today`, or null when it has no day to go by (it never decays). */
export function lineImportance(line: string, today: string, params: FreshnessParams): number | null {
  const freshness = freshnessOf(line)
  if (!freshness) return null
  return factImportance({ ...freshness, lastSeen: anchorDay(line, freshness) }, today, params)
}

/** The `seen:` field for `freshness`, e.g. `seen: 2026-01-03..2026-02-10 x3`. */
export function seenField(freshness: FactFreshness): string {
  return `seen: ${freshness.firstSeen}..${freshness.lastSeen} x${freshness.daysSeen}`
}

/** `line` with its key comment's `seen:` field set to `freshness` (added at the end of the comment). */
export function withSeen(line: string, freshness: FactFreshness): string {
  return line.replace(KEY_COMMENT, (comment) => {
    const field = `; ${seenField(freshness)}`
    if (SEEN_FIELD.test(comment)) return comment.replace(SEEN_FIELD, field)
    return comment.replace(/\s*-->$/, `${field} -->`)
  })
}
