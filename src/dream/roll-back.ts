// A failed dream takes back what it wrote: each file goes back to its pre-dream backup bytes.
import type { ManifestEntry } from '../backup/manifest.js'
import { errorMessage } from '../errors.js'
import { absolutePath, putFile } from '../ledger/files.js'
import { collectRunContents } from '../ledger/ledger.js'

/**
 * Puts every file in `written` that differs from `backup` back to its backed-up bytes (or removes it when the
 * backup lacks it), so a failed run leaves the notes as they were. Returns one sentence for the run's reason.
 */
export async function rollBackWrites(
  workspace: string,
  backup: { file: string; manifest: readonly ManifestEntry[] },
  written: readonly string[],
): Promise<string> {
  if (written.length === 0) return 'no note was changed'
  try {
    const contents = await collectRunContents(workspace, backup, written)
    for (const content of contents) await putFile(absolutePath(workspace, content.path), content.before)
    return contents.length === 0
      ? 'no note was changed'
      : `the ${contents.length} note(s) it had written were put back from its backup`
  } catch (error) {
    return `putting its notes back from the backup failed too (${errorMessage(error)}); restore it with \`dreamlane backups restore\``
  }
}
