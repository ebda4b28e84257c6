// `/private on|off|status`: a stretch of this chat kept out of every dream, cue and the search index.

export type PrivateCommand = { kind: 'on' } | { kind: 'off' } | { kind: 'status' } | { kind: 'usage' }

export const PRIVATE_USAGE = [
  'Usage: /private on|off|status',
  '  /private on      from now on, this chat stays out of memory (dreams, cues, search) until /private off',
  '  /private off     messages after this count again',
  '  /private status  whether this chat is private now, or excluded by memory.excludeChats',
].join('\n')

export function parsePrivateCommand(text: string): PrivateCommand | null {
  const match = /^\/private(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) return null
  const arg = (match[1] ?? '').trim().toLowerCase()
  if (arg === 'on' || arg === 'off') return { kind: arg }
  if (arg === '' || arg === 'status') return { kind: 'status' }
  return { kind: 'usage' }
}
