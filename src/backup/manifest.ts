// The manifest stored as `manifest.json` in every backup: what the zip must contain, byte for byte.
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

export function buildManifest(
  meta: Pick<BackupManifest, 'createdAt' | 'mode' | 'chatJid'>,
  files: ManifestEntry[],
): BackupManifest {
  return { format: MANIFEST_FORMAT, version: 1, ...meta, files }
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
