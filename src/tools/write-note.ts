// The one way a tool writes a note: size, front matter and index-block checks, atomic replace, FTS dirty mark, record.
import { forgetInText } from '../notes/forget-text.js'
import { compileForgetMatcher } from '../privacy/forget-match.js'
import { NoteNotUtf8Error, ToolRefusal } from '../errors.js'
import { markDirty } from '../fts/journal.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import { checkDailyNoteText } from '../notes/daily-note.js'
import { readNoteText } from '../notes/note-text.js'
import { blockMarkers, hasBlock, INDEX_BLOCK, outsideBlock } from '../notes/owned-block.js'
import type { WriteTarget } from './scope.js'
import { SecretGuard, withheldNotice } from './secret-guard.js'
import type { ToolContext } from './types.js'

/**
 * Checks `content` for `target`, replaces the file atomically, returns the `wrote <path> (N bytes)` line, then
 * `detail` (what the write did, for the caller to say) and the notes budget, when the dream has one. What mentions
 * a tombstone (forgotten on request) is withheld first, and the line says so, so a model learns why.
 */
export async function writeNote(
  target: WriteTarget,
  written: string,
  context: ToolContext,
  signal?: AbortSignal,
  detail?: string,
): Promise<string> {
  const forgotten = withholdForgotten(target.rel, written, context)
  // The code decides, not the prompt: a secret never reaches a note, whatever the model wrote.
  const secrets =
    context.secrets ?? new SecretGuard(context.config.privacy.keepSecretKinds, context.window.timeZone)
  const secret = secrets.withholdForNote(forgotten.content)
  const content = secret.text
  const bytes = Buffer.byteLength(content, 'utf8')
  const maxBytes = context.config.tools.maxWriteBytes
  if (bytes > maxBytes) {
    throw new ToolRefusal(
      'CONTENT_TOO_LARGE',
      `${target.rel}: ${bytes} bytes is over the ${maxBytes}-byte limit for one note; ` +
        'keep it compact and move detail into notes/memory/days/YYYY-MM-DD.md pages',
    )
  }
  if (target.kind === 'daily' && target.day) {
    const reason = checkDailyNoteText(content, target.day)
    if (reason) throw new ToolRefusal('DAILY_NOTE_INVALID', `${target.rel}: ${reason}`)
  }
  // A note that is not UTF-8 was never read faithfully, so replacing it would lose bytes nobody saw.
  const before = target.stats ? await readNoteText(target.abs).catch(rethrowAs(target.rel)) : null
  if (target.rel === INDEX_FILE && before !== null) checkIndexBlock(before, content)
  // The last point where a cancelled turn can still leave the note untouched.
  signal?.throwIfAborted()
  await writeFileAtomic(target.abs, content, context.dirSyncs ? { dirSyncs: context.dirSyncs } : {})
  // Recorded before the index mark, so a failing mark can never hide a written file from the change ledger.
  context.onWrite?.(target.abs)
  markDirty(context.state, context.paths.workspace, [target.abs])
  const said = detail === undefined ? '' : `; ${detail}`
  const budget = context.noteBudget ? `; ${context.noteBudget.record(target, before, content)}` : ''
  return `wrote ${target.rel} (${bytes} bytes)${said}${forgotten.withheld}${withheldNotice(secret.kinds)}${budget}`
}

const INDEX_FILE = 'notes/memory/MEMORY.md'

/**
 * MEMORY.md's lines outside its index block are the user's: a write that changes them (or drops the block) is
 * refused, so a dream rewrites its index freely and never a line someone wrote around it. A MEMORY.md without the
 * block (from before it existed) is not under this rule; the loss guard still holds a run that empties it.
 */
function checkIndexBlock(before: string, after: string): void {
  if (!hasBlock(before, INDEX_BLOCK)) return
  if (hasBlock(after, INDEX_BLOCK) && outsideBlock(after, INDEX_BLOCK) === outsideBlock(before, INDEX_BLOCK))
    return
  const { begin, end } = blockMarkers(INDEX_BLOCK)
  throw new ToolRefusal(
    'MEMORY_OUTSIDE_BLOCK',
    `${INDEX_FILE}: only the index between "${begin}" and "${end}" is yours to rewrite; ` +
      'keep the markers and every line outside them as they are',
  )
}

/** `content` without what the user asked to forget, and the note for the tool's reply ('' when nothing went). */
function withholdForgotten(
  rel: string,
  content: string,
  context: ToolContext,
): { content: string; withheld: string } {
  const phrases = context.privacy?.forgotten ?? []
  if (phrases.length === 0) return { content, withheld: '' }
  const edit = forgetInText(rel, content, compileForgetMatcher(phrases))
  if (edit.removals.length === 0) return { content, withheld: '' }
  return {
    content: edit.text,
    withheld:
      `; withheld ${edit.removals.length} passage(s) that mention something the user asked dreamlane to forget ` +
      '(a tombstone): leave it out of every note, do not write it again',
  }
}

/** Names the note by its workspace path in a NoteNotUtf8Error (the model knows it by that name). */
function rethrowAs(rel: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof NoteNotUtf8Error) throw new NoteNotUtf8Error(rel, { cause: error })
    throw error
  }
}
