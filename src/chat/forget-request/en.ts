// English forget requests: "please forget my dentist", "don't remember that", "delete what you know about Dr Sousa".
import type { ForgetRequestLocale } from './types.js'

const POLITE = String.raw`(?:(?:please|pls|hey|ok|okay)[,!]?\s+)*(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?`

/** "…, please", "…, ok?": a word after the request that names nothing. */
const TRAILING = String.raw`(?:,?\s+(?:please|pls|ok|okay|thanks|thank\s+you))?`

export const en: ForgetRequestLocale = {
  tag: 'en',
  patterns: [
    new RegExp(String.raw`^${POLITE}forget\s+(?:about\s+)?(?<what>.+?)${TRAILING}[.!?]*$`, 'iu'),
    new RegExp(
      String.raw`^${POLITE}(?:don['’]?t|do\s+not|stop)\s+(?:remember|remembering|keep|keeping)\s+(?:anything\s+about\s+)?(?<what>.+?)${TRAILING}[.!?]*$`,
      'iu',
    ),
    new RegExp(
      String.raw`^${POLITE}(?:delete|erase|remove|wipe)\s+(?:what|everything|all|anything)\s+(?:you\s+)?(?:know|remember|have|keep)\s+(?:about|on|of)\s+(?<what>.+?)(?:\s+from\s+(?:your\s+)?memory)?${TRAILING}[.!?]*$`,
      'iu',
    ),
  ],
  pointers: new Set([
    ...['that', 'this', 'those', 'these', 'all that', 'all of that', 'any of that', 'that last bit'],
    ...['what i said', 'what i just said', 'what i just told you', 'what i told you', 'what i just wrote'],
    ...['everything i just said', 'the last thing i said', 'my last message', 'the last message'],
    ...['i said that', 'i said this', 'i ever said that'],
  ]),
}
