import { Readable } from 'node:stream'
import { crc32, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildManifest, type ManifestEntry } from '../../src/backup/manifest.js'
import { ManifestEntries, ManifestStream } from '../../src/backup/manifest-stream.js'
import { ZIP_DEFLATED } from '../../src/backup/prepared-entry.js'
import type { StreamSource } from '../../src/backup/read-source.js'

const META = { createdAt: '2026-11-21T01:00:00.000Z', mode: 'manual', chatJid: 'web:"main"' }
const hex = (i: number): string => i.toString(16).padStart(64, '0')

/** The manifest stream's entry, inflated and checked against its own CRC-32 and size. */
async function inflated(stream: ManifestStream): Promise<string> {
  const entry = await stream.finish()
  expect(entry.method).toBe(ZIP_DEFLATED)
  const text = inflateRawSync(entry.body)
  expect(text.length).toBe(entry.size)
  expect(entry.crc32).toBe(crc32(text))
  return text.toString('utf8')
}

describe('ManifestStream', () => {
  it('writes the same text as JSON.stringify(manifest, null, 2), across many deflated chunks', async () => {
    const files: ManifestEntry[] = Array.from({ length: 1500 }, (_, i) => ({
      path: i % 100 === 7 ? `notes/daily/Zoë "quoted" \\ 東京 ${i}.md` : `notes/daily/${i}.md`,
      size: i * 37,
      sha256: hex(i),
    }))
    const stream = new ManifestStream(META, 6)
    for (const file of files) stream.add(file)
    const text = await inflated(stream)
    expect(text.length).toBeGreaterThan(3 * 64 * 1024) // several chunks
    expect(text).toBe(`${JSON.stringify(buildManifest(META, files), null, 2)}\n`)
    expect(JSON.parse(text)).toEqual(buildManifest(META, files))
  })

  it('writes an empty files list as JSON.stringify does', async () => {
    const text = await inflated(new ManifestStream(META, 6))
    expect(text).toBe(`${JSON.stringify(buildManifest(META, []), null, 2)}\n`)
  })
})

describe('ManifestEntries', () => {
  /** A streamed note whose digest is known once `end()` is called, as when archiver has read it all. */
  const streamedNote = (path: string): StreamSource & { end(): void } => {
    let done = false
    return {
      kind: 'stream',
      note: { file: `/x/${path}`, path },
      stream: Readable.from([]),
      digest: () => (done ? { size: 9, sha256: hex(9) } : undefined),
      release: async () => undefined,
      end: () => (done = true),
    }
  }

  it('holds entries after a streamed note until its digest is known, keeping note order', async () => {
    const stream = new ManifestStream(META, 6)
    const entries = new ManifestEntries(stream)
    const big = streamedNote('notes/memory/big.md')
    entries.add({ path: 'notes/daily/a.md', size: 1, sha256: hex(1) })
    entries.addStreamed(big)
    entries.add({ path: 'notes/daily/b.md', size: 2, sha256: hex(2) })
    big.end()
    entries.add({ path: 'notes/daily/c.md', size: 3, sha256: hex(3) })
    entries.finish()
    const files = entries.list()
    expect(files.map((file) => file.path)).toEqual([
      'notes/daily/a.md',
      'notes/memory/big.md',
      'notes/daily/b.md',
      'notes/daily/c.md',
    ])
    expect(files[1]).toEqual({ path: 'notes/memory/big.md', size: 9, sha256: hex(9) })
    expect(await inflated(stream)).toBe(`${JSON.stringify(buildManifest(META, files), null, 2)}\n`)
  })

  it('keeps every entry, in order, past the room it was given at first', async () => {
    const stream = new ManifestStream(META, 6)
    const entries = new ManifestEntries(stream, 2)
    const files = Array.from({ length: 300 }, (_, i) => ({
      path: `notes/daily/${i}.md`,
      size: i,
      sha256: hex(i),
    }))
    const big = streamedNote('notes/memory/big.md')
    for (const [i, file] of files.entries()) {
      if (i === 100) entries.addStreamed(big)
      entries.add(file)
    }
    big.end()
    entries.finish()
    const listed = entries.list()
    expect(listed).toEqual([
      ...files.slice(0, 100),
      { path: 'notes/memory/big.md', size: 9, sha256: hex(9) },
      ...files.slice(100),
    ])
    expect(await inflated(stream)).toBe(`${JSON.stringify(buildManifest(META, listed), null, 2)}\n`)
  })

  it('fails instead of writing a manifest without a streamed note that never ended', () => {
    const entries = new ManifestEntries(new ManifestStream(META, 6))
    entries.addStreamed(streamedNote('notes/memory/big.md'))
    expect(() => entries.finish()).toThrow(/never ended/)
  })
})
