// Spanish forget requests: "olvida a mi dentista", "por favor olvídate de eso", "no recuerdes eso".
import type { ForgetRequestLocale } from './types.js'

const POLITE = String.raw`(?:por\s+favor,?\s+)?(?:(?:puedes|podrías)\s+)?`

export const es: ForgetRequestLocale = {
  tag: 'es',
  patterns: [
    new RegExp(
      String.raw`^${POLITE}(?:olvida|olvidar|olvídate\s+de|olvidate\s+de)\s+(?:lo\s+de\s+|a\s+)?(?<what>.+?)(?:,?\s+por\s+favor)?[.!?]*$`,
      'iu',
    ),
    new RegExp(String.raw`^${POLITE}no\s+(?:recuerdes|guardes)\s+(?<what>.+?)[.!?]*$`, 'iu'),
  ],
  pointers: new Set([
    ...['eso', 'esto', 'aquello', 'lo', 'todo eso'],
    ...['lo que acabo de decir', 'lo que dije', 'lo que te dije', 'lo que acabo de escribir'],
    ...['mi último mensaje', 'el último mensaje'],
  ]),
}
