import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openPromise } from 'yauzl'
import { writeBackupZip, DEFAULT_ZIP_TUNING } from '../../src/backup/write-zip.js'
import { readBackupFiles } from '../../src/backup/verify.js'
import { makeTempDir } from '../helpers/workspace.js'
import { unzipMode, unzipTest } from '../helpers/unzip.js'
import { readZipBuffers, sha256 } from '../helpers/zip.js'

const META = { createdAt: '2026-11-21T01:00:00.000Z', mode: 'manual', chatJid: 'c' }

describe('writeBackupZip', () => {
  it('streams files larger than one read in several chunks and hashes them on the way', async () => {
    const dir = makeTempDir()
    const big = randomBytes(2_500_000) // > 2 stream chunks, incompressible
    const small = Buffer.from('small\n')
    writeFileSync(join(dir, 'big.md'), big)
    writeFileSync(join(dir, 'small.md'), small)
    const notes = [
      { file: join(dir, 'big.md'), path: 'notes/memory/big.md' },
      { file: join(dir, 'small.md'), path: 'notes/memory/small.md' },
    ]
    const target = join(dir, 'out.zip')
    const tuning = { ...DEFAULT_ZIP_TUNING, wholeReadBytes: 4096 }
    const { manifest, bytes } = await writeBackupZip(target, notes, META, tuning)
    expect(manifest.files).toEqual([
      { path: 'notes/memory/big.md', size: big.length, sha256: sha256(big) },
      { path: 'notes/memory/small.md', size: small.length, sha256: sha256(small) },
    ])
    expect(bytes).toBeGreaterThan(big.length)
    const files = await readBackupFiles(target)
    expect(files.get('notes/memory/big.md')?.equals(big)).toBe(true)
    expect(files.get('notes/memory/small.md')?.equals(small)).toBe(true)
  })

  it('skips a file that vanished after listing', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'here.md'), 'here\n')
    const notes = [
      { file: join(dir, 'gone.md'), path: 'notes/daily/gone.md' },
      { file: join(dir, 'here.md'), path: 'notes/daily/here.md' },
    ]
    const { manifest } = await writeBackupZip(join(dir, 'out.zip'), notes, META)
    expect(manifest.files.map((file) => file.path)).toEqual(['notes/daily/here.md'])
  })

  it('rejects, without hanging, when a file cannot be read', async () => {
    const dir = makeTempDir()
    mkdirSync(join(dir, 'folder.md'))
    const notes = Array.from({ length: 40 }, (_, i) => ({
      file: join(dir, `n${i}.md`),
      path: `notes/daily/n${i}.md`,
    }))
    for (const note of notes) writeFileSync(note.file, `note ${note.path}\n`)
    notes.splice(20, 0, { file: join(dir, 'folder.md'), path: 'notes/daily/folder.md' })
    await expect(writeBackupZip(join(dir, 'out.zip'), notes, META)).rejects.toMatchObject({ code: 'EISDIR' })
  })

  it('never overwrites an existing file', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'out.zip'), 'precious')
    await expect(writeBackupZip(join(dir, 'out.zip'), [], META)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(existsSync(join(dir, 'out.zip'))).toBe(true)
  })
})

describe('writeBackupZip, read back by yauzl and by unzip -t', () => {
  const unzip = unzipMode(process.env)

  /** Every file under `dir` as a note, with paths relative to it (the backup's entry names). */
  const notesIn = (dir: string, paths: string[]) => paths.map((path) => ({ file: join(dir, path), path }))

  const tree = (): { dir: string; files: Map<string, Buffer> } => {
    const dir = makeTempDir()
    const files = new Map<string, Buffer>([
      ['notes/daily/2026-11-19.md', Buffer.from('# Thursday\n\nCafé with Zoë — 東京 trip 🚀\n'.repeat(40))],
      ['notes/daily/Zoë — 東京 🚀.md', Buffer.from('non-ASCII name\n')],
      ['notes/memory/empty.md', Buffer.alloc(0)],
      ['notes/memory/random.bin.md', randomBytes(3000)], // incompressible: stored
      ['notes/memory/large.md', Buffer.from('a large note line with some words 12345\n'.repeat(60_000))],
      ['notes/memory/exactly-one-read.md', Buffer.alloc(4096, 'x')], // == wholeReadBytes: streamed
    ])
    for (let i = 0; i < 150; i++) {
      files.set(
        `notes/daily/n${String(i).padStart(3, '0')}.md`,
        Buffer.from(`note ${i}\n${'word '.repeat(i * 7)}`),
      )
    }
    for (const [path, data] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), data)
    }
    return { dir, files }
  }

  // Small batches and reads so the test crosses many batches, both workers, and the streamed path.
  const tuning = { ...DEFAULT_ZIP_TUNING, wholeReadBytes: 4096, batchFiles: 7, packWorkers: 2 }

  it('round-trips every byte in manifest order, with each sha256 checked, and compresses like zip', async () => {
    const { dir, files } = tree()
    const paths = [...files.keys()].sort()
    const target = join(dir, 'out.zip')
    const { manifest, bytes } = await writeBackupZip(target, notesIn(dir, paths), META, tuning)
    expect(manifest.files.map((file) => file.path)).toEqual(paths)
    for (const file of manifest.files) {
      const data = files.get(file.path) as Buffer
      expect(file).toEqual({ path: file.path, size: data.length, sha256: sha256(data) })
    }
    const total = [...files.values()].reduce((sum, data) => sum + data.length, 0)
    expect(bytes).toBeLessThan(total / 5) // the text deflates; stored, it would be larger than total
    const read = await readBackupFiles(target) // our reader verifies every sha256 against the manifest
    expect([...read.keys()]).toEqual(paths)
    for (const [path, data] of files) expect(read.get(path)?.equals(data), path).toBe(true)
    const independent = await readZipBuffers(target)
    for (const [path, data] of files) expect(independent[path]?.equals(data), path).toBe(true)
  })

  it.skipIf(!unzip.run)(
    'passes unzip -t: every entry, CRC-32 and size as a standard reader sees them',
    async () => {
      const { dir, files } = tree()
      const target = join(dir, 'out.zip')
      await writeBackupZip(target, notesIn(dir, [...files.keys()].sort()), META, tuning)
      const report = unzipTest((unzip as { bin: string }).bin, target)
      expect(report).toContain('No errors detected')
      expect(report).toContain('testing: notes/daily/Zoë — 東京 🚀.md')
      expect(report.match(/^\s+testing: .* OK$/gm)?.length).toBe(files.size + 1) // + manifest.json
    },
  )

  it.skipIf(!unzip.run)('unzip -t catches a damaged deflated entry (the check can fail)', async () => {
    const { dir, files } = tree()
    const target = join(dir, 'out.zip')
    await writeBackupZip(target, notesIn(dir, [...files.keys()].sort()), META, tuning)
    const zip = await openPromise(target, { autoClose: false })
    let body = { start: 0, length: 0 }
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== 'notes/daily/n050.md') continue
      expect(entry.compressionMethod).toBe(8)
      const header = Buffer.alloc(30)
      const fd = openSync(target, 'r')
      readSync(fd, header, 0, 30, entry.relativeOffsetOfLocalHeader)
      closeSync(fd)
      const start = entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
      body = { start, length: entry.compressedSize }
    }
    zip.close()
    const data = readFileSync(target)
    const at = body.start + Math.floor(body.length / 2) // the middle of that entry's deflated body
    data[at] = (data[at] as number) ^ 0xff
    writeFileSync(target, data)
    expect(() => unzipTest((unzip as { bin: string }).bin, target)).toThrow()
  })
})
