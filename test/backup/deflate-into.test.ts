import { randomBytes } from 'node:crypto'
import * as zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compileDeflateInto } from '../../src/backup/deflate-into.js'

/** Notes of many sizes and shapes: empty-ish, repetitive, prose-like, mixed with random bytes. */
function samples(): Buffer[] {
  const words = 'the user met Sam in Berlin about the launch budget and decided to ship v2 on Friday'.split(
    ' ',
  )
  const prose = (bytes: number, seed: number): Buffer => {
    let text = ''
    for (let i = seed; text.length < bytes; i = (i * 1103515245 + 12345) >>> 0)
      text += `${words[i % words.length]} `
    return Buffer.from(text.slice(0, bytes))
  }
  return [
    Buffer.from('x'),
    Buffer.from('- fact\n'),
    Buffer.from('# 2026-11-21\n\n'.repeat(200)),
    prose(900, 1),
    prose(4096, 7),
    prose(60_000, 3),
    Buffer.concat([prose(2000, 5), randomBytes(500), prose(2000, 9)]),
  ]
}

describe('deflateInto', () => {
  const deflateInto = compileDeflateInto()

  it.each([1, 4, 6, 9])('writes the bytes deflateRawSync gives at level %i, at any offset', (level) => {
    for (const data of samples()) {
      const out = Buffer.alloc(data.length + 100, 0xee)
      const length = deflateInto(data, level, out, 100)
      const expected = zlib.deflateRawSync(data, { level })
      if (expected.length >= data.length) {
        expect(length).toBe(-1)
        continue
      }
      expect(length).toBe(expected.length)
      expect(out.subarray(100, 100 + length).equals(expected)).toBe(true)
      expect(out.subarray(0, 100).every((byte) => byte === 0xee)).toBe(true)
      expect(zlib.inflateRawSync(out.subarray(100, 100 + length)).equals(data)).toBe(true)
    }
  })

  it('answers -1 for bytes deflate cannot shrink, writing nothing past their length', () => {
    const data = randomBytes(3000)
    const out = Buffer.alloc(4000, 0xee)
    expect(deflateInto(data, 4, out, 0)).toBe(-1)
    expect(out.subarray(3000).every((byte) => byte === 0xee)).toBe(true)
  })

  /** zlib with `DeflateRaw` swapped, counting deflateRawSync's calls (the fallback's). */
  function zlibWith(DeflateRaw: unknown): { load: (id: string) => unknown; calls: () => number } {
    let calls = 0
    const deflateRawSync = (data: Buffer, options: zlib.ZlibOptions): Buffer => {
      calls++
      return zlib.deflateRawSync(data, options)
    }
    const fake = { ...zlib, DeflateRaw, deflateRawSync }
    return { load: (id) => (id === 'node:zlib' ? fake : undefined), calls: () => calls }
  }

  it('falls back to deflateRawSync, with the same bytes, where zlib streams have no native handle', () => {
    const { load, calls } = zlibWith(
      class {
        close(): void {}
      },
    )
    const fallback = compileDeflateInto(load)
    for (const data of samples()) {
      const viaHandle = Buffer.alloc(data.length)
      const viaStream = Buffer.alloc(data.length)
      const length = deflateInto(data, 6, viaHandle, 0)
      expect(fallback(data, 6, viaStream, 0)).toBe(length)
      if (length > 0) expect(viaStream.subarray(0, length).equals(viaHandle.subarray(0, length))).toBe(true)
    }
    expect(calls()).toBe(samples().length)
  })

  it('falls back when the native handle deflates its sample differently', () => {
    /** A handle that "deflates" anything to five zero bytes. */
    class WrongHandle {
      #state: Uint32Array = new Uint32Array(2)
      init(
        _windowBits: number,
        _level: number,
        _memLevel: number,
        _strategy: number,
        state: Uint32Array,
      ): void {
        this.#state = state
      }
      writeSync(
        _flush: number,
        _in: Buffer,
        _inOff: number,
        _inLen: number,
        out: Buffer,
        outOff: number,
        outLen: number,
      ): void {
        out.fill(0, outOff, outOff + 5)
        this.#state[0] = outLen - 5
        this.#state[1] = 0
      }
      close(): void {}
    }
    const { load, calls } = zlibWith(
      class {
        _handle = new WrongHandle()
        close(): void {}
      },
    )
    const fallback = compileDeflateInto(load)
    const data = samples()[4] as Buffer
    const out = Buffer.alloc(data.length)
    const length = fallback(data, 4, out, 0)
    expect(out.subarray(0, length).equals(zlib.deflateRawSync(data, { level: 4 }))).toBe(true)
    expect(calls()).toBeGreaterThan(1) // the sample's check, then the note
  })
})
