import { randomBytes } from 'node:crypto'
import { crc32, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { prepareEntry, ZIP_DEFLATED, ZIP_STORED } from '../../src/backup/prepared-entry.js'

describe('prepareEntry', () => {
  it('deflates text to a raw deflate stream that inflates back to every byte', () => {
    const data = Buffer.from('Café with Zoë — 東京 trip 🚀\n'.repeat(200))
    const entry = prepareEntry(data, 6)
    expect(entry.method).toBe(ZIP_DEFLATED)
    expect(entry.body.length).toBeLessThan(data.length / 4)
    expect(inflateRawSync(entry.body).equals(data)).toBe(true)
    expect(entry).toMatchObject({ crc32: crc32(data), size: data.length })
  })

  it('stores bytes deflate cannot shrink, as zip does', () => {
    const data = randomBytes(4096)
    const entry = prepareEntry(data, 6)
    expect(entry.method).toBe(ZIP_STORED)
    expect(entry.body.equals(data)).toBe(true)
    expect(entry).toMatchObject({ crc32: crc32(data), size: 4096 })
  })

  it('stores an empty file with the CRC-32 of nothing', () => {
    const entry = prepareEntry(Buffer.alloc(0), 6)
    expect(entry).toMatchObject({ method: ZIP_STORED, crc32: 0, size: 0 })
    expect(entry.body.length).toBe(0)
  })
})
