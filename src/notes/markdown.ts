// Markdown section edits shared by every writer of memory files: the one "insert under a heading" helper.

/**
 * Appends `lines` at the end of the `heading` section (before the next `#`/`##` heading), creating the
 * section at the end of the file when it is missing. The heading matches case-insensitively; bytes already
 * there are kept, and one blank line separates the new lines from a heading right after them.
 */
export function insertUnderHeading(text: string, heading: string, lines: readonly string[]): string {
  const all = text.split('\n')
  const start = all.findIndex((line) => line.trim().toLowerCase() === heading.toLowerCase())
  if (start === -1) {
    const base = text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`
    return `${base}${base === '' ? '' : '\n'}${heading}\n\n${lines.join('\n')}\n`
  }
  let end = all.length
  for (let i = start + 1; i < all.length; i++) {
    if (/^#{1,2} /.test(all[i] ?? '')) {
      end = i
      break
    }
  }
  // Insert after the section's last non-blank line so spacing before the next heading stays as it was.
  let at = end
  while (at > start + 1 && (all[at - 1] ?? '').trim() === '') at--
  const insert = at === start + 1 ? ['', ...lines] : [...lines]
  if (at < all.length && (all[at] ?? '').trim() !== '') insert.push('')
  if (at === all.length) insert.push('')
  all.splice(at, 0, ...insert)
  return all.join('\n')
}
