// Use case: take a forget back, until the next dream. Its ledger's diffs are played backwards under the workspace
// lock, file by file only where the note is still exactly as the forget left it, and its tombstone is lifted.
import { readFile } from 'node:fs/promises'
import { applyPatch, parsePatch, reversePatch } from 'diff'
import { PrivacyStore, type Tombstone } from '../db/privacy-store.js'
import { DreamlaneError } from '../errors.js'
import { refreshIndex } from '../fts/refresh.js'
import { absolutePath, currentSha256, sha256 } from '../ledger/files.js'
import { LedgerStore } from '../ledger/store.js'
import { markWritten } from '../ledger/transition.js'
import type { FileChange } from '../ledger/types.js'
import { assertWritable, writeFileAtomic } from '../notes/atomic-write.js'
import { withWorkspaceLock } from '../notes/lock.js'
import type { ReviewContext } from './context.js'

export interface ForgetUndoResult {
  tombstone: Tombstone
  restored: string[]
  message: string
}

/** Why tombstone `t` cannot be undone now, or null. */
export function undoRefusal(ctx: Pick<ReviewContext, 'runs'>, t: Tombstone): string | null {
  if (t.status === 'undone') return `${t.id} was already undone (${t.undoneAt})`
  if (t.backupsPurged) return `${t.id} also purged the backups, so there is nothing to restore it from`
  const since = ctx.runs
    .list({ kind: 'dream', limit: 200 })
    .find((run) => run.createdAt > t.createdAt && run.status !== 'skipped' && run.status !== 'queued')
  if (since)
    return `dream ${since.id} ran after ${t.id}, so it stays forgotten (a forget can be undone until the next dream)`
  return null
}

/** Undoes forget `id` (default: the newest still active). */
export async function undoForget(ctx: ReviewContext, id?: string): Promise<ForgetUndoResult> {
  await ctx.dreams?.idle()
  const store = new PrivacyStore(ctx.state)
  return withWorkspaceLock(ctx, `forget-undo-${id ?? 'latest'}`, async () => {
    const tombstone = id ? store.getTombstone(id) : (store.listTombstones('active')[0] ?? null)
    if (!tombstone)
      throw new DreamlaneError(
        'FORGET_NOT_UNDOABLE',
        id ? `no forget with id "${id}"` : 'nothing was forgotten to undo',
      )
    const refusal = undoRefusal(ctx, tombstone)
    if (refusal) throw new DreamlaneError('FORGET_NOT_UNDOABLE', refusal)
    const changes = new LedgerStore(ctx.state).list(tombstone.id)
    const restorations = []
    for (const change of changes) restorations.push(await restorationOf(ctx.paths.workspace, change))
    for (const { file } of restorations) await assertWritable(file)
    for (const { file, text } of restorations) await writeFileAtomic(file, text)
    markWritten(
      ctx,
      restorations.map((r) => r.file),
    )
    await refreshIndex({ state: ctx.state, paths: ctx.paths, config: ctx.config, clock: ctx.clock })
    store.markUndone(tombstone.id, ctx.clock.now())
    const restored = changes.map((change) => change.path)
    return {
      tombstone: store.getTombstone(tombstone.id) as Tombstone,
      restored,
      message: `Undid ${tombstone.id}: "${tombstone.what}" is back in ${restored.length} note(s), and dreams no longer skip it.`,
    }
  })
}

/** The note as it was before the forget, from its diff; refused when the note changed since (nothing is written). */
async function restorationOf(workspace: string, change: FileChange): Promise<{ file: string; text: string }> {
  const file = absolutePath(workspace, change.path)
  const now = await currentSha256(file)
  if (now !== change.afterSha256)
    throw new DreamlaneError(
      'FORGET_NOT_UNDOABLE',
      `${change.path} was changed after the forget; undoing it would lose that edit, so nothing was restored`,
    )
  const [patch] = parsePatch(change.diff)
  const text = patch ? applyPatch(await readFile(file, 'utf8'), reversePatch(patch)) : false
  if (text === false || sha256(Buffer.from(text)) !== change.beforeSha256)
    throw new DreamlaneError('FORGET_NOT_UNDOABLE', `${change.path} cannot be put back from the ledger`)
  return { file, text }
}
