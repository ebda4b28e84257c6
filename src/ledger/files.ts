// Byte-level file helpers shared by the ledger's steps: hash, read-or-null, and an atomic write-or-remove.
import { createHash } from 'node:crypto'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../notes/atomic-write.js'

export function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex')
}

/** Absolute path of a workspace-relative, '/'-separated path. */
export function absolutePath(workspace: string, rel: string): string {
  return join(workspace, ...rel.split('/'))
}

/** The file's bytes, or null when nothing is there. */
export async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** sha256 of what is at `file` now, or null when nothing is. */
export async function currentSha256(file: string): Promise<string | null> {
  const content = await readOrNull(file)
  return content === null ? null : sha256(content)
}

/** Makes `file` hold `content` (atomically), or removes it for null: each file ends wholly one or the other. */
export async function putFile(file: string, content: Buffer | null): Promise<void> {
  if (content === null) await rm(file, { force: true })
  else await writeFileAtomic(file, content)
}
