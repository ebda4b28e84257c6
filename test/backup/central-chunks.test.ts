import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import { openPromise } from 'yauzl'
import { describe, expect, it } from 'vitest'
import { CentralHeaderChunk, CentralHeaderChunks } from '../../src/backup/central-chunks.js'
import { prepareEntry } from '../../src/backup/prepared-entry.js'
import { PreparedZip } from '../../src/backup/prepared-zip.js'
import { makeTempDir } from '../helpers/workspace.js'
import { readZipBuffers } from '../helpers/zip.js'

const header = (fill: number, bytes = 71): Buffer => Buffer.alloc(bytes, fill)

describe('CentralHeaderChunks', () => {
  it('keeps consecutive headers in one chunk, handed out whole and in order exactly once', () => {
    const chunks = new CentralHeaderChunks()
    const first = chunks.add(header(1))
    expect(chunks.add(header(2))).toBe(first)
    expect(chunks.add(header(3, 10))).toBe(first)
    expect(first.takeBytes()).toEqual(Buffer.concat([header(1), header(2), header(3, 10)]))
    expect(first.takeBytes()).toBeUndefined()
  })

  it('starts a new chunk when one is full, after endRun, and for a header larger than a chunk', () => {
    const chunks = new CentralHeaderChunks()
    const first = chunks.add(header(1))
    let next = first
    let added = 1
    while (next === first) ((next = chunks.add(header(2))), added++)
    expect(added * 71).toBeGreaterThan(64 * 1024) // first filled up before `next` began
    expect(next.takeBytes()).toEqual(header(2))
    chunks.endRun()
    const afterRun = chunks.add(header(3))
    expect(afterRun).not.toBe(next)
    const huge = chunks.add(header(4, 70_000))
    expect(huge).not.toBe(afterRun)
    expect(huge.takeBytes()).toEqual(header(4, 70_000))
  })
})

describe('PreparedZip central directory', () => {
  const date = new Date('2026-11-21T01:00:00Z')
  const engineEntries = (archive: ZipArchive): unknown[] =>
    (archive as unknown as { _module: { engine: { _entries: unknown[] } } })._module.engine._entries

  it('keeps a chunk per run of entries, not an object per entry, and lists every entry in written order', async () => {
    const dir = makeTempDir()
    const target = join(dir, 'out.zip')
    const archive = new ZipArchive({ zlib: { level: 4 } })
    const done = pipeline(archive, createWriteStream(target))
    const zip = new PreparedZip(archive, 64 * 1024)
    const expected = new Map<string, Buffer>()
    const add = (name: string, data: Buffer, streamed = false): void => {
      expected.set(name, data)
      if (streamed) archive.append(Readable.from([data]), { name, date })
      else zip.appendPrepared(prepareEntry(data, 4), name, date)
    }
    for (let i = 0; i < 1500; i++)
      add(`notes/daily/n${String(i).padStart(4, '0')}.md`, Buffer.from(`note ${i}\n`))
    add('notes/daily/Zoë.md', Buffer.from('non-ASCII name: kept as a record\n'))
    add('notes/daily/o0000.md', Buffer.from('after the record\n'))
    add('notes/memory/streamed.md', Buffer.from('streamed by archiver\n'.repeat(100)), true)
    add('notes/memory/z.md', Buffer.from('after the stream\n'))
    const kept = await new Promise<unknown[]>((resolve) => {
      let count = 0
      archive.on('entry', () => ++count === expected.size && resolve([...engineEntries(archive)]))
    })
    await Promise.all([archive.finalize(), done])

    expect(kept).toHaveLength(expected.size)
    const chunks = new Set(kept.filter((entry) => entry instanceof CentralHeaderChunk))
    // 1,500 headers of 66 bytes fill two 64 KiB chunks; then one chunk each after the record and the stream.
    expect(chunks.size).toBe(4)
    expect(kept.filter((entry) => !(entry instanceof CentralHeaderChunk))).toHaveLength(2)

    const names: string[] = []
    const reader = await openPromise(target, { autoClose: false })
    for await (const entry of reader.eachEntry()) names.push(entry.fileName)
    reader.close()
    expect(names).toEqual([...expected.keys()])
    const read = await readZipBuffers(target)
    for (const [name, data] of expected) expect(read[name]?.equals(data), name).toBe(true)
  })
})
