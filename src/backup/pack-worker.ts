// The code that packs notes (read small notes whole, hash, CRC and deflate them): on a worker thread, and on the
// main thread while that thread starts or whenever the archive would otherwise wait for it.
import { createRequire } from 'node:module'
import { DEFLATE_INTO_SOURCE } from './deflate-into.js'

/**
 * Plain JavaScript run with `new Worker(source, { eval: true })`, so it works the same from `dist/`, under
 * tsx and under vitest (a `.ts` worker file would not load from all three). Node built-ins only. The main
 * thread runs the same text (`createLocalPacker`), so both sides pack byte for byte alike.
 *
 * `packFiles(files, wholeReadBytes, level)` returns `{ body, results }` where `body` is one ArrayBuffer holding
 * every packed entry's body back to back (it may be longer than they need), and each result is
 * `{ status: 'packed', size, sha256, crc32, method, offset, length }` | `{ status: 'missing' }` (vanished)
 * | `{ status: 'large' }` (wholeReadBytes or more: the main thread streams it) | `{ status: 'failed', code, message }`.
 * `recycleBody(body)` hands a body back once its entries are written; the next batches reuse it, so the bodies
 * in flight are a few buffers reused, not one new allocation per batch left for the main thread's garbage
 * collector to free (at 20,000 notes several MiB of them were waiting at any time).
 * Reads are synchronous on purpose: a packer has nothing else to do meanwhile, and sync reads of small files
 * cost a quarter of the CPU of thread-pool round trips.
 */
const PACK_CORE_SOURCE =
  DEFLATE_INTO_SOURCE +
  String.raw`
const { openSync, readSync, closeSync } = require('node:fs')
const { createHash, hash } = require('node:crypto')
const { crc32 } = require('node:zlib')

let scratch = Buffer.alloc(0)
// crypto.hash (Node 20.12+) builds no Hash object, whose option checks were a third of hashing a small note.
const sha256Hex = typeof hash === 'function'
  ? (data) => hash('sha256', data, 'hex')
  : (data) => createHash('sha256').update(data).digest('hex')

/** Reads one note whole and appends its body (deflated, or stored when deflate can't shrink it) to out. */
function packOne(file, wholeReadBytes, level, out) {
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
    const sha256 = sha256Hex(data)
    const offset = reserve(out, size)
    const deflated = size > 0 ? deflateInto(data, level, out.body, offset) : -1
    const length = deflated >= 0 ? deflated : data.copy(out.body, offset)
    out.length = offset + length
    return { status: 'packed', size, sha256, crc32: crc32(data), method: deflated >= 0 ? 8 : 0, offset, length }
  } finally {
    closeSync(fd)
  }
}

// Bodies handed back once written, to reuse; a few cover the batches in flight.
const MAX_SPARES = 4
const MIN_BODY_BYTES = 128 * 1024
const spares = []

function bodyBuffer(bytes) {
  const index = spares.findIndex((spare) => spare.byteLength >= bytes)
  if (index >= 0) return Buffer.from(spares.splice(index, 1)[0])
  // Unpooled, so transferring it detaches nothing else.
  return Buffer.allocUnsafeSlow(Math.max(bytes, MIN_BODY_BYTES))
}

function recycleBody(body) {
  if (spares.length < MAX_SPARES) spares.push(body)
}

/** Where the next body of up to bytes goes in out.body, grown (by copying what it holds) when it has no room. */
function reserve(out, bytes) {
  if (out.body.length - out.length < bytes) {
    const larger = bodyBuffer(Math.max(out.length + bytes, out.body.length * 2))
    out.body.copy(larger, 0, 0, out.length)
    recycleBody(out.body.buffer)
    out.body = larger
  }
  return out.length
}

function packFiles(files, wholeReadBytes, level) {
  // Bodies are deflated straight into the batch's buffer, each after the one before.
  const out = { body: bodyBuffer(0), length: 0 }
  const results = []
  for (const file of files) {
    let result
    try {
      result = packOne(file, wholeReadBytes, level, out)
    } catch (error) {
      result = { status: 'failed', code: error && error.code, message: String(error && error.message) }
    }
    results.push(result)
  }
  return { body: out.body.buffer, results }
}
`

/**
 * The worker: `{ id, files, wholeReadBytes, level }` → `{ id, body, results }` (the body transferred);
 * `{ recycle: ArrayBuffer }` hands a body back. It says `{ ready: true }` once it can take work.
 */
export const PACK_WORKER_SOURCE =
  PACK_CORE_SOURCE +
  String.raw`
const { parentPort } = require('node:worker_threads')
parentPort.on('message', ({ id, files, wholeReadBytes, level, recycle }) => {
  if (recycle) return recycleBody(recycle)
  const { body, results } = packFiles(files, wholeReadBytes, level)
  parentPort.postMessage({ id, body, results }, [body])
})
parentPort.postMessage({ ready: true })
`

export type PackResult =
  | {
      status: 'packed'
      size: number
      sha256: string
      crc32: number
      method: number
      offset: number
      length: number
    }
  | { status: 'missing' }
  | { status: 'large' }
  | { status: 'failed'; code?: string; message: string }

/** What packing a batch gives back, on either thread. */
export interface PackedFiles {
  body: ArrayBuffer
  results: PackResult[]
}

/** The packing code run on the calling thread, with its own read buffer and spare bodies. */
export interface LocalPacker {
  packFiles(files: readonly string[], wholeReadBytes: number, level: number): PackedFiles
  recycleBody(body: ArrayBuffer): void
}

/** The worker's packing code, compiled once more for the calling thread (one text, so one behaviour). */
export function createLocalPacker(): LocalPacker {
  const build = new Function('require', `${PACK_CORE_SOURCE}\nreturn { packFiles, recycleBody }`) as (
    require: NodeJS.Require,
  ) => LocalPacker
  return build(createRequire(import.meta.url))
}
