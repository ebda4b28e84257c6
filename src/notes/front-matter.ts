// Daily-note front matter: splitting the block off, a strict flat-scalar YAML reader, key validation, canonical output.

/** Front matter keys of a daily note, in the order they are always written. */
export const DAILY_FRONT_MATTER_KEYS = [
  'date',
  'summarised_until',
  'messages_total',
  'messages_user',
  'messages_assistant',
  'session_trees',
  'session_chats',
  'first_message',
  'last_message',
  'scope_mode',
  'scope_anchor',
] as const

export type DailyFrontMatterKey = (typeof DAILY_FRONT_MATTER_KEYS)[number]

export interface DailyFrontMatter {
  date: string
  /** ISO UTC of the last message a summary covers, or null. */
  summarised_until: string | null
  messages_total: number
  messages_user: number
  messages_assistant: number
  session_trees: number
  session_chats: number
  first_message: string | null
  last_message: string | null
  scope_mode: string
  scope_anchor: string
}

/** A front matter split into dreamlane's keys and any other `key: value` lines, kept verbatim. */
export interface ParsedFrontMatter {
  frontMatter: DailyFrontMatter
  extraLines: string[]
  body: string
}

type Scalar = string | number | boolean | null

/** The raw text of each top-level key; a key's indented continuation lines stay in its raw text. */
interface RawEntry {
  key: string
  value: string
  lines: string[]
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/
const OWN_KEYS: ReadonlySet<string> = new Set(DAILY_FRONT_MATTER_KEYS)

// js-yaml would read `2026-11-21` as a Date and `on` as true; this engine reads only flat scalars,
// date-like values stay strings, and nothing is ever evaluated.
function readEntries(block: string): RawEntry[] {
  const entries: RawEntry[] = []
  const lines = block.split('\n').map((line) => line.replace(/\r$/, ''))
  lines.forEach((line, index) => {
    if (line.trim() === '' || /^\s*#/.test(line)) return
    const last = entries.at(-1)
    if (/^[ \t]/.test(line) && last) {
      last.lines.push(line)
      return
    }
    const match = KEY_LINE.exec(line)
    if (!match) throw new Error(`front matter line ${index + 1} is not "key: value": ${JSON.stringify(line)}`)
    const key = match[1] as string
    if (entries.some((entry) => entry.key === key)) throw new Error(`front matter repeats key "${key}"`)
    entries.push({ key, value: (match[2] ?? '').trim(), lines: [line] })
  })
  return entries
}

function readScalar(key: string, text: string): Scalar {
  if (text.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(text)
    if (!match) throw new Error(`front matter key "${key}" has an unterminated or malformed quoted value`)
    return (match[1] as string).replaceAll("''", "'")
  }
  if (text.startsWith('"')) {
    const match = /^("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/.exec(text)
    if (!match) throw new Error(`front matter key "${key}" has an unterminated or malformed quoted value`)
    try {
      return JSON.parse(match[1] as string) as string
    } catch (error) {
      throw new Error(`front matter key "${key}" has a malformed quoted value`, { cause: error })
    }
  }
  const plain = text.replace(/\s+#.*$/, '').trim()
  if (/^[[{|>&*!%@`]/.test(plain))
    throw new Error(`front matter key "${key}" must be a plain value, not ${plain[0]}…`)
  if (plain === '' || plain === '~' || /^null$/i.test(plain)) return null
  if (/^(true|false)$/i.test(plain)) return plain.toLowerCase() === 'true'
  if (/^-?\d+$/.test(plain)) return Number(plain)
  return plain
}

/** dreamlane's keys of a front matter block; other keys are checked only for shape. */
function readFlatYaml(block: string): Record<string, Scalar> {
  const data: Record<string, Scalar> = {}
  for (const entry of readEntries(block)) {
    if (!OWN_KEYS.has(entry.key)) continue
    if (entry.lines.length > 1) throw new Error(`front matter key "${entry.key}" must fit on one line`)
    data[entry.key] = readScalar(entry.key, entry.value)
  }
  return data
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

export function isCalendarDay(text: string): boolean {
  if (!DAY.test(text)) return false
  const [year, month, day] = text.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

export function isIsoInstant(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) && !Number.isNaN(Date.parse(text))
}

function checkValues(data: Record<string, unknown>): DailyFrontMatter {
  const missing = DAILY_FRONT_MATTER_KEYS.filter((key) => !(key in data))
  if (missing.length > 0)
    throw new Error(`front matter is missing ${missing.map((key) => `"${key}"`).join(', ')}`)
  const fail = (key: DailyFrontMatterKey, expected: string): never => {
    throw new Error(`front matter "${key}" must be ${expected}, found ${JSON.stringify(data[key])}`)
  }
  if (typeof data.date !== 'string' || !isCalendarDay(data.date)) fail('date', "a 'YYYY-MM-DD' day")
  for (const key of ['summarised_until', 'first_message', 'last_message'] as const) {
    const value = data[key]
    if (value !== null && (typeof value !== 'string' || !isIsoInstant(value)))
      fail(key, 'an ISO UTC timestamp or null')
  }
  for (const key of [
    'messages_total',
    'messages_user',
    'messages_assistant',
    'session_trees',
    'session_chats',
  ] as const) {
    const value = data[key]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      fail(key, 'a whole number ≥ 0')
  }
  for (const key of ['scope_mode', 'scope_anchor'] as const) {
    if (typeof data[key] !== 'string') fail(key, 'a text value')
  }
  return data as unknown as DailyFrontMatter
}

/**
 * Splits `text` into validated front matter, extra front matter lines and the body. Throws a plain Error
 * whose message is a one-line reason (callers wrap it into NoteMalformedError).
 */
export function parseFrontMatter(text: string): ParsedFrontMatter {
  if (!/^---\r?\n/.test(text)) throw new Error('note does not start with a "---" front matter block')
  const rest = text.slice(3)
  if (!/\r?\n---[ \t]*(\r?\n|$)/.test(rest)) throw new Error('front matter block is not closed with "---"')
  // Split as gray-matter did (the block ends at the first "\n---"; one line break after it is dropped), without
  // its ~30 ms of imports: the YAML it would load is never used, readFlatYaml reads the block.
  const close = rest.indexOf('\n---')
  const block = rest.slice(0, close)
  const isEmpty = block.replace(/^\s*#[^\n]+/gm, '').trim() === ''
  const frontMatter = checkValues(isEmpty ? {} : readFlatYaml(block))
  const extraLines = readEntries(block)
    .filter((entry) => !OWN_KEYS.has(entry.key))
    .flatMap((entry) => entry.lines)
  const body = rest.slice(close + '\n---'.length).replace(/^\r?\n?/, '')
  return { frontMatter, extraLines, body: body.replace(/\r\n/g, '\n') }
}

const YAML_WORDS = /^(null|~|true|false|yes|no|on|off|y|n)$/i
const NUMBER_LIKE = /^[-+]?(\.?\d|0x|0o|\.inf|\.nan)/i
const DATE_LIKE = /^\d{4}-\d\d?-\d\d?([Tt ]\d|$)/

/** A value YAML reads back as the same string: plain when unambiguous, else single-quoted. */
function formatScalar(value: string | number | null): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return String(value)
  const isPlain =
    /^[\w][\w ./+-]*$/.test(value) &&
    !/\s$/.test(value) &&
    !YAML_WORDS.test(value) &&
    !NUMBER_LIKE.test(value) &&
    !DATE_LIKE.test(value)
  return isPlain ? value : `'${value.replaceAll("'", "''")}'`
}

/** The front matter block (with its `---` lines), dreamlane's keys in order, then the extra lines. */
export function renderFrontMatter(frontMatter: DailyFrontMatter, extraLines: readonly string[] = []): string {
  const lines = DAILY_FRONT_MATTER_KEYS.map((key) => `${key}: ${formatScalar(frontMatter[key])}`)
  return ['---', ...lines, ...extraLines, '---', ''].join('\n')
}
