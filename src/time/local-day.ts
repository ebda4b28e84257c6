// Calendar arithmetic in an IANA time zone: local days ("YYYY-MM-DD") and the UTC instants that bound them.

/** A local calendar day, `YYYY-MM-DD`. */
export type LocalDay = string

const partsFormatters = new Map<string, Intl.DateTimeFormat>()

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    partsFormatters.set(timeZone, formatter)
  }
  return formatter
}

/** Wall-clock fields of an instant in a zone. */
export interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

function formattedWallClock(instant: Date, timeZone: string): WallClock {
  const fields: Record<string, number> = {}
  for (const part of partsFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value)
  }
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 0,
    day: fields.day ?? 0,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  }
}

/** Milliseconds the zone's wall clock is ahead of UTC at `ms` (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const wall = formattedWallClock(new Date(ms), timeZone)
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
  return asUtc - Math.floor(ms / 1000) * 1000
}

// Formatting every instant is the costly part of a busy day's reading. Zones change offset on quarter hours, so
// one offset serves a whole UTC quarter hour once both of its ends agree; a quarter hour with a change inside
// (or a historic change off the quarter) is formatted instant by instant.
const QUARTER_HOUR_MS = 15 * 60_000
const quarterOffsets = new Map<string, number | null>()

function quarterOffset(ms: number, timeZone: string): number | null {
  const start = Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS
  const key = `${timeZone} ${start}`
  let offset = quarterOffsets.get(key)
  if (offset === undefined) {
    if (quarterOffsets.size > 100_000) quarterOffsets.clear()
    const first = offsetAt(start, timeZone)
    offset = first === offsetAt(start + QUARTER_HOUR_MS - 1000, timeZone) ? first : null
    quarterOffsets.set(key, offset)
  }
  return offset
}

/**
 * Names of the zone that is UTC at every instant. Wall clocks in it come from Date's UTC fields, so a process that
 * works in UTC never builds an Intl formatter: the first one costs about 12 ms of ICU set-up (a third of a bare
 * Node start), which `dreamlane status` would pay for a handful of dates.
 */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC'])

/** True for a name of the zone that is UTC at every instant (its wall clock needs no Intl). */
export function isUtcZone(timeZone: string): boolean {
  return UTC_ZONES.has(timeZone)
}

let hostZone: string | null = null

/**
 * True when `timeZone` can be made this process's own zone by setting TZ to it: ICU reads a name from TZ as it
 * is only when it has no digits (`Etc/GMT+5` is taken for a POSIX rule), and only names in Intl's list are
 * spelt as ICU stores them.
 */
export function canBeHostZone(timeZone: string): boolean {
  if (/\d/.test(timeZone)) return false
  if (UTC_ZONES.has(timeZone)) return true
  availableZones ??= new Set(Intl.supportedValuesOf('timeZone'))
  return availableZones.has(timeZone)
}

/**
 * Declares that this process's Date methods compute local time in `timeZone` (its caller set TZ to it, see
 * canBeHostZone): wall clocks in that zone then come from Date's local fields, which read the same ICU zone data
 * as Intl without setting up an Intl formatter (about 12 ms of a start). For a process that works in one zone;
 * null goes back to Intl.
 */
export function setHostZone(timeZone: string | null): void {
  hostZone = timeZone
}

/** True when `timeZone` is the zone declared by setHostZone. */
export function isHostZone(timeZone: string): boolean {
  return timeZone === hostZone
}

function wallClock(instant: Date, timeZone: string): WallClock {
  const ms = instant.getTime()
  if (timeZone === hostZone && Number.isFinite(ms)) {
    return {
      year: instant.getFullYear(),
      month: instant.getMonth() + 1,
      day: instant.getDate(),
      hour: instant.getHours(),
      minute: instant.getMinutes(),
      second: instant.getSeconds(),
    }
  }
  const offset = Number.isFinite(ms) ? (UTC_ZONES.has(timeZone) ? 0 : quarterOffset(ms, timeZone)) : null
  if (offset === null) return formattedWallClock(instant, timeZone)
  const wall = new Date(ms + offset)
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  }
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

let availableZones: Set<string> | undefined

/**
 * True when `timeZone` is a zone name this runtime knows. The list of available zones answers most names without
 * an Intl formatter (see UTC_ZONES); aliases it leaves out (`Asia/Kolkata`, `US/Eastern`) and other spellings are
 * asked of Intl.DateTimeFormat, which decides.
 */
export function isValidTimeZone(timeZone: string): boolean {
  if (UTC_ZONES.has(timeZone)) return true
  availableZones ??= new Set(Intl.supportedValuesOf('timeZone'))
  if (availableZones.has(timeZone)) return true
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}

/** The local calendar day that `instant` falls on in `timeZone`. */
export function localDayOf(instant: Date, timeZone: string): LocalDay {
  const wall = wallClock(instant, timeZone)
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`
}

/** Local wall time `HH:MM` of `instant` in `timeZone`. */
export function localTimeOf(instant: Date, timeZone: string): string {
  const wall = wallClock(instant, timeZone)
  return `${pad(wall.hour)}:${pad(wall.minute)}`
}

/** Offset of `timeZone` from UTC at `instant`, in minutes (east positive). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const wall = wallClock(instant, timeZone)
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000)
}

/**
 * The first instant of local day `day` in `timeZone`. Handles DST: a day that starts inside a gap
 * (no local midnight) starts at the first instant that exists.
 */
export function startOfLocalDay(day: LocalDay, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const midnightAsUtc = Date.UTC(year, month - 1, date)
  // Two passes converge for every real zone: the offset at the guess, then at the corrected guess.
  let guess = midnightAsUtc - zoneOffsetMinutes(new Date(midnightAsUtc), timeZone) * 60_000
  guess = midnightAsUtc - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000
  // If the guess lands on the previous local day (midnight skipped by DST), step forward to the day.
  while (localDayOf(new Date(guess), timeZone) < day) guess += 15 * 60_000
  while (localDayOf(new Date(guess - 60_000), timeZone) === day) guess -= 15 * 60_000
  return new Date(guess)
}

/** `day` moved by `days` calendar days (negative moves back). */
export function addDays(day: LocalDay, days: number): LocalDay {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const moved = new Date(Date.UTC(year, month - 1, date + days))
  return `${pad(moved.getUTCFullYear(), 4)}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`
}

/** A window of local days `[today-N+1 .. today]` and the UTC instants bounding it. */
export interface DayWindow {
  timeZone: string
  days: LocalDay[]
  firstDay: LocalDay
  lastDay: LocalDay
  /** Inclusive start instant (start of the first day). */
  start: Date
  /** Exclusive end instant (start of the day after the last). */
  end: Date
}

/** The `days`-day window ending on the local day of `now` (at least one day). */
export function dayWindow(now: Date, days: number, timeZone: string): DayWindow {
  const count = Math.max(1, Math.floor(days))
  const lastDay = localDayOf(now, timeZone)
  const firstDay = addDays(lastDay, -(count - 1))
  const list: LocalDay[] = []
  for (let i = 0; i < count; i++) list.push(addDays(firstDay, i))
  return {
    timeZone,
    days: list,
    firstDay,
    lastDay,
    start: startOfLocalDay(firstDay, timeZone),
    end: startOfLocalDay(addDays(lastDay, 1), timeZone),
  }
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
/** English month names, January first. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** `Monday, November 23, 2026` for `2026-11-23`. */
export function longDateTitle(day: LocalDay): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay()
  return `${WEEKDAYS[weekday]}, ${MONTH_NAMES[month - 1]} ${date}, ${year}`
}

/** The zone a fresh process should use: env TZ when valid, else the system zone. */
export function defaultTimeZone(envTz: string | undefined): string {
  if (envTz && isValidTimeZone(envTz)) return envTz
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}
