// The shapes of a WhatsApp chat export line: Android and iOS headers in common locales, date order, media and system text.
import type { DateOrder } from './types.js'
import { isValidWallTime, type WallTime } from './wall-time.js'

/** A line that starts a new message: its raw date fields, clock time and what follows the header. */
export interface WhatsAppHeader {
  /** The three date numbers in the order written, and the separator between them. */
  fields: [number, number, number]
  firstWidth: number
  separator: string
  hour: number
  minute: number
  second: number
  meridiem: 'am' | 'pm' | null
  /** `Name: text`, or a system notice. */
  rest: string
}

const SPACE = '[ \\u00a0\\u202f]'
const DATE = '(\\d{1,4})([./-])(\\d{1,2})\\2(\\d{1,4}),?'
const TIME = `(\\d{1,2})[:.](\\d{2})(?:[:.](\\d{2}))?(?:${SPACE}*([AaPp])\\.?${SPACE}?[Mm]\\.?)?`
// Android: `12/31/25, 9:05 PM - Name: text` · `31.12.25, 21:05 - Name: text`
const ANDROID = new RegExp(`^${DATE}${SPACE}+${TIME}${SPACE}+[-–]${SPACE}(.*)$`)
// iOS: `[31/12/2025, 21:05:09] Name: text`
const IOS = new RegExp(`^\\[${DATE}${SPACE}+${TIME}\\]${SPACE}*(.*)$`)
// Direction marks WhatsApp puts before system and media lines (and a BOM the line splitter may have missed).
const LEADING_MARKS = /^[\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/

/** The header of `line`, or null for a continuation line. */
export function parseHeader(line: string): WhatsAppHeader | null {
  const text = line.replace(LEADING_MARKS, '')
  const match = ANDROID.exec(text) ?? IOS.exec(text)
  if (!match) return null
  const meridiem = match[8] ? (match[8].toLowerCase() === 'p' ? 'pm' : 'am') : null
  return {
    fields: [Number(match[1]), Number(match[3]), Number(match[4])],
    firstWidth: (match[1] ?? '').length,
    separator: match[2] ?? '/',
    hour: Number(match[5]),
    minute: Number(match[6]),
    second: Number(match[7] ?? 0),
    meridiem,
    rest: match[9] ?? '',
  }
}

/** The order a header proves (a 4-digit first field, or a field above 12), or null while ambiguous. */
export function provenOrder(header: WhatsAppHeader): DateOrder | null {
  const [first, second] = header.fields
  if (header.firstWidth === 4) return 'ymd'
  if (first > 12) return 'dmy'
  if (second > 12) return 'mdy'
  return null
}

/** When no date in the file decides it: dots are European (D.M.Y), a 12-hour clock suggests US (M/D/Y). */
export function guessOrder(header: WhatsAppHeader): DateOrder {
  if (header.separator === '.') return 'dmy'
  return header.meridiem ? 'mdy' : 'dmy'
}

/** The header's local wall time under `order`, or null when it is not a real date/time. */
export function wallTimeOf(header: WhatsAppHeader, order: DateOrder): WallTime | null {
  const [a, b, c] = header.fields
  const [year, month, day] = order === 'ymd' ? [a, b, c] : order === 'dmy' ? [c, b, a] : [c, a, b]
  let hour = header.hour
  if (header.meridiem) {
    if (hour < 1 || hour > 12) return null
    hour = (hour % 12) + (header.meridiem === 'pm' ? 12 : 0)
  }
  const wall = {
    year: year < 100 ? 2000 + year : year,
    month,
    day,
    hour,
    minute: header.minute,
    second: header.second,
  }
  return isValidWallTime(wall) ? wall : null
}

/** `2025-12-31T21:05:09`: the time as the export wrote it, part of each message's stable id. */
export function wallKey(wall: WallTime): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`
}

export type LineBody =
  { kind: 'message'; sender: string; text: string } | { kind: 'system' } | { kind: 'deleted' }

const DELETED = new Set([
  'This message was deleted',
  'This message was deleted.',
  'You deleted this message',
  'You deleted this message.',
  'null',
])
// Android writes the locale's placeholder; iOS writes "<kind> omitted" after a direction mark.
const ANDROID_MEDIA = new Set([
  '<Media omitted>',
  '<Medien ausgeschlossen>',
  '<Multimedia omitido>',
  '<Médias omis>',
  '<Media weggelaten>',
])
const IOS_MEDIA = /^(image|video|audio|sticker|GIF|document|Contact card) omitted$/i
const ATTACHED = /^<attached: ([^>]+)>$/
const FILE_ATTACHED = /^(.+\.[A-Za-z0-9]{2,5}) \(file attached\)$/

/**
 * Splits `Name: text` and classifies it. Lines without a `Name: ` prefix are system notices on Android; on
 * iOS a system notice or media placeholder carries a direction mark right after the name.
 */
export function parseBody(rest: string): LineBody {
  const colon = rest.indexOf(': ')
  if (colon <= 0) return { kind: 'system' }
  const sender = rest.slice(0, colon).replace(LEADING_MARKS, '').trim()
  // "Alice changed the subject to "Re: trip"": a notice whose text holds a colon, not a sender.
  if (sender === '' || sender.length > 80 || /["“”]/.test(sender)) return { kind: 'system' }
  const raw = rest.slice(colon + 2)
  const text = raw.replace(LEADING_MARKS, '').trim()
  if (DELETED.has(text)) return { kind: 'deleted' }
  if (ANDROID_MEDIA.has(text) || IOS_MEDIA.test(text))
    return { kind: 'message', sender, text: '[media omitted]' }
  const attached = ATTACHED.exec(text) ?? FILE_ATTACHED.exec(text)
  if (attached) return { kind: 'message', sender, text: `[attached: ${attached[1]}]` }
  if (LEADING_MARKS.test(raw)) return { kind: 'system' }
  return { kind: 'message', sender, text: raw }
}

/** The chat's name from an export's file name: `WhatsApp Chat with Alice.txt`, `WhatsApp Chat - Team.zip`. */
export function chatNameOf(fileName: string): string | null {
  const stem = fileName.replace(/\.(txt|zip)$/i, '').trim()
  const named = /^WhatsApp[- ]Chat(?: with| mit| con| avec| met| com|[ ]?-)?\s+(.+)$/i.exec(stem)
  if (named?.[1]) return named[1].trim()
  return stem === '' || stem === '_chat' ? null : stem
}
