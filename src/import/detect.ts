// Works out what the user pointed at (file, folder or zip; which format) and opens the right input for it.
import { open } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { DreamlaneError, UsageError } from '../errors.js'
import { baseName, fileInput, statSource, ZipSource, type SourceInput } from './source.js'
import type { ImportFormat } from './types.js'
import { parseHeader } from './whatsapp-format.js'

/** An opened import source: a DB file for PiClaw, otherwise a byte input (possibly inside a zip). */
export type OpenedSource =
  | { format: 'piclaw'; file: string; close(): void }
  | { format: Exclude<ImportFormat, 'piclaw'>; input: SourceInput; nameHint?: string; close(): void }

const SQLITE_MAGIC = 'SQLite format 3\u0000'
const FORMAT_HINT = 'pass --format piclaw|chatgpt|whatsapp|jsonl'

async function sniff(path: string): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

function isZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05)
}

/** Format from the name, then from the first bytes; null when neither tells. */
function guessFormat(path: string, head: Buffer): ImportFormat | null {
  if (head.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return 'piclaw'
  const extension = extname(path).toLowerCase()
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl'
  if (extension === '.json') return 'chatgpt'
  if (extension === '.txt') return 'whatsapp'
  if (extension === '.db' || extension === '.sqlite' || extension === '.sqlite3') return 'piclaw'
  const text = head.toString('utf8').replace(/^\ufeff/, '')
  // Before the bracket test: an iOS WhatsApp export starts with "[31/12/2025, …".
  if (
    text
      .split(/\r?\n/)
      .slice(0, 5)
      .some((line) => parseHeader(line) !== null)
  )
    return 'whatsapp'
  const first = text.trimStart()[0]
  if (first === '[') return 'chatgpt'
  if (first === '{') return 'jsonl'
  return null
}

function whatsAppEntry(zip: ZipSource) {
  const texts = zip.entries.filter((entry) => entry.fileName.toLowerCase().endsWith('.txt'))
  return (
    zip.find((name) => name === '_chat.txt') ??
    zip.find((name) => /^WhatsApp.*\.txt$/i.test(name)) ??
    (texts.length === 1 ? texts[0] : undefined)
  )
}

async function openZip(path: string, format: ImportFormat | 'auto'): Promise<OpenedSource> {
  const zip = await ZipSource.open(path)
  try {
    const conversations =
      format === 'auto' || format === 'chatgpt'
        ? zip.find((name) => name === 'conversations.json')
        : undefined
    if (conversations) return { format: 'chatgpt', input: zip.input(conversations), close: () => zip.close() }
    const chat = format === 'auto' || format === 'whatsapp' ? whatsAppEntry(zip) : undefined
    if (chat)
      return {
        format: 'whatsapp',
        input: zip.input(chat),
        nameHint: baseName(path),
        close: () => zip.close(),
      }
    const lines = format === 'jsonl' ? zip.find((name) => /\.(jsonl|ndjson)$/i.test(name)) : undefined
    if (lines) return { format: 'jsonl', input: zip.input(lines), close: () => zip.close() }
    const wanted =
      format === 'auto' ? 'conversations.json (ChatGPT) or a chat .txt (WhatsApp)' : `a ${format} file`
    throw new UsageError(
      `${path}: the zip holds no ${wanted} (entries: ${zip.entries
        .slice(0, 8)
        .map((e) => e.fileName)
        .join(', ')})`,
    )
  } catch (error) {
    zip.close()
    throw error
  }
}

/**
 * Opens `path` for import. `format` 'auto' decides from a folder's conversations.json, a zip's entries,
 * the SQLite header, the extension, then the first bytes. Missing → IMPORT_SOURCE_MISSING; undecidable → USAGE.
 */
export async function openImportSource(path: string, format: ImportFormat | 'auto'): Promise<OpenedSource> {
  const { isDirectory } = await statSource(path)
  if (isDirectory) {
    // An extracted ChatGPT export.
    if (format !== 'auto' && format !== 'chatgpt')
      throw new UsageError(`${path} is a folder; point at the ${format} file itself`)
    const input = await fileInput(join(path, 'conversations.json')).catch((error: unknown) => {
      if (error instanceof DreamlaneError && error.code === 'IMPORT_SOURCE_MISSING') {
        throw new UsageError(
          `${path} is a folder without conversations.json; point at the export file itself`,
        )
      }
      throw error
    })
    return { format: 'chatgpt', input, close: () => undefined }
  }
  const head = await sniff(path)
  if (isZip(head)) return openZip(path, format)
  const decided = format === 'auto' ? guessFormat(path, head) : format
  if (decided === null) throw new UsageError(`cannot tell the format of ${path}; ${FORMAT_HINT}`)
  if (decided === 'piclaw') return { format: 'piclaw', file: path, close: () => undefined }
  return { format: decided, input: await fileInput(path), close: () => undefined }
}
