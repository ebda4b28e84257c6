// archiver's own zip engine for header tests: real entries as it keeps them, and the bytes its writers produce.
import { Writable } from 'node:stream'
import { ZipArchive } from 'archiver'
import type { ZipEngineEntry } from '../../src/backup/central-record.js'

type Writer = { offset: number; write(chunk: Buffer | string): void }
export interface Engine {
  _entries: ZipEngineEntry[]
  _writeCentralFileHeader(this: Writer, entry: ZipEngineEntry): void
  _writeLocalFileHeader(this: Writer, entry: ZipEngineEntry): void
}

/** Real entries as archiver's zip engine keeps them: deflated, stored, empty, non-ASCII, with a comment. */
export async function archiverEntries(): Promise<{ engine: Engine; entries: ZipEngineEntry[] }> {
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

/** What `write` (archiver's header writer, run on `entry`) writes, starting at archive offset `offset`. */
export function written(
  write: (this: Writer, entry: ZipEngineEntry) => void,
  entry: ZipEngineEntry,
  offset = 0,
): Buffer {
  const chunks: Buffer[] = []
  const writer: Writer = {
    offset,
    write(chunk) {
      const bytes = Buffer.from(chunk)
      chunks.push(bytes)
      writer.offset += bytes.length
    },
  }
  write.call(writer, entry)
  return Buffer.concat(chunks)
}
