// Reading a backup's manifest.json back (verify, restore): zod checks it, and stays out of backup creation,
// whose process would otherwise load zod (~50 ms of a CLI start) only to never use it.
import { z } from 'zod'
import { errorMessage } from '../errors.js'
import { isSafeBackupPath, MANIFEST_FORMAT, type BackupManifest } from './manifest.js'

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
