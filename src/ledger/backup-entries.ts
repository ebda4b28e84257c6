// Reads chosen files out of a backup zip, each checked against a sha256 we already trust: O(files wanted).
import { BackupCorruptError } from '../errors.js'
import { BackupZip } from '../backup/read-zip.js'
import { sha256 } from './files.js'

/**
 * The bytes of each path in `expected` (path → sha256), read from the backup zip at `file`. A missing entry
 * or a hash mismatch throws BackupCorruptError: nothing unverified is ever handed back to be restored.
 */
export async function readBackupEntries(
  file: string,
  expected: ReadonlyMap<string, string>,
): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  if (expected.size === 0) return files
  const zip = await BackupZip.open(file)
  try {
    for (const [path, hash] of expected) {
      const entry = zip.entries.get(path)
      if (!entry) throw new BackupCorruptError(file, `${path} is missing from the backup`)
      const chunks: Buffer[] = []
      for await (const chunk of zip.chunks(entry)) chunks.push(chunk)
      const content = Buffer.concat(chunks)
      if (sha256(content) !== hash)
        throw new BackupCorruptError(file, `${path} does not match its recorded sha256`)
      files.set(path, content)
    }
  } finally {
    zip.close()
  }
  return files
}
