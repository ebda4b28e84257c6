// Byte streams of what the user points at: a plain file, or one entry of a zip export (read straight from the archive).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { openPromise, type Entry, type ZipFile } from 'yauzl'
import { DreamlaneError, errorMessage } from '../errors.js'

/** One readable input; `read()` may be called again for a second pass (WhatsApp date-order detection). */
export interface SourceInput {
  /** Where the bytes come from, for messages: `export.zip:conversations.json`. */
  label: string
  /** The file or entry name without directories. */
  name: string
  /** Uncompressed size in bytes. */
  size: number
  read(): Promise<Readable>
}

const CHUNK_BYTES = 64 * 1024

/** Throws IMPORT_SOURCE_MISSING when `path` does not exist (the CLI turns it into exit 4). */
export async function statSource(path: string): Promise<{ size: number; isDirectory: boolean }> {
  try {
    const info = await stat(path)
    return { size: info.size, isDirectory: info.isDirectory() }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new DreamlaneError('IMPORT_SOURCE_MISSING', `import source not found: ${path}`, { cause: error })
    }
    throw error
  }
}

export async function fileInput(path: string): Promise<SourceInput> {
  const { size } = await statSource(path)
  return {
    label: path,
    name: baseName(path),
    size,
    read: async () => createReadStream(path, { highWaterMark: CHUNK_BYTES }),
  }
}

/** An open zip export: its entries (central directory only) and a stream per entry. */
export class ZipSource {
  readonly file: string
  readonly entries: readonly Entry[]
  readonly #zip: ZipFile

  private constructor(file: string, zip: ZipFile, entries: Entry[]) {
    this.file = file
    this.#zip = zip
    this.entries = entries
  }

  static async open(file: string): Promise<ZipSource> {
    await statSource(file)
    let zip: ZipFile
    try {
      zip = await openPromise(file, { autoClose: false, strictFileNames: false, validateEntrySizes: true })
    } catch (error) {
      throw new DreamlaneError(
        'IMPORT_UNREADABLE',
        `${file} is not a readable zip archive (${errorMessage(error)})`,
        { cause: error },
      )
    }
    const entries: Entry[] = []
    try {
      for await (const entry of zip.eachEntry()) {
        if (!entry.fileName.endsWith('/')) entries.push(entry)
      }
    } catch (error) {
      zip.close()
      throw new DreamlaneError(
        'IMPORT_UNREADABLE',
        `${file}: the zip's entry list is unreadable (${errorMessage(error)})`,
        { cause: error },
      )
    }
    return new ZipSource(file, zip, entries)
  }

  /** The first entry whose base name satisfies `test`, shallowest path first. */
  find(test: (name: string) => boolean): Entry | undefined {
    return [...this.entries]
      .sort((a, b) => a.fileName.split('/').length - b.fileName.split('/').length)
      .find((entry) => test(baseName(entry.fileName)))
  }

  input(entry: Entry): SourceInput {
    if (entry.isEncrypted() || !entry.canDecodeFileData()) {
      throw new DreamlaneError(
        'IMPORT_UNREADABLE',
        `${this.file}: ${entry.fileName} is encrypted or uses unsupported compression`,
      )
    }
    return {
      label: `${this.file}:${entry.fileName}`,
      name: baseName(entry.fileName),
      size: entry.uncompressedSize,
      read: () => this.#zip.openReadStreamPromise(entry),
    }
  }

  close(): void {
    if (this.#zip.isOpen) this.#zip.close()
  }
}

export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path
}
