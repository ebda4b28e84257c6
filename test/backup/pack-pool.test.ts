import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { crc32, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PackPool, type PackedNote } from '../../src/backup/pack-pool.js'
import { startPackThread } from '../../src/backup/pack-thread.js'
import { ZIP_DEFLATED, ZIP_STORED } from '../../src/backup/prepared-entry.js'
import { makeTempDir } from '../helpers/workspace.js'
import { sha256 } from '../helpers/zip.js'

const run = promisify(execFile)

const OPTIONS = { workers: 2, batchFiles: 3, batchesPerWorker: 2, wholeReadBytes: 512, level: 6 }

async function packAll(pool: PackPool, notes: { file: string; path: string }[]): Promise<PackedNote[]> {
  const out: PackedNote[] = []
  for await (const batch of pool.pack(notes)) out.push(...batch)
  return out
}

describe('PackPool', () => {
  it('returns every note in order across batches and workers, with digests, CRC-32 and inflatable bodies', async () => {
    const dir = makeTempDir()
    const contents = Array.from({ length: 20 }, (_, i) => Buffer.from(`note ${i} `.repeat(i * 5)))
    const notes = contents.map((_, i) => ({ file: join(dir, `${i}.md`), path: `notes/daily/${i}.md` }))
    contents.forEach((data, i) => writeFileSync(notes[i]!.file, data))
    const pool = new PackPool(OPTIONS)
    try {
      const packed = await packAll(pool, notes)
      expect(packed.map((p) => p.note.path)).toEqual(notes.map((n) => n.path))
      packed.forEach((p, i) => {
        const data = contents[i]!
        if (data.length >= 512) return expect(p.kind).toBe('large')
        if (p.kind !== 'packed') throw new Error(`${p.note.path} was not packed`)
        expect(p.digest).toEqual({ size: data.length, sha256: sha256(data) })
        expect(p.entry.crc32).toBe(crc32(data))
        const body = p.entry.method === ZIP_DEFLATED ? inflateRawSync(p.entry.body) : p.entry.body
        expect(body.equals(data)).toBe(true)
      })
      expect(packed.filter((p) => p.kind === 'large').length).toBeGreaterThan(0)
      expect(packed.some((p) => p.kind === 'packed' && p.entry.method === ZIP_STORED)).toBe(true) // the empty one
    } finally {
      await pool.close()
    }
  })

  it('packs here while the next batch is on its thread, byte for byte as the thread packs alone', async () => {
    const dir = makeTempDir()
    const contents = Array.from({ length: 90 }, (_, i) => Buffer.from(`line ${i}\n`.repeat(1 + (i % 13) * 7)))
    const notes = contents.map((_, i) => ({ file: join(dir, `${i}.md`), path: `notes/daily/${i}.md` }))
    contents.forEach((data, i) => writeFileSync(notes[i]!.file, data))
    const options = { ...OPTIONS, workers: 1, wholeReadBytes: 4096 }
    const shared = new PackPool(options)
    const alone = new PackPool({ ...options, packHere: false })
    try {
      await shared.threadsReady() // so the thread takes the first batches and this one the ones after
      const both = await packAll(shared, notes)
      const threadOnly = await packAll(alone, notes)
      expect(shared.batchesPacked.here).toBeGreaterThan(0)
      expect(shared.batchesPacked.onThreads).toBeGreaterThan(0)
      expect(alone.batchesPacked).toEqual({ here: 0, onThreads: 30 })
      expect(both.map((p) => p.note.path)).toEqual(notes.map((n) => n.path))
      both.forEach((packed, i) => {
        const other = threadOnly[i] as PackedNote
        if (packed.kind !== 'packed' || other.kind !== 'packed')
          throw new Error(`${packed.note.path} not packed`)
        expect(packed.digest).toEqual({ size: contents[i]!.length, sha256: sha256(contents[i]!) })
        expect(packed.digest).toEqual(other.digest)
        expect({ ...packed.entry, body: undefined }).toEqual({ ...other.entry, body: undefined })
        expect(packed.entry.body.equals(other.entry.body), packed.note.path).toBe(true)
      })
    } finally {
      await shared.close()
      await alone.close()
    }
  })

  it('leaves out vanished notes and fails with the read error of an unreadable one', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'a.md'), 'a\n')
    mkdirSync(join(dir, 'folder.md'))
    const pool = new PackPool(OPTIONS)
    try {
      const gone = await packAll(pool, [
        { file: join(dir, 'gone.md'), path: 'notes/daily/gone.md' },
        { file: join(dir, 'a.md'), path: 'notes/daily/a.md' },
      ])
      expect(gone.map((p) => p.note.path)).toEqual(['notes/daily/a.md'])
      const folder = { file: join(dir, 'folder.md'), path: 'notes/daily/folder.md' }
      await expect(packAll(pool, [folder])).rejects.toMatchObject({ code: 'EISDIR' })
    } finally {
      await pool.close()
    }
  })

  it('hands its idle thread to the next pool (no thread start per backup), which packs as a new one would', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'a.md'), 'a\n')
    const note = { file: join(dir, 'a.md'), path: 'notes/daily/a.md' }
    const first = new PackPool({ ...OPTIONS, workers: 1 })
    await packAll(first, [note])
    await first.close()
    const second = new PackPool({ ...OPTIONS, workers: 2 })
    try {
      expect(second.threadIds).toContain(first.threadIds[0])
      expect(new Set(second.threadIds).size).toBe(2)
      const packed = await packAll(second, [note, note, note, note])
      expect(packed.map((p) => p.kind === 'packed' && p.digest.sha256)).toEqual(Array(4).fill(sha256('a\n')))
      // The first pool is closed for good, though its thread now packs for the second.
      await expect(packAll(first, [note])).rejects.toThrow(/closed/)
    } finally {
      await second.close()
    }
  })

  it('gives the next pool a thread started ahead of it, which packs as a new one would', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'a.md'), 'a\n')
    const started = startPackThread()
    const pool = new PackPool({ ...OPTIONS, workers: 1, packHere: false })
    try {
      expect(pool.threadIds).toEqual([started.threadId])
      const packed = await packAll(pool, [{ file: join(dir, 'a.md'), path: 'notes/daily/a.md' }])
      expect(packed.map((p) => p.kind === 'packed' && p.digest.sha256)).toEqual([sha256('a\n')])
      expect(pool.batchesPacked).toEqual({ here: 0, onThreads: 1 })
    } finally {
      await pool.close()
    }
  })

  it('never keeps a process alive with its idle threads', async () => {
    const module = pathToFileURL(join(process.cwd(), 'dist/backup/pack-pool.js')).href
    const dir = makeTempDir()
    writeFileSync(join(dir, 'a.md'), 'a\n')
    const script = `
      const { PackPool } = await import(${JSON.stringify(module)})
      const pool = new PackPool(${JSON.stringify(OPTIONS)})
      for await (const batch of pool.pack([{ file: ${JSON.stringify(join(dir, 'a.md'))}, path: 'a.md' }]));
      await pool.close()
      globalThis.closedAt = performance.now()
      process.on('exit', () => console.log(Math.round(performance.now() - globalThis.closedAt)))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script])
    // Parked threads are held for 30 s; unreferenced, they let the process end at once.
    expect(Number(stdout.trim())).toBeLessThan(5_000)
  })

  it('takes a batch back once used and packs later batches into the reused memory, every byte right', async () => {
    const dir = makeTempDir()
    const contents = Array.from({ length: 60 }, (_, i) => Buffer.from(`note ${i} `.repeat(1 + (i % 9) * 4)))
    const notes = contents.map((_, i) => ({ file: join(dir, `${i}.md`), path: `notes/daily/${i}.md` }))
    contents.forEach((data, i) => writeFileSync(notes[i]!.file, data))
    const pool = new PackPool({ ...OPTIONS, workers: 1 })
    try {
      let index = 0
      for await (const batch of pool.pack(notes)) {
        for (const packed of batch) {
          if (packed.kind !== 'packed') throw new Error(`${packed.note.path} was not packed`)
          const data = contents[index++]!
          const body =
            packed.entry.method === ZIP_DEFLATED ? inflateRawSync(packed.entry.body) : packed.entry.body
          expect(body.equals(data), packed.note.path).toBe(true)
        }
        const first = batch[0] as PackedNote & { kind: 'packed' }
        pool.recycle(batch)
        expect(first.entry.body.length).toBe(0) // handed back to the thread: the batch's bodies are gone here
        pool.recycle(batch) // a second call is harmless
      }
      expect(index).toBe(contents.length)
    } finally {
      await pool.close()
    }
  })

  it('refuses work once closed instead of waiting forever', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'a.md'), 'a\n')
    const pool = new PackPool(OPTIONS)
    await pool.close()
    await expect(packAll(pool, [{ file: join(dir, 'a.md'), path: 'notes/daily/a.md' }])).rejects.toThrow(
      /closed/,
    )
  })
})
