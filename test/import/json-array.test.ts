import { describe, expect, it } from 'vitest'
import { streamJsonArray, type ArrayElement } from '../../src/import/json-array.js'

async function* chunked(text: string | Buffer, size: number): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function collect(text: string | Buffer, size = 5): Promise<ArrayElement[]> {
  const out: ArrayElement[] = []
  for await (const element of streamJsonArray(chunked(text, size))) out.push(element)
  return out
}

describe('streamJsonArray', () => {
  it('yields each element, with brackets, braces and escaped quotes inside strings left alone', async () => {
    const values = [{ a: '[not] {an} "array"', b: [1, { c: '\\' }] }, 'plain', 42, null, [], { é: 'ü ✓' }]
    for (const size of [1, 4, 4096]) {
      const elements = await collect(JSON.stringify(values, null, 2), size)
      expect(elements).toEqual(values.map((value, index) => ({ index, value })))
    }
  })

  it('skips a BOM and reports a malformed element by index, then goes on', async () => {
    const text = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('[{"ok":1}, {"bad": tru}, {"ok":3}]'),
    ])
    const elements = await collect(text, 1)
    expect(elements[0]).toEqual({ index: 0, value: { ok: 1 } })
    expect(elements[1]).toMatchObject({ index: 1, error: expect.stringMatching(/invalid JSON/) })
    expect(elements[2]).toEqual({ index: 2, value: { ok: 3 } })
  })

  it('reports a truncated file after yielding the complete elements', async () => {
    const elements = await collect('[{"a":1},{"b":[2,', 4)
    expect(elements).toEqual([
      { index: 0, value: { a: 1 } },
      { index: 1, error: 'file ends inside the array (truncated?)' },
    ])
  })

  it('refuses input that is not an array', async () => {
    await expect(collect('{"mapping":{}}')).rejects.toThrow(/expected a JSON array/)
    await expect(collect('   ')).rejects.toThrow(/empty input/)
  })

  it('skips and reports an element over the size limit without buffering it', async () => {
    const big = JSON.stringify([{ a: 'x'.repeat(5000) }, { b: 1 }])
    const out: ArrayElement[] = []
    for await (const element of streamJsonArray(chunked(big, 100), { maxElementBytes: 1000 }))
      out.push(element)
    expect(out).toEqual([
      { index: 0, error: 'element larger than 1000 bytes' },
      { index: 1, value: { b: 1 } },
    ])
  })
})
