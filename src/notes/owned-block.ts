// Dream-owned blocks inside memory files: `<!-- dreamlane:begin NAME -->` … `<!-- dreamlane:end NAME -->`.
// A dream rewrites only what is between its markers; everything around them is kept byte for byte.

/** MEMORY.md's block: the index a dream rewrites; the lines around it are the user's (the write tools enforce it). */
export const INDEX_BLOCK = 'index'

const begin = (name: string): string => `<!-- dreamlane:begin ${name} -->`
const end = (name: string): string => `<!-- dreamlane:end ${name} -->`

interface BlockSpan {
  start: number
  stop: number
}

function findBlock(text: string, name: string): BlockSpan | null {
  const start = text.indexOf(begin(name))
  if (start === -1) return null
  const close = text.indexOf(end(name), start)
  if (close === -1) return null
  return { start, stop: close + end(name).length }
}

/** The lines between the markers, or null when the file has no such block. */
export function readBlock(text: string, name: string): string | null {
  const span = findBlock(text, name)
  if (!span) return null
  return text.slice(span.start + begin(name).length, span.stop - end(name).length).replace(/^\n|\n$/g, '')
}

/** `text` with the block's body replaced by `body`, or the block appended at the end when absent. */
export function writeBlock(text: string, name: string, body: string): string {
  const block = `${begin(name)}\n${body.replace(/\n+$/, '')}\n${end(name)}`
  const span = findBlock(text, name)
  if (span) return `${text.slice(0, span.start)}${block}${text.slice(span.stop)}`
  const base = text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`
  return `${base}${base === '' ? '' : '\n'}${block}\n`
}

/**
 * `text` without the block `name` (markers included), blank lines around the cut and at the ends trimmed: what
 * a write must leave as it was. A text with no such block is all outside.
 */
export function outsideBlock(text: string, name: string): string {
  const span = findBlock(text, name)
  if (!span) return text.trim()
  const before = text.slice(0, span.start).trim()
  const after = text.slice(span.stop).trim()
  return [before, after].filter((part) => part !== '').join('\n\n')
}

/** True when `text` holds the block `name`, both markers in order. */
export function hasBlock(text: string, name: string): boolean {
  return findBlock(text, name) !== null
}

/** The two marker lines of block `name`, as a model writes them. */
export function blockMarkers(name: string): { begin: string; end: string } {
  return { begin: begin(name), end: end(name) }
}
