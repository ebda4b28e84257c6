// Parses `/dream …` chat input into an action; the words of the replies live here too.

export type DreamCommand =
  | { kind: 'dream'; days: number; clamped: boolean }
  | { kind: 'status' }
  | { kind: 'usage' }
  /** Review actions; `id` null means the newest run they apply to. */
  | { kind: 'apply'; id: string | null }
  | { kind: 'discard'; id: string | null }
  | { kind: 'undo'; id: string | null; force: boolean }

export const DREAM_USAGE = [
  'Usage: /dream [days]',
  '  /dream          consolidate the last 7 days of chat into memory',
  '  /dream 30       the last 30 days (1 to the configured maximum)',
  '  /dream status   the latest dream and whether another would run now',
  '  /dream apply    write the dream held for review (or /dream apply <run id>)',
  '  /dream discard  drop the dream held for review; notes stay as they are',
  '  /dream undo     restore what the last dream changed (add --force to overwrite later edits, after a backup)',
  '  /dream help     this help',
].join('\n')

const RUN_ID = /^[A-Za-z0-9._:@-]{1,200}$/

/** Returns null when `text` is not a /dream command at all. */
export function parseDreamCommand(
  text: string,
  limits: { defaultDays: number; maxDays: number },
): DreamCommand | null {
  const match = /^\/dream(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) return null
  const arg = (match[1] ?? '').trim()
  const words = arg.split(/\s+/).filter(Boolean)
  const action = (words[0] ?? '').toLowerCase()
  if (action === 'apply' || action === 'discard' || action === 'undo')
    return parseReview(action, words.slice(1))
  const lower = arg.toLowerCase()
  if (lower === '') return { kind: 'dream', days: limits.defaultDays, clamped: false }
  if (lower === 'status') return { kind: 'status' }
  if (!/^\d{1,9}$/.test(lower)) return { kind: 'usage' }
  const requested = Number(lower)
  const days = Math.min(Math.max(requested, 1), limits.maxDays)
  return { kind: 'dream', days, clamped: requested > limits.maxDays }
}

function parseReview(action: 'apply' | 'discard' | 'undo', rest: string[]): DreamCommand {
  const force = rest.includes('--force')
  const ids = rest.filter((word) => word !== '--force')
  if (ids.length > 1 || (ids[0] !== undefined && !RUN_ID.test(ids[0])) || (force && action !== 'undo'))
    return { kind: 'usage' }
  const id = ids[0] ?? null
  if (action === 'undo') return { kind: 'undo', id, force }
  return action === 'apply' ? { kind: 'apply', id } : { kind: 'discard', id }
}

export function queuedReply(days: number, clamped: boolean, maxDays: number): string {
  const note = clamped ? ` (capped at the maximum of ${maxDays})` : ''
  return `Dream queued in the background for the last ${days} day(s)${note}.`
}
