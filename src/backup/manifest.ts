// The manifest stored as `manifest.json` in every backup: what the zip must contain, byte for byte.
import { z } from 'zod'
import { errorMessage } from '../errors.js'
import { isTempOrHidden } from '../notes/atomic-write.js'

export const MANIFEST_NAME = 'manifest.json'
export const MANIFEST_FORMAT = 'dreamlane-backup'

/** Roots a backup covers, relative to the workspace. Restore writes nowhere else. */
export const BACKUP_ROOTS = ['notes/daily', 'notes/memory'] as const

/** One backed-up file: workspace-relative POSIX path, byte size and hex sha256 of its content. */
export interface ManifestEntry {
  path: string
  size: number
  sha256: string
}

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT
  version: 1
  createdAt: string
  mode: string
  chatJid: string
  files: ManifestEntry[]
}

const entrySchema = z
  .object({
    path: z
      .string()
      .refine(isSafeBackupPath, 'unsafe path (absolute, "..", hidden, or outside notes/daily|memory)'),
    size: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
  })
  .strict()

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  mode: z.string(),
  chatJid: z.string(),
  files: z.array(entrySchema),
})

export function buildManifest(
  meta: Pick<BackupManifest, 'createdAt' | 'mode' | 'chatJid'>,
  files: ManifestEntry[],
): BackupManifest {
  return { format: MANIFEST_FORMAT, version: 1, ...meta, files }
}

/** Parses and checks manifest JSON; returns the reason it is unusable instead of the manifest when it is. */
export function parseManifest(json: string): BackupManifest | { problem: string } {
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch (error) {
    return { problem: `manifest.json is not JSON (${errorMessage(error)})` }
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || '(root)'
    return { problem: `manifest.json is invalid at ${where}: ${issue?.message ?? 'unknown'}` }
  }
  const seen = new Set<string>()
  for (const entry of parsed.data.files) {
    if (seen.has(entry.path)) return { problem: `manifest.json lists ${entry.path} twice` }
    seen.add(entry.path)
  }
  return parsed.data
}

/**
 * True for relative POSIX paths strictly inside notes/daily or notes/memory with no empty, `.`, `..` or
 * hidden/temp segments — the only names restore will ever write.
 */
export function isSafeBackupPath(path: string): boolean {
  if (path.includes('\\') || path.includes('\0') || path.startsWith('/')) return false
  const segments = path.split('/')
  if (segments.length < 3) return false
  if (!BACKUP_ROOTS.includes(`${segments[0]}/${segments[1]}` as (typeof BACKUP_ROOTS)[number])) return false
  // isTempOrHidden also catches '.' and '..' (they start with a dot).
  return segments.every((segment) => segment !== '' && !isTempOrHidden(segment))
}
