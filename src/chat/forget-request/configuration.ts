// Every language's forget-request rules, assembled, and the one function the chat host asks.
import { de } from './de.js'
import { en } from './en.js'
import { es } from './es.js'
import { fr } from './fr.js'
import { pt } from './pt.js'
import type { ForgetRequestLocale } from './types.js'

export const FORGET_REQUEST_LOCALES: readonly ForgetRequestLocale[] = [en, pt, es, de, fr]

/** A recognised request: what to forget, or a pointer back at an earlier message ("forget that"). */
export type ForgetRequest =
  { kind: 'what'; what: string; locale: string } | { kind: 'pointer'; locale: string }

/** Longest chat input read as a request: a request is one short sentence, not a pasted text that mentions one. */
const MAX_REQUEST_CHARS = 200

/** The forget request `text` is, or null (most chat input). */
export function recogniseForgetRequest(text: string): ForgetRequest | null {
  const input = text.trim().replace(/\s+/g, ' ')
  if (input.length > MAX_REQUEST_CHARS || input.includes('\n')) return null
  for (const locale of FORGET_REQUEST_LOCALES)
    for (const pattern of locale.patterns) {
      const what = pattern.exec(input)?.groups?.what?.trim()
      if (!what) continue
      if (locale.pointers.has(what.toLowerCase().replace(/[’‘]/g, "'")))
        return { kind: 'pointer', locale: locale.tag }
      // "forget it" is "never mind", not a request: a word of two letters or fewer names nothing.
      if (!/[\p{L}\p{N}]{3}|\s/u.test(what)) return null
      return { kind: 'what', what, locale: locale.tag }
    }
  return null
}
