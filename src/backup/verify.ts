// Reads backups back fully checked: manifest valid, entries exactly its files, each file's size and sha256.
import { createHash } from 'node:crypto'
import type { Entry } from 'yauzl'
import { BackupCorruptError } from '../errors.js'
import { MANIFEST_NAME, type BackupManifest, type ManifestEntry } from './manifest.js'
import { parseManifest } from './manifest-parse.js'
import { BackupZip } from './read-zip.js'

// A manifest lists paths and hashes; even 100k notes stay far below this, so anything bigger is hostile.
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024
/** No markdown note is this big; a restore holds one file in memory at a time, so this bounds its memory. */
export const MAX_NOTE_BYTES = 32 * 1024 * 1024

/** Called once per backed-up file, in manifest order, only after its bytes matched the manifest. */
export type VisitBackupFile = (entry: ManifestEntry, content: Buffer) => Promise<void> | void

/**
 * The backup's manifest, after checking that the zip's entries are exactly the manifest's files (names,
 * sizes) — cheap: reads the central directory and manifest.json only, no file contents.
 */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  return withBackup(file, async (_zip, manifest) => manifest)
}

/** Full check of every file's bytes without keeping them: memory stays at one chunk. */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  return withBackup(file, async (zip, manifest) => {
    for (const entry of manifest.files) await readVerified(zip, entry, false)
    return manifest
  })
}

/** Hands each verified file to `visit` (one file in memory at a time). A bad file stops before its visit. */
export async function visitBackupFiles(file: string, visit: VisitBackupFile): Promise<BackupManifest> {
  return withBackup(file, async (zip, manifest) => {
    for (const entry of manifest.files) await visit(entry, (await readVerified(zip, entry, true)) as Buffer)
    return manifest
  })
}

/**
 * Every file of the backup by workspace-relative path, all verified before this resolves (e.g. to diff a
 * dream run against its pre-dream backup). Holds the whole notes tree in memory; restore streams instead.
 */
export async function readBackupFiles(file: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  await visitBackupFiles(file, (entry, content) => void files.set(entry.path, content))
  return files
}

async function withBackup<T>(
  file: string,
  use: (zip: BackupZip, manifest: BackupManifest) => Promise<T>,
): Promise<T> {
  const zip = await BackupZip.open(file)
  try {
    const manifest = await loadManifest(zip)
    checkEntries(zip, manifest)
    return await use(zip, manifest)
  } finally {
    zip.close()
  }
}

async function loadManifest(zip: BackupZip): Promise<BackupManifest> {
  const entry = zip.entries.get(MANIFEST_NAME)
  if (!entry) throw new BackupCorruptError(zip.file, `${MANIFEST_NAME} is missing`)
  if (entry.uncompressedSize > MAX_MANIFEST_BYTES) {
    throw new BackupCorruptError(zip.file, `${MANIFEST_NAME} is implausibly large`)
  }
  const chunks: Buffer[] = []
  for await (const chunk of zip.chunks(entry)) chunks.push(chunk)
  const parsed = parseManifest(Buffer.concat(chunks).toString('utf8'))
  if ('problem' in parsed) throw new BackupCorruptError(zip.file, parsed.problem)
  return parsed
}

/** The zip must hold exactly the manifest's files (plus the manifest) with the sizes it records. */
function checkEntries(zip: BackupZip, manifest: BackupManifest): void {
  const listed = new Set(manifest.files.map((file) => file.path))
  for (const name of zip.entries.keys()) {
    if (name !== MANIFEST_NAME && !listed.has(name)) {
      throw new BackupCorruptError(zip.file, `entry ${name} is not in the manifest`)
    }
  }
  for (const file of manifest.files) {
    const entry = zip.entries.get(file.path)
    if (!entry) {
      throw new BackupCorruptError(zip.file, `${file.path} is in the manifest but missing from the zip`)
    }
    if (file.size > MAX_NOTE_BYTES) {
      const size = `${Math.round(file.size / 1024 / 1024)} MiB`
      throw new BackupCorruptError(
        zip.file,
        `${file.path} is ${size}, over the ${MAX_NOTE_BYTES / 1024 / 1024} MiB limit for one note`,
      )
    }
    if (entry.uncompressedSize !== file.size) {
      const sizes = `${entry.uncompressedSize} bytes in the zip, ${file.size} in the manifest`
      throw new BackupCorruptError(zip.file, `${file.path} is ${sizes}`)
    }
  }
}

async function readVerified(zip: BackupZip, file: ManifestEntry, keep: boolean): Promise<Buffer | undefined> {
  const entry = zip.entries.get(file.path) as Entry
  const hash = createHash('sha256')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of zip.chunks(entry)) {
    hash.update(chunk)
    size += chunk.length
    if (keep) chunks.push(chunk)
  }
  if (size !== file.size) {
    throw new BackupCorruptError(zip.file, `${file.path} has ${size} bytes, the manifest says ${file.size}`)
  }
  if (hash.digest('hex') !== file.sha256) {
    throw new BackupCorruptError(zip.file, `${file.path} does not match its sha256 in the manifest`)
  }
  return keep ? Buffer.concat(chunks, size) : undefined
}
