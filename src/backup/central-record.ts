// What the zip's central directory needs of an entry archiver has written, kept in a fraction of its entry's memory.

/**
 * The parts of compress-commons' ZipArchiveEntry that its `_afterAppend` and `_writeCentralFileHeader` read:
 * the engine keeps every entry until it writes the central directory at the end.
 */
export interface ZipEngineEntry {
  getName(): string
  getPlatform(): number
  getVersionNeededToExtract(): number
  setVersionNeededToExtract(version: number): void
  getGeneralPurposeBit(): EntryFlags & { encode(): Buffer }
  getMethod(): number
  getTimeDos(): number
  getCrc(): number
  getCompressedSize(): number
  getSize(): number
  getComment(): string
  getCentralDirectoryExtra(): Buffer
  setExtra(extra: Buffer): void
  getInternalAttributes(): number
  getExternalAttributes(): number
  isZip64(): boolean
  _offsets: { file: number }
}

interface EntryFlags {
  usesDataDescriptor(): boolean
  usesUTF8ForNames(): boolean
}

const DATA_DESCRIPTOR_FLAG = 1 << 3
const UTF8_NAMES_FLAG = 1 << 11
const ZIP64_LIMIT = 0xffffffff
const NO_BYTES = Buffer.alloc(0)

/** The general purpose bits as the header writers read them; one shared instance per distinct value. */
class SharedFlags implements EntryFlags {
  readonly #bits: number
  constructor(bits: number) {
    this.#bits = bits
  }
  encode(): Buffer {
    // A fresh buffer each time, as the original's: the engine may queue it.
    const bytes = Buffer.alloc(2)
    bytes.writeUInt16LE(this.#bits, 0)
    return bytes
  }
  usesDataDescriptor(): boolean {
    return (this.#bits & DATA_DESCRIPTOR_FLAG) !== 0
  }
  usesUTF8ForNames(): boolean {
    return (this.#bits & UTF8_NAMES_FLAG) !== 0
  }
}
const sharedFlags = new Map<number, SharedFlags>()

/**
 * Stands in for a written ZipArchiveEntry in the engine's list: the same answers to every getter the central
 * directory writer calls (so its bytes are unchanged), without the entry's per-object general purpose bits,
 * offsets object and per-instance method. About 500 bytes per entry were archiver's largest share of a
 * backup's memory; its name is shared with the manifest's path when they are the same string.
 */
export class CentralRecord implements ZipEngineEntry {
  readonly #name: string
  readonly #platform: number
  #minVersion: number
  readonly #flags: SharedFlags
  /** The general purpose bits as the headers record them. */
  readonly flagBits: number
  readonly #method: number
  readonly #timeDos: number
  readonly #crc: number
  readonly #compressedSize: number
  readonly #size: number
  readonly #comment: string
  #extra: Buffer
  readonly #internalAttributes: number
  readonly #externalAttributes: number
  readonly #fileOffset: number

  /** `name` is used instead of the entry's own when equal, so the two share one string. */
  constructor(entry: ZipEngineEntry, name: string) {
    const own = entry.getName()
    this.#name = own === name ? name : own
    this.#platform = entry.getPlatform()
    this.#minVersion = entry.getVersionNeededToExtract()
    const bits = entry.getGeneralPurposeBit().encode().readUInt16LE(0)
    let flags = sharedFlags.get(bits)
    if (!flags) sharedFlags.set(bits, (flags = new SharedFlags(bits)))
    this.#flags = flags
    this.flagBits = bits
    this.#method = entry.getMethod()
    this.#timeDos = entry.getTimeDos()
    this.#crc = entry.getCrc()
    this.#compressedSize = entry.getCompressedSize()
    this.#size = entry.getSize()
    this.#comment = entry.getComment()
    const extra = entry.getCentralDirectoryExtra()
    this.#extra = extra.length === 0 ? NO_BYTES : extra
    this.#internalAttributes = entry.getInternalAttributes()
    this.#externalAttributes = entry.getExternalAttributes()
    this.#fileOffset = entry._offsets.file
  }

  get _offsets(): { file: number } {
    return { file: this.#fileOffset }
  }
  getName(): string {
    return this.#name
  }
  getPlatform(): number {
    return this.#platform
  }
  getVersionNeededToExtract(): number {
    return this.#minVersion
  }
  setVersionNeededToExtract(version: number): void {
    this.#minVersion = version
  }
  getGeneralPurposeBit(): SharedFlags {
    return this.#flags
  }
  getMethod(): number {
    return this.#method
  }
  getTimeDos(): number {
    return this.#timeDos
  }
  getCrc(): number {
    return this.#crc
  }
  getCompressedSize(): number {
    return this.#compressedSize
  }
  getSize(): number {
    return this.#size
  }
  getComment(): string {
    return this.#comment
  }
  getCentralDirectoryExtra(): Buffer {
    return this.#extra
  }
  setExtra(extra: Buffer): void {
    this.#extra = extra
  }
  getInternalAttributes(): number {
    return this.#internalAttributes
  }
  getExternalAttributes(): number {
    return this.#externalAttributes
  }
  isZip64(): boolean {
    return this.#compressedSize > ZIP64_LIMIT || this.#size > ZIP64_LIMIT
  }
}
