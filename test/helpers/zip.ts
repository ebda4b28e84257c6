// Zip helpers for tests: read an archive back into {name: content} with yauzl; build crafted archives.
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import { openPromise } from 'yauzl'

/** Every entry of the zip at `file` as raw bytes, by entry name (read independently of src/backup). */
export async function readZipBuffers(file: string): Promise<Record<string, Buffer>> {
  const zip = await openPromise(file, { autoClose: false })
  const out: Record<string, Buffer> = {}
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = []
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer)
      out[entry.fileName] = Buffer.concat(chunks)
    }
  } finally {
    zip.close()
  }
  return out
}

/** Every entry of the zip at `file` decoded as UTF-8, by entry name. */
export async function readZip(file: string): Promise<Record<string, string>> {
  const buffers = await readZipBuffers(file)
  return Object.fromEntries(Object.entries(buffers).map(([name, data]) => [name, data.toString('utf8')]))
}

/**
 * Writes a zip holding exactly `entries` (name → content), e.g. a backup whose manifest lies. Entries are
 * stored uncompressed so patchZipBytes can find names and manifest text in the raw file.
 */
export async function writeZip(file: string, entries: Record<string, string | Buffer>): Promise<void> {
  const archive = new ZipArchive({ store: true })
  const done = pipeline(archive, createWriteStream(file))
  for (const [name, content] of Object.entries(entries)) archive.append(content, { name })
  await Promise.all([archive.finalize(), done])
}

/**
 * Replaces every occurrence of `from` with `to` (same byte length) in the raw zip file — e.g. to turn an
 * entry name into one with `..` segments that archiver itself would refuse to write.
 */
export async function patchZipBytes(file: string, from: string, to: string): Promise<number> {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('patch must keep the byte length')
  const data = await readFile(file)
  const needle = Buffer.from(from)
  let count = 0
  for (let at = data.indexOf(needle); at !== -1; at = data.indexOf(needle, at + needle.length)) {
    Buffer.from(to).copy(data, at)
    count++
  }
  await writeFile(file, data)
  return count
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
