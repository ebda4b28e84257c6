// Parses `/dreaming on|off|core|deep|rem|status` — the AutoDream switch and the promotion sweeps' mode in chat.

export type DreamingCommand =
  | { kind: 'on' }
  | { kind: 'off' }
  | { kind: 'status' }
  | { kind: 'mode'; mode: 'core' | 'deep' | 'rem' }
  | { kind: 'usage' }

export const DREAMING_USAGE = [
  'Usage: /dreaming on|off|core|deep|rem|status',
  '  /dreaming on      nightly AutoDream and promotion sweeps on (kept across restarts)',
  '  /dreaming off     nightly AutoDream and promotion sweeps off',
  '  /dreaming core    sweeps promote with the everyday bar (also: deep asks for more distinct queries,',
  '                    rem for more of everything)',
  '  /dreaming status  whether it is on, when it runs next, and what the gates would say now',
].join('\n')

export function parseDreamingCommand(text: string): DreamingCommand | null {
  const match = /^\/dreaming(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) return null
  const arg = (match[1] ?? 'status').trim().toLowerCase()
  if (arg === 'on' || arg === 'off' || arg === 'status') return { kind: arg }
  if (arg === 'core' || arg === 'deep' || arg === 'rem') return { kind: 'mode', mode: arg }
  return { kind: 'usage' }
}
