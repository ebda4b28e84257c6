import { describe, expect, it } from 'vitest'
import { CentralRecord, type ZipEngineEntry } from '../../src/backup/central-record.js'
import { centralHeaderBytes, localHeaderBytes } from '../../src/backup/header-bytes.js'
import { archiverEntries, written } from './zip-engine.js'

const flagsOf = (entry: ZipEngineEntry): number => entry.getGeneralPurposeBit().encode().readUInt16LE(0)

/** archiver's entries, the deflated one switched to no data descriptor as a prepared entry has it. */
async function entries(): Promise<Awaited<ReturnType<typeof archiverEntries>>> {
  const real = await archiverEntries()
  const deflated = real.entries.find((entry) => entry.getName() === 'notes/daily/2026-11-21.md')
  const flags = deflated?.getGeneralPurposeBit() as unknown as { useDataDescriptor(use: boolean): void }
  flags.useDataDescriptor(false)
  return real
}

describe('localHeaderBytes / centralHeaderBytes', () => {
  it("encode the same bytes as archiver's header writers for plain entries, at any offset", async () => {
    const { engine, entries: all } = await entries()
    // archiver gives its empty entry a data descriptor; the switched deflated one and the stored one are plain.
    const plain = all.filter((entry) => /2026|stored/.test(entry.getName()))
    expect(plain.map(flagsOf)).toEqual([0, 0])
    for (const entry of plain) {
      expect(localHeaderBytes(entry, flagsOf(entry))).toEqual(
        written(engine._writeLocalFileHeader, entry, 777),
      )
      entry._offsets.file = 123_456_789
      const record = new CentralRecord(entry, entry.getName())
      expect(centralHeaderBytes(record, record.flagBits)).toEqual(
        written(engine._writeCentralFileHeader, entry),
      )
    }
  })

  it("leave non-ASCII names, comments, data descriptors and zip64 offsets to archiver's writers", async () => {
    const { entries: all } = await archiverEntries() // the deflated entry keeps its data descriptor here
    const named = (part: string): ZipEngineEntry => all.find((entry) => entry.getName().includes(part))!
    const [deflated, stored, unicode, commented] = ['2026', 'stored', 'Zoë', 'commented'].map(named)
    expect(localHeaderBytes(deflated!, flagsOf(deflated!))).toBeUndefined()
    expect(localHeaderBytes(unicode!, flagsOf(unicode!))).toBeUndefined()
    expect(centralHeaderBytes(unicode!, flagsOf(unicode!))).toBeUndefined()
    expect(centralHeaderBytes(commented!, flagsOf(commented!))).toBeUndefined()
    stored!._offsets.file = 5 * 2 ** 30
    expect(centralHeaderBytes(stored!, flagsOf(stored!))).toBeUndefined()
  })
})
