import { createWriteStream, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import { describe, expect, it } from 'vitest'
import { prepareEntry } from '../../src/backup/prepared-entry.js'
import { PreparedZip } from '../../src/backup/prepared-zip.js'
import { makeTempDir } from '../helpers/workspace.js'
import { unzipMode, unzipTest } from '../helpers/unzip.js'
import { readZipBuffers } from '../helpers/zip.js'

const date = new Date('2026-11-21T01:00:00Z')

/** Notes with short names, names longer than a small write chunk, and a non-ASCII one (archiver's own writers). */
function notes(): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  for (let i = 0; i < 60; i++) {
    const name = i % 7 === 3 ? `notes/daily/${'long-name-'.repeat(8)}${i}.md` : `notes/daily/n${i}.md`
    files.set(name, Buffer.from(`note ${i}\n${'some words of a note '.repeat(i)}`))
  }
  files.set('notes/memory/Zoë.md', Buffer.from('non-ASCII name\n'))
  return files
}

async function writeZip(file: string, files: Map<string, Buffer>, writeChunkBytes: number): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: 1 } })
  const done = pipeline(archive, createWriteStream(file))
  const zip = new PreparedZip(archive, writeChunkBytes)
  for (const [name, data] of files) zip.appendPrepared(prepareEntry(data, 1), name, date)
  await Promise.all([archive.finalize(), done])
  return readFileSync(file)
}

describe('PreparedZip', () => {
  const unzip = unzipMode(process.env)

  it('writes the same archive whatever its write chunk, headers encoded across chunk ends or larger than one', async () => {
    const dir = makeTempDir()
    const files = notes()
    const joined = await writeZip(join(dir, 'joined.zip'), files, 64 * 1024)
    // 64 bytes: local headers (30 bytes and the name) often cross a chunk's end; the long names' do not fit one.
    const small = await writeZip(join(dir, 'small.zip'), files, 64)
    expect(small.equals(joined)).toBe(true)
    const read = await readZipBuffers(join(dir, 'small.zip'))
    expect(Object.keys(read)).toEqual([...files.keys()])
    for (const [name, data] of files) expect(read[name]?.equals(data), name).toBe(true)
    if (unzip.run) expect(unzipTest(unzip.bin, join(dir, 'small.zip'))).toContain('No errors detected')
  })
})
