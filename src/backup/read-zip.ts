// Opens a backup zip with yauzl and streams entries out of it; zip-level failures become BackupCorruptError.
import { basename } from 'node:path'
import { openPromise, type Entry, type ZipFile } from 'yauzl'
import { BackupCorruptError, BackupNotFoundError, DreamlaneError, errorMessage } from '../errors.js'
import { BACKUP_EXTENSION } from './naming.js'

/** An open backup archive: its central directory by entry name, and a way to stream each entry. */
export class BackupZip {
  readonly file: string
  readonly entries: ReadonlyMap<string, Entry>
  readonly #zip: ZipFile

  private constructor(file: string, zip: ZipFile, entries: ReadonlyMap<string, Entry>) {
    this.file = file
    this.#zip = zip
    this.entries = entries
  }

  /** Reads the central directory only (no entry data yet); refuses garbage, truncation and unsafe names. */
  static async open(file: string): Promise<BackupZip> {
    let zip: ZipFile
    try {
      // yauzl refuses absolute names and '..' segments itself; we check them again against the manifest.
      zip = await openPromise(file, { autoClose: false, strictFileNames: true, validateEntrySizes: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new BackupNotFoundError(basename(file, BACKUP_EXTENSION))
      }
      throw asCorrupt(file, 'not a readable zip archive', error)
    }
    try {
      const entries = new Map<string, Entry>()
      for await (const entry of zip.eachEntry()) {
        const name = entry.fileName
        if (entries.has(name)) throw new BackupCorruptError(file, `duplicate entry ${name}`)
        if (entry.isEncrypted() || !entry.canDecodeFileData()) {
          throw new BackupCorruptError(file, `entry ${name} is encrypted or uses an unknown compression`)
        }
        entries.set(name, entry)
      }
      return new BackupZip(file, zip, entries)
    } catch (error) {
      zip.close()
      throw asCorrupt(file, 'its entry list is unreadable', error)
    }
  }

  /** The entry's bytes in chunks, decompressed; a damaged entry fails with BackupCorruptError. */
  async *chunks(entry: Entry): AsyncGenerator<Buffer> {
    try {
      const stream = await this.#zip.openReadStreamPromise(entry)
      for await (const chunk of stream) yield chunk as Buffer
    } catch (error) {
      throw asCorrupt(this.file, `entry ${entry.fileName} is unreadable`, error)
    }
  }

  close(): void {
    if (this.#zip.isOpen) this.#zip.close()
  }
}

/**
 * Keeps our own errors and operating-system failures (EIO, EMFILE… carry an errno `code`) as they are;
 * everything else yauzl or zlib throws means the bytes themselves are bad.
 */
function asCorrupt(file: string, reason: string, error: unknown): Error {
  if (error instanceof DreamlaneError) return error
  const errno = error as NodeJS.ErrnoException | undefined
  if (typeof errno?.code === 'string' && typeof errno.syscall === 'string') return errno
  return new BackupCorruptError(file, `${reason} (${errorMessage(error)})`, { cause: error })
}
