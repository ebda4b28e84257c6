// Text folded for matching: case, accents and curly apostrophes do not make "Dr Sousa" a different name.

/** Lower case, accents dropped, ’ as ': what every privacy match compares. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[’‘]/g, "'")
    .toLowerCase()
}

/** The words of `text` as matching sees them: folded runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? []
}
