// Parses `/dream …` chat input into an action; the words of the replies live here too.

export type DreamCommand =
  | { kind: 'dream'; days: number; clamped: boolean }
  | { kind: 'status' }
  | { kind: 'usage' }

export const DREAM_USAGE = [
  'Usage: /dream [days]',
  '  /dream          consolidate the last 7 days of chat into memory',
  '  /dream 30       the last 30 days (1 to the configured maximum)',
  '  /dream status   the latest dream and whether another would run now',
  '  /dream help     this help',
].join('\n')

/** Returns null when `text` is not a /dream command at all. */
export function parseDreamCommand(text: string, limits: { defaultDays: number; maxDays: number }): DreamCommand | null {
  const match = /^\/dream(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) return null
  const arg = (match[1] ?? '').trim().toLowerCase()
  if (arg === '') return { kind: 'dream', days: limits.defaultDays, clamped: false }
  if (arg === 'status') return { kind: 'status' }
  if (!/^\d{1,9}$/.test(arg)) return { kind: 'usage' }
  const requested = Number(arg)
  const days = Math.min(Math.max(requested, 1), limits.maxDays)
  return { kind: 'dream', days, clamped: requested > limits.maxDays }
}

export function queuedReply(days: number, clamped: boolean, maxDays: number): string {
  const note = clamped ? ` (capped at the maximum of ${maxDays})` : ''
  return `Dream queued in the background for the last ${days} day(s)${note}.`
}
