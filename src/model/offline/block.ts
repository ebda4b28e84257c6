// Dream-owned blocks inside memory files: `<!-- dreamlane:begin NAME -->` … `<!-- dreamlane:end NAME -->`.
// A dream rewrites only what is between its markers; everything around them is kept byte for byte.

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
