import { describe, expect, it } from 'vitest'
import { CentralRecord, type ZipEngineEntry } from '../../src/backup/central-record.js'
import { archiverEntries, written, type Engine } from './zip-engine.js'

const centralHeader = (engine: Engine, entry: ZipEngineEntry): Buffer =>
  written(engine._writeCentralFileHeader, entry)

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
