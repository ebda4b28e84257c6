// Crash-safe file replacement: temp file in the same directory, fsync, rename, fsync the directory.
import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Replaces `file` with `content` so that a crash leaves either the old or the new bytes, never a mix.
 * The temp name starts with "." and ends with ".tmp" so backups, FTS and listings skip it.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const dir = dirname(file)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(content)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  await syncDir(dir)
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic there.
  }
}

/** True for names dreamlane's own writers leave behind or that are hidden: never indexed or backed up. */
export function isTempOrHidden(name: string): boolean {
  return name.startsWith('.') || name.endsWith('.tmp')
}
