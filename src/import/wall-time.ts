// Source times → UTC: wall-clock times in an IANA zone (WhatsApp, zone-less JSONL) and the timestamp shapes JSONL allows.
import { zoneOffsetMinutes, type WallClock } from '../time/local-day.js'

/** A local wall-clock time as a source writes it. */
export interface WallTime extends WallClock {
  ms?: number
}

/** Zone offset (ms, east positive) at `utcMs`. */
function offsetMs(utcMs: number, timeZone: string): number {
  return zoneOffsetMinutes(new Date(utcMs), timeZone) * 60_000
}

// Chats hold thousands of messages per local hour at most; formatToParts per message would dominate a big import.
const offsetCache = new Map<string, number>()

/** True when the fields name a real calendar date and clock time. */
export function isValidWallTime(wall: WallTime): boolean {
  if (
    wall.month < 1 ||
    wall.month > 12 ||
    wall.day < 1 ||
    wall.hour > 23 ||
    wall.minute > 59 ||
    wall.second > 59
  )
    return false
  const probe = new Date(Date.UTC(wall.year, wall.month - 1, wall.day))
  return probe.getUTCMonth() === wall.month - 1 && probe.getUTCDate() === wall.day
}

const HALF_DAY_MS = 12 * 3_600_000

/** The offset that turns the wall time `asUtc` (its fields read as UTC) into a real instant. */
function resolveOffset(asUtc: number, timeZone: string): number {
  // The zone's offsets on either side of any switch near this time; usually both are the same.
  const before = offsetMs(asUtc - HALF_DAY_MS, timeZone)
  const after = offsetMs(asUtc + HALF_DAY_MS, timeZone)
  const fits = (offset: number) => offsetMs(asUtc - offset, timeZone) === offset
  const fitsBefore = fits(before)
  const fitsAfter = fits(after)
  if (fitsBefore && fitsAfter) return Math.max(before, after) // repeated hour: the earlier instant
  if (fitsBefore) return before
  if (fitsAfter) return after
  return before // inside a gap: the offset before the switch lands just after it
}

/**
 * The UTC instant of `wall` in `timeZone`. A time inside a DST gap moves forward by the gap; a repeated
 * hour resolves to its first occurrence.
 */
export function wallTimeToUtc(wall: WallTime, timeZone: string): Date {
  const asUtc = Date.UTC(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour,
    wall.minute,
    wall.second,
    wall.ms ?? 0,
  )
  const key = `${timeZone}|${wall.year}-${wall.month}-${wall.day}T${wall.hour}`
  let offset = offsetCache.get(key)
  if (offset === undefined) {
    offset = resolveOffset(asUtc, timeZone)
    if (offsetCache.size > 50_000) offsetCache.clear()
    offsetCache.set(key, offset)
  }
  return new Date(asUtc - offset)
}

const ZONE_LESS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?$/
const ZONED = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i

/**
 * A timestamp as JSONL may carry it: ISO 8601 with `Z` or an offset, zone-less ISO (read in `timeZone`),
 * or a number of epoch seconds (below 1e11) or milliseconds. Null when it is none of those.
 */
export function parseTimestamp(value: unknown, timeZone: string): Date | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null
    const date = new Date(value < 1e11 ? value * 1000 : value)
    return Number.isNaN(date.getTime()) ? null : date
  }
  if (typeof value !== 'string') return null
  const text = value.trim()
  const local = ZONE_LESS.exec(text)
  if (local) {
    const wall: WallTime = {
      year: Number(local[1]),
      month: Number(local[2]),
      day: Number(local[3]),
      hour: Number(local[4] ?? 0),
      minute: Number(local[5] ?? 0),
      second: Number(local[6] ?? 0),
      ms: Number((local[7] ?? '0').padEnd(3, '0').slice(0, 3)),
    }
    return isValidWallTime(wall) ? wallTimeToUtc(wall, timeZone) : null
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(text) || !ZONED.test(text)) return null
  const date = new Date(text.replace(' ', 'T'))
  return Number.isNaN(date.getTime()) ? null : date
}
