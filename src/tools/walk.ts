// Walks a readable folder for text notes in a stable order: no hidden or temp files, never through symlinks.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isTempOrHidden } from '../notes/atomic-write.js'

/**
 * Yields workspace-relative paths of text files under folder `rel`, folder by folder in name order.
 * Symlinks are skipped: a listing must never lead a later read outside the checked tree.
 */
export async function* walkTextFiles(
  workspace: string,
  rel: string,
  extensions: readonly string[],
): AsyncGenerator<string> {
  const lowerExtensions = extensions.map((ext) => ext.toLowerCase())
  const entries = await readdir(join(workspace, rel), { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    if (isTempOrHidden(entry.name) || entry.isSymbolicLink()) continue
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`
    if (entry.isDirectory()) {
      yield* walkTextFiles(workspace, child, extensions)
    } else if (entry.isFile() && lowerExtensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) {
      yield child
    }
  }
}
