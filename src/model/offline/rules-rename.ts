// A name put right: "her name is spelled Ula, not Ola". Whatever memory holds under the old name takes the new one.
import type { Draft, SentenceView } from './types.js'

// "name is", "spelled", "it's spelt": only words about a name say which one; "it's Tuesday, not Monday" does not.
const NAME_PUT_RIGHT =
  /\b(?:name is|name's|spelled|spelt|spelling is)\s+(?:actually\s+)?(?:spelled\s+|spelt\s+|with an?\s+\S+\s*[,:-]?\s*)?(\S+?)[,;]?\s+not\s+(\S+?)[.,;!]?(?=\s|$)/
const NAME = /^\p{Lu}[\p{L}'’-]*$/u

/** What a slip put right at once opens with: "sorry,", "oops", "no wait,", "correction:" (a regex source). */
export const SLIP_OPENER = '^(?:(?:oh|oops|sorry|no|wait|correction|typo|my bad|actually)[,:;.!\\s-]+)+'
// "sorry, Leith not Leeds", "oops, I meant Jana, not Jane": a slip put right at once, the sentence opening with it.
const SLIP_PUT_RIGHT = new RegExp(
  `${SLIP_OPENER}(?:i meant\\s+|i mean\\s+|it's\\s+|that's\\s+)?(\\S+?)[,;]?\\s+not\\s+(\\S+?)[.,;!]?(?=\\s|$)`,
)

/** The rename a sentence asks for: old name → new name, both written as names. */
export function findRename(view: SentenceView): Draft | null {
  const match = NAME_PUT_RIGHT.exec(view.lower) ?? SLIP_PUT_RIGHT.exec(view.lower)
  if (!match) return null
  const at = (needle: string, from: number): string => {
    const index = view.lower.indexOf(needle, from)
    return view.text.slice(index, index + needle.length)
  }
  const newName = at(match[1] as string, match.index)
  const oldName = at(match[2] as string, match.index + match[0].indexOf(` not ${match[2]}`))
  if (!NAME.test(newName) || !NAME.test(oldName) || newName === oldName) return null
  // "oops, Tuesday not Monday" puts a day right, which no entry holds by name.
  if (view.mentions.length > 0) return null
  return {
    kind: 'rename',
    file: 'user.md',
    section: 'People',
    key: `rename.${oldName.toLowerCase()}`,
    value: newName,
    isSingle: true,
    headline: null,
    previous: oldName,
    isCorrection: true,
  }
}
