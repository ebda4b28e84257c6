// Parses `/dreaming on|off|status` — the AutoDream switch in chat.

export type DreamingCommand = { kind: 'on' } | { kind: 'off' } | { kind: 'status' } | { kind: 'usage' }

export const DREAMING_USAGE = [
  'Usage: /dreaming on|off|status',
  '  /dreaming on      nightly AutoDream on (kept across restarts)',
  '  /dreaming off     nightly AutoDream off',
  '  /dreaming status  whether it is on, when it runs next, and what the gates would say now',
].join('\n')

export function parseDreamingCommand(text: string): DreamingCommand | null {
  const match = /^\/dreaming(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) return null
  const arg = (match[1] ?? 'status').trim().toLowerCase()
  if (arg === 'on' || arg === 'off' || arg === 'status') return { kind: arg }
  return { kind: 'usage' }
}
