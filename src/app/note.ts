// Use case: append a line an assistant was asked to remember to today's daily note, under the workspace lock.
import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import { DreamlaneError, LockHeldError } from '../errors.js'
import { readLock, withWorkspaceLock } from '../notes/lock.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { dayWindow, localDayOf, localTimeOf } from '../time/local-day.js'

/** Longest note accepted, in UTF-8 bytes: a remark to remember, not a document. */
export const MAX_NOTE_BYTES = 8 * 1024
/** Lock labels of note appends start so; another append holding the lock is waited for, a dream is not. */
const NOTE_LOCK = 'note-'
/** How long an append waits for other appends (each holds the lock for milliseconds). */
const NOTE_LOCK_WAIT_MS = 10_000

export interface NoteDeps {
  paths: WorkspacePaths
  config: ResolvedConfig
  clock: Clock
  state: StateDb
}

export interface NoteResult {
  /** Workspace-relative path of the daily note written. */
  path: string
  day: string
  /** The list item as written, e.g. `- 14:05 Prefers window seats`. */
  entry: string
  created: boolean
}

/** Why `text` cannot be noted, or null. Exported so front ends can check before they take the lock. */
export function noteRefusal(text: string): string | null {
  if (text.trim() === '') return 'the note is empty'
  const bytes = Buffer.byteLength(text)
  if (bytes > MAX_NOTE_BYTES) return `the note is ${bytes} bytes; at most ${MAX_NOTE_BYTES} are accepted`
  if (text.includes('\0')) return 'the note contains a NUL byte'
  // An HTML comment would hide the rest of the note from recall and could pass for a dream marker.
  if (text.includes('<!--') || text.includes('-->')) return 'the note contains an HTML comment marker'
  return null
}

/**
 * Appends `text` to today's daily note (created when missing) under "## Noted". Memory files are never
 * touched: dreams decide what of it belongs there. A running dream holds the lock for minutes, so then the
 * append fails LOCK_HELD at once; other appends hold it briefly and are waited for.
 */
export async function appendNote(deps: NoteDeps, text: string): Promise<NoteResult> {
  const refusal = noteRefusal(text)
  if (refusal) throw new DreamlaneError('TOOL_INPUT_INVALID', `${refusal}; nothing was written`)
  const started = performance.now()
  for (;;) {
    try {
      // A label of its own, so releasing can never remove another append's lock.
      const label = `${NOTE_LOCK}${randomBytes(4).toString('hex')}`
      return await withWorkspaceLock(deps, label, () => writeEntry(deps, text))
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error
      const holder = await readLock(deps.paths.lockFile)
      if (holder !== null && !holder.runId.startsWith(NOTE_LOCK)) throw error
      if (performance.now() - started > NOTE_LOCK_WAIT_MS) throw error
      // Jittered, so two waiting appenders do not retry in step.
      await sleep(5 + Math.random() * 25)
    }
  }
}

async function writeEntry(deps: NoteDeps, said: string): Promise<NoteResult> {
  // A note asked for in chat or over MCP is memory too: a secret in it is withheld like any other.
  const { withholdSecrets } = await import('../secrets/withhold.js')
  const text = withholdSecrets(said, { keepKinds: deps.config.privacy.keepSecretKinds }).text
  // The daily-note parser, the FTS journal and the path policy load with the first note, so
  // `dreamlane mcp` answers its handshake without them.
  const [
    { markDirty },
    { writeFileAtomic },
    { readDailyNoteFile },
    { withNotedEntry },
    { resolveWriteTarget },
  ] = await Promise.all([
    import('../fts/journal.js'),
    import('../notes/atomic-write.js'),
    import('../notes/daily-files.js'),
    import('../notes/noted.js'),
    import('../tools/scope.js'),
  ])
  const { paths, config, clock } = deps
  const now = clock.now()
  const day = localDayOf(now, config.timezone)
  // The same path policy as a dream's write_file: a daily note of today's window, reached without symlinks.
  const target = await resolveWriteTarget(`notes/daily/${day}.md`, paths, dayWindow(now, 1, config.timezone))
  const before = await readDailyNoteFile(target.abs)
  const time = localTimeOf(now, config.timezone)
  const after = withNotedEntry(before, day, config.timezone, { time, text })
  if (Buffer.byteLength(after) > config.tools.maxWriteBytes)
    throw new DreamlaneError(
      'CONTENT_TOO_LARGE',
      `${target.rel} would grow past ${config.tools.maxWriteBytes} bytes; nothing was written`,
    )
  await writeFileAtomic(target.abs, after)
  markDirty(deps.state, paths.workspace, [target.abs])
  const entry = `- ${time} ${text.trim().split(/\r?\n/)[0] ?? ''}`
  return { path: target.rel, day, entry, created: before === null }
}
