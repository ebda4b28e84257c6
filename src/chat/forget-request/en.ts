// English forget requests: "please forget my dentist", "don't remember that", "delete what you know about Dr Sousa".
import type { ForgetRequestLocale } from './types.js'

const POLITE = String.raw`(?:(?:please|pls|hey|ok|okay)[,!]?\s+)*(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?`

export const en: ForgetRequestLocale = {
  tag: 'en',
  patterns: [
    new RegExp(String.raw`^${POLITE}forget\s+(?:about\s+)?(?<what>.+?)(?:,?\s+please)?[.!?]*$`, 'iu'),
    new RegExp(
      String.raw`^${POLITE}(?:don'?t|do\s+not|stop)\s+(?:remember|remembering|keep|keeping)\s+(?:anything\s+about\s+)?(?<what>.+?)(?:,?\s+please)?[.!?]*$`,
      'iu',
    ),
    new RegExp(
      String.raw`^${POLITE}(?:delete|erase|remove|wipe)\s+(?:what|everything|all|anything)\s+(?:you\s+)?(?:know|remember|have|keep)\s+(?:about|on|of)\s+(?<what>.+?)(?:\s+from\s+(?:your\s+)?memory)?(?:,?\s+please)?[.!?]*$`,
      'iu',
    ),
  ],
  pointers: new Set(['that', 'this', 'those', 'these', 'what i said', 'what i just said']),
}
