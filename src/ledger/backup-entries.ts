// Reads chosen files out of a backup, each checked against the manifest: O(files wanted), not O(backup).
import type { Entry } from 'yauzl'
import { BackupCorruptError } from '../errors.js'
import { BackupZip } from '../backup/read-zip.js'
import { readBackupManifest } from '../backup/verify.js'
import { sha256 } from './files.js'

/**
 * The verified bytes of each `wanted` path the backup holds (paths it lacks did not exist when it was taken
 * and are simply absent from the map). A size or sha256 mismatch throws BackupCorruptError.
 */
export async function readBackupEntries(file: string, wanted: readonly string[]): Promise<Map<string, Buffer>> {
  const manifest = await readBackupManifest(file)
  const byPath = new Map(manifest.files.map((entry) => [entry.path, entry]))
  const files = new Map<string, Buffer>()
  const zip = await BackupZip.open(file)
  try {
    for (const path of new Set(wanted)) {
      const expected = byPath.get(path)
      if (!expected) continue
      const chunks: Buffer[] = []
      for await (const chunk of zip.chunks(zip.entries.get(path) as Entry)) chunks.push(chunk)
      const content = Buffer.concat(chunks)
      if (content.length !== expected.size || sha256(content) !== expected.sha256) {
        throw new BackupCorruptError(file, `${path} does not match its size and sha256 in the manifest`)
      }
      files.set(path, content)
    }
  } finally {
    zip.close()
  }
  return files
}
