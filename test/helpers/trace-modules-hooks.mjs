// The loader hooks behind trace-modules.mjs (they run on the loader thread): one line per loaded module URL.
import { appendFileSync } from 'node:fs'

let file = ''

export function initialize(data) {
  file = data.file
}

export async function load(url, context, next) {
  appendFileSync(file, `${url}\n`)
  return next(url, context)
}
