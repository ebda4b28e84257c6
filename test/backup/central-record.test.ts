import { Writable } from 'node:stream'
import { ZipArchive } from 'archiver'
import { describe, expect, it } from 'vitest'
import { CentralRecord, type ZipEngineEntry } from '../../src/backup/central-record.js'

interface Engine {
  _entries: ZipEngineEntry[]
  _writeCentralFileHeader(this: { write(chunk: Buffer | string): void }, entry: ZipEngineEntry): void
}

/** Real entries as archiver's own zip engine keeps them: stored, deflated, empty, non-ASCII, with a comment. */
async function archiverEntries(): Promise<{ engine: Engine; entries: ZipEngineEntry[] }> {
  const archive = new ZipArchive({ zlib: { level: 6 } })
  archive.pipe(new Writable({ write: (_chunk, _encoding, done) => done() }))
  const engine = (archive as unknown as { _module: { engine: Engine } })._module.engine
  const date = new Date('2026-11-21T01:02:03Z')
  const appended = new Promise<void>((resolve) => {
    let count = 0
    archive.on('entry', () => ++count === 5 && resolve())
  })
  archive.append(Buffer.from('deflated text '.repeat(50)), { name: 'notes/daily/2026-11-21.md', date })
  archive.append(Buffer.from('stored'), { name: 'notes/daily/stored.md', date, store: true })
  archive.append(Buffer.alloc(0), { name: 'notes/memory/empty.md', date })
  archive.append(Buffer.from('x'), { name: 'notes/daily/Zoë — 東京 🚀.md', date })
  archive.append(Buffer.from('y'), { name: 'notes/daily/commented.md', date, comment: 'a comment' } as never)
  await appended
  return { engine, entries: [...engine._entries] }
}

/** The central directory header bytes archiver's own writer produces for `entry`. */
function centralHeader(engine: Engine, entry: ZipEngineEntry): Buffer {
  const chunks: Buffer[] = []
  engine._writeCentralFileHeader.call({ write: (chunk) => chunks.push(Buffer.from(chunk)) }, entry)
  return Buffer.concat(chunks)
}

describe('CentralRecord', () => {
  it("makes archiver's central directory writer produce the same bytes as the entry it stands in for", async () => {
    const { engine, entries } = await archiverEntries()
    expect(entries).toHaveLength(5)
    for (const entry of entries) {
      const header = centralHeader(engine, entry)
      expect(header.length).toBeGreaterThan(46)
      expect(centralHeader(engine, new CentralRecord(entry, entry.getName()))).toEqual(header)
    }
  })

  it('takes the zip64 path the same way for an entry past 4 GiB into the archive', async () => {
    const { engine, entries } = await archiverEntries()
    const entry = entries[0] as ZipEngineEntry
    entry._offsets.file = 5 * 2 ** 30
    const record = new CentralRecord(entry, entry.getName())
    const header = centralHeader(engine, entry)
    expect(header.readUInt32LE(42)).toBe(0xffffffff) // offset moved to the zip64 extra field
    expect(centralHeader(engine, record)).toEqual(header)
    expect(record.getVersionNeededToExtract()).toBe(entry.getVersionNeededToExtract())
  })

  it("keeps the entry's own name when the manifest path it is given differs", async () => {
    const { entries } = await archiverEntries()
    const entry = entries[0] as ZipEngineEntry
    expect(new CentralRecord(entry, 'another/name.md').getName()).toBe('notes/daily/2026-11-21.md')
  })
})
