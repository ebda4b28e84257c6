// German forget requests: "vergiss meinen Zahnarzt", "bitte vergiss das", "merk dir das nicht".
import type { ForgetRequestLocale } from './types.js'

export const de: ForgetRequestLocale = {
  tag: 'de',
  patterns: [
    /^(?:bitte\s+)?(?:vergiss|vergessen\s+sie),?\s+(?:alles\s+über\s+)?(?<what>.+?)(?:,?\s+bitte)?[.!?]*$/iu,
    /^(?:bitte\s+)?merk\s+dir\s+(?<what>.+?)\s+nicht(?:,?\s+bitte)?[.!?]*$/iu,
  ],
  pointers: new Set([
    ...['das', 'es', 'dies', 'dieses', 'das alles', 'alles das'],
    ...[
      'was ich gerade gesagt habe',
      'was ich eben gesagt habe',
      'was ich gesagt habe',
      'was ich gerade schrieb',
    ],
    ...['meine letzte nachricht', 'die letzte nachricht'],
  ]),
}
