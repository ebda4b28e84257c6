// `/forget <what>`, `/forget confirm`, `/forget undo`, and plain-language requests ("please forget my dentist"):
// the chat's way to forget on request. A request is answered with the preview; only a confirm removes.
import { recogniseForgetRequest } from './forget-request/configuration.js'

export type ForgetCommand =
  | { kind: 'preview'; what: string }
  | { kind: 'confirm'; purgeBackups: boolean }
  | { kind: 'undo'; id: string | null }
  | { kind: 'cancel' }
  /** "forget that": the request points back at the chat's last turn, which names what to look for. */
  | { kind: 'ask' }
  | { kind: 'usage' }

export const FORGET_USAGE = [
  'Usage: /forget <what>',
  '  /forget my dentist      show what memory holds about it (nothing is removed yet)',
  '  /forget confirm         remove what the last preview in this chat showed (add --purge-backups to rewrite the backups too)',
  '  /forget cancel          drop that preview',
  '  /forget undo            put the last forget back (until the next dream)',
].join('\n')

/** The reply when "forget that" points at nothing (no earlier message, or one that names nothing). */
export const FORGET_ASK =
  'What should I forget? Name it in a few words — e.g. `/forget my dentist` or "please forget Dr Sousa" — and I will show exactly what goes before anything is removed.'

/** `/forget …`, or a plain-language request; null for anything else. */
export function parseForgetCommand(text: string): ForgetCommand | null {
  const match = /^\/forget(?:\s+(.*))?$/is.exec(text.trim())
  if (!match) {
    const request = recogniseForgetRequest(text)
    if (!request) return null
    return request.kind === 'pointer' ? { kind: 'ask' } : { kind: 'preview', what: request.what }
  }
  const arg = (match[1] ?? '').trim()
  const words = arg.split(/\s+/).filter(Boolean)
  const action = (words[0] ?? '').toLowerCase()
  if (arg === '' || action === 'help') return { kind: 'usage' }
  if (action === 'confirm' || action === 'yes') {
    const rest = words.slice(1)
    if (rest.some((word) => word !== '--purge-backups')) return { kind: 'usage' }
    return { kind: 'confirm', purgeBackups: rest.includes('--purge-backups') }
  }
  if (action === 'cancel') return words.length === 1 ? { kind: 'cancel' } : { kind: 'usage' }
  if (action === 'undo') {
    if (words.length > 2) return { kind: 'usage' }
    return { kind: 'undo', id: words[1] ?? null }
  }
  return { kind: 'preview', what: arg }
}

export function previewReply(message: string, hasItems: boolean): string {
  return hasItems
    ? `${message}\nReply \`/forget confirm\` to remove it, or \`/forget cancel\`.`
    : `${message}\nReply \`/forget confirm\` to have later dreams skip it anyway, or \`/forget cancel\`.`
}
