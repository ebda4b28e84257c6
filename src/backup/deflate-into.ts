// Raw deflate of one small note straight into a caller's buffer, without the zlib stream deflateRawSync builds per call.
import { createRequire } from 'node:module'

/**
 * Plain JavaScript for the pack code's text (`pack-worker.ts`), which runs on the pack thread and on the main thread.
 * It defines `deflateInto(data, level, out, at)`: writes `data`'s raw deflate stream (window 15, memory level 8,
 * default strategy: deflateRawSync's defaults) into `out` from `at` and returns its length, or -1 when it would not be
 * shorter than `data` (a zip stores such a note as it is). At most `data.length` bytes of `out` are written.
 *
 * deflateRawSync builds a Transform stream per call (option checks, stream state, listeners, a closing destroy):
 * ~10-20 µs of JavaScript per note, as much as deflating a 4 KB note at level 1, and more in a short process whose
 * code never leaves the interpreter. zlib's native handle (the class behind every zlib stream's `_handle`) does the
 * same deflate, a fresh one per note, so each note's bytes are exactly what deflateRawSync gives. That class is
 * Node's internal API: it is used only when it deflates a sample byte for byte as deflateRawSync does at two
 * levels, and otherwise (or if it ever throws while starting) deflateRawSync is used.
 */
export const DEFLATE_INTO_SOURCE = String.raw`
const deflateInto = (() => {
  const zlib = require('node:zlib')
  const { Z_FINISH, DEFLATERAW } = zlib.constants
  // Output chunks below 4 KiB come from Buffer's shared pool, not a fresh 16 KiB buffer per note.
  const viaStream = (data, level, out, at) => {
    const deflated = zlib.deflateRawSync(data, { level, chunkSize: 2048 })
    return deflated.length < data.length ? deflated.copy(out, at) : -1
  }
  let Native
  try {
    const probe = new zlib.DeflateRaw()
    Native = probe._handle && probe._handle.constructor
    probe.close()
  } catch {
    return viaStream
  }
  if (typeof Native !== 'function') return viaStream
  const state = new Uint32Array(2) // zlib's avail_out and avail_in after each write
  const noop = () => {}
  const viaHandle = (data, level, out, at) => {
    const handle = new Native(DEFLATERAW)
    let failure
    handle.onerror = (message, errno) => (failure ??= Object.assign(new Error(message), { errno }))
    try {
      handle.init(15, level, 8, 0, state, noop, undefined)
      if (!failure) handle.writeSync(Z_FINISH, data, 0, data.length, out, at, data.length)
    } finally {
      handle.close()
    }
    if (failure) throw failure
    // Z_FINISH returns with output space left only once the stream is complete; none left means not shorter.
    return state[0] > 0 && state[1] === 0 ? data.length - state[0] : -1
  }
  try {
    const sample = Buffer.from('a note, a note, a sample note: deflated here as deflateRawSync would\n'.repeat(9))
    const out = Buffer.alloc(sample.length)
    for (const level of [1, 6]) {
      const length = viaHandle(sample, level, out, 0)
      if (length < 0 || !out.subarray(0, length).equals(zlib.deflateRawSync(sample, { level }))) return viaStream
    }
  } catch {
    return viaStream
  }
  return viaHandle
})()
`

/** What DEFLATE_INTO_SOURCE defines. */
export type DeflateInto = (data: Buffer, level: number, out: Buffer, at: number) => number

/**
 * DEFLATE_INTO_SOURCE compiled on this thread (the pack code compiles it as part of its own text); `load` stands in
 * for `require` (tests hand it a zlib without the native handle).
 */
export function compileDeflateInto(
  load: (id: string) => unknown = createRequire(import.meta.url),
): DeflateInto {
  const build = new Function('require', `${DEFLATE_INTO_SOURCE}\nreturn deflateInto`) as (
    require: (id: string) => unknown,
  ) => DeflateInto
  return build(load)
}
