// Secrets in config and code: `DB_PASSWORD=…`, `"api_key": "…"`, `export GITHUB_TOKEN=…`, `wifi.psk = …`.
import type { SecretKind, SecretParser } from '../types.js'
import type { PhrasedSpan } from './phrases.js'

// A key naming a secret, `=` or `:`, then the value (quoted or bare) on the same line.
const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*?(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|private[_-]?key|psk|pin)[A-Za-z0-9_.-]*)["']?[ \t]*[:=][ \t]*(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|([^\s"',;]{4,200}))/gi

function kindOf(key: string): SecretKind {
  const lower = key.toLowerCase()
  if (/psk|wifi|wlan/.test(lower)) return 'wifi-password'
  if (/passw|pwd/.test(lower)) return 'password'
  if (/(?:^|[_.-])pin(?:$|[_.-])/.test(lower)) return 'pin'
  if (/token/.test(lower)) return 'access-token'
  return 'api-key'
}

export const assignmentParser: SecretParser = {
  name: 'assignments',
  find(text) {
    // Phrased: the value still has to look like its kind (`max_tokens: 4096` is no token).
    const spans: PhrasedSpan[] = []
    for (const match of text.matchAll(ASSIGNMENT)) {
      const key = match[1] ?? ''
      if (/^pin/i.test(key) && !/^pin(?:$|[_.-])/i.test(key)) continue
      const value = match[2] ?? match[3] ?? match[4] ?? ''
      const start = match.index + match[0].length - value.length - (match[4] === undefined ? 1 : 0)
      spans.push({ kind: kindOf(key), start, end: start + value.length, isPhrased: true })
    }
    return spans
  },
}
