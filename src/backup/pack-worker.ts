// The code a packing worker runs: read small notes whole, hash, CRC and deflate them, off the main thread.

/**
 * Plain JavaScript run with `new Worker(source, { eval: true })`, so it works the same from `dist/`, under
 * tsx and under vitest (a `.ts` worker file would not load from all three). Node built-ins only.
 *
 * Request: `{ id, files: string[], wholeReadBytes, level }`. Reply: `{ id, body, results }` where `body` is
 * one transferred ArrayBuffer holding every packed entry's body back to back (it may be longer than they
 * need), and each result is
 * `{ status: 'packed', size, sha256, crc32, method, offset, length }` | `{ status: 'missing' }` (vanished)
 * | `{ status: 'large' }` (wholeReadBytes or more: the main thread streams it) | `{ status: 'failed', code, message }`.
 * `{ recycle: ArrayBuffer }` hands a reply's body back once the main thread is done with it; the next replies
 * reuse it, so the bodies in flight are a few buffers reused, not one new allocation per batch left for the
 * main thread's garbage collector to free (at 20,000 notes several MiB of them were waiting at any time).
 * Reads are synchronous on purpose: a worker has nothing else to do, and sync reads of small files cost a
 * quarter of the CPU of thread-pool round trips.
 */
export const PACK_WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads')
const { openSync, readSync, closeSync } = require('node:fs')
const { createHash } = require('node:crypto')
const { crc32, deflateRawSync } = require('node:zlib')

// Output chunks below 4 KiB come from Buffer's shared pool: a fresh 16 KiB one per note was most of the
// worker's memory, freed only when a (rare, as it allocates little else) garbage collection ran.
const CHUNK = 2048
let scratch = Buffer.alloc(0)

function packOne(file, wholeReadBytes, level) {
  let fd
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { status: 'missing' }
    throw error
  }
  try {
    if (scratch.length !== wholeReadBytes) scratch = Buffer.allocUnsafe(wholeReadBytes)
    let size = 0
    for (;;) {
      const read = readSync(fd, scratch, size, scratch.length - size, null)
      if (read === 0) break
      size += read
      if (size === scratch.length) return { status: 'large' }
    }
    const data = scratch.subarray(0, size)
    const sha256 = createHash('sha256').update(data).digest('hex')
    const deflated = size > 0 ? deflateRawSync(data, { level, chunkSize: CHUNK }) : undefined
    const stored = !deflated || deflated.length >= size
    return { status: 'packed', size, sha256, crc32: crc32(data), method: stored ? 0 : 8,
      body: stored ? Buffer.from(data) : deflated }
  } finally {
    closeSync(fd)
  }
}

// Bodies handed back by the main thread, to reuse; a few cover the batches in flight.
const MAX_SPARES = 4
const MIN_BODY_BYTES = 128 * 1024
const spares = []

function bodyBuffer(bytes) {
  const index = spares.findIndex((spare) => spare.byteLength >= bytes)
  if (index >= 0) return Buffer.from(spares.splice(index, 1)[0], 0, bytes)
  // Unpooled, so transferring it detaches nothing else.
  return Buffer.allocUnsafeSlow(Math.max(bytes, MIN_BODY_BYTES)).subarray(0, bytes)
}

parentPort.on('message', ({ id, files, wholeReadBytes, level, recycle }) => {
  if (recycle) {
    if (spares.length < MAX_SPARES) spares.push(recycle)
    return
  }
  const results = []
  const bodies = []
  let total = 0
  for (const file of files) {
    let result
    try {
      result = packOne(file, wholeReadBytes, level)
    } catch (error) {
      result = { status: 'failed', code: error && error.code, message: String(error && error.message) }
    }
    if (result.body) {
      bodies.push(result.body)
      result.offset = total
      result.length = result.body.length
      total += result.body.length
      delete result.body
    }
    results.push(result)
  }
  const body = bodyBuffer(total)
  let at = 0
  for (const part of bodies) at += part.copy(body, at)
  parentPort.postMessage({ id, body: body.buffer, results }, [body.buffer])
})
`
