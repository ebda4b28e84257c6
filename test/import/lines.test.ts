import { describe, expect, it } from 'vitest'
import { readLineBatches, type SourceLine } from '../../src/import/lines.js'

/** Feeds `bytes` in chunks of `size` (1 = every byte boundary is also a chunk boundary). */
async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function collect(bytes: Buffer, size = 7, maxLineBytes?: number): Promise<SourceLine[]> {
  const lines: SourceLine[] = []
  for await (const batch of readLineBatches(chunked(bytes, size), { maxLineBytes })) lines.push(...batch)
  return lines
}

describe('readLineBatches', () => {
  it('splits LF and CRLF lines with 1-based numbers, whatever the chunking', async () => {
    const bytes = Buffer.from('first\r\nsecond\n\nfourth ü\r\nlast without newline')
    for (const size of [1, 3, 1024]) {
      const lines = await collect(bytes, size)
      expect(lines.map((l) => [l.number, l.text])).toEqual([
        [1, 'first'],
        [2, 'second'],
        [3, ''],
        [4, 'fourth ü'],
        [5, 'last without newline'],
      ])
    }
  })

  it('drops a UTF-8 BOM and turns invalid bytes into U+FFFD instead of failing', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('héllo\n'),
      Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]),
    ])
    const lines = await collect(bytes, 2)
    expect(lines.map((l) => l.text)).toEqual(['héllo', 'a\ufffd\ufffdb'])
  })

  it('cuts a line longer than the limit, flags it, and keeps counting lines after it', async () => {
    const bytes = Buffer.from(`ok\n${'x'.repeat(100)}\nafter\n`)
    const lines = await collect(bytes, 16, 40)
    expect(lines.map((l) => [l.number, l.text.length, l.isTruncated])).toEqual([
      [1, 2, false],
      [2, 40, true],
      [3, 5, false],
    ])
  })
})
