// A tool world for tests: workspace files, a real messages DB, state.db, a fixed clock and a UTC window.
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { openStateDb } from '../../src/db/state.js'
import type { NewBranch } from '../../src/db/messages.js'
import { renderDailyNote, type DailyFrontMatter } from '../../src/notes/daily-note.js'
import { dayWindow } from '../../src/time/local-day.js'
import type { ToolContext } from '../../src/tools/types.js'
import { makeMessagesDb, makeWorkspace, type MessageSpec } from '../helpers/workspace.js'

export const NOW = '2026-11-23T12:00:00Z'

export interface WorldOptions {
  messages?: MessageSpec[]
  branches?: NewBranch[]
  /** Window length in days, ending on the local day of NOW. @default 3 (2026-11-21 … 2026-11-23) */
  days?: number
  flags?: ConfigFile
  isDream?: boolean
}

export function makeToolWorld(files: Record<string, string> = {}, options: WorldOptions = {}) {
  const ws = makeWorkspace(files, options.flags)
  const messages = makeMessagesDb(ws.paths, options.messages ?? [], options.branches)
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    if (state.open) state.close()
  })
  const clock = fixedClock(NOW)
  const window = dayWindow(clock.now(), options.days ?? 3, ws.config.timezone)
  const context: ToolContext = {
    paths: ws.paths,
    config: ws.config,
    window,
    messages,
    state,
    clock,
    isDream: options.isDream ?? true,
  }
  return { ...ws, context, messages, state, clock, window }
}

/** A daily note that passes checkDailyNoteText, rendered by the real renderer. */
export function dailyNote(day: string, summary = '', frontMatter: Partial<DailyFrontMatter> = {}): string {
  return renderDailyNote({
    frontMatter: {
      date: day,
      summarised_until: null,
      messages_total: 2,
      messages_user: 1,
      messages_assistant: 1,
      session_trees: 1,
      session_chats: 1,
      first_message: `${day}T09:00:00.000Z`,
      last_message: `${day}T09:05:00.000Z`,
      scope_mode: 'all',
      scope_anchor: 'all',
      ...frontMatter,
    },
    extraFrontMatter: [],
    preface: '',
    warning: null,
    cues: null,
    sections: [{ updateTime: null, text: summary, isPending: summary === '' }],
  })
}

/** Every entry under `dir`, hidden ones and SQLite files too: files by sha256, symlinks by target. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      // SQLite's -shm file is a shared-memory index that every reader touches; the data lives in .db and -wal.
      if (name.endsWith('-shm')) continue
      const child = rel === '' ? name : `${rel}/${name}`
      const full = join(dir, child)
      const stats = lstatSync(full)
      if (stats.isSymbolicLink()) out[child] = `link:${readlinkSync(full)}`
      else if (stats.isDirectory()) {
        out[child] = 'dir'
        walk(child)
      } else out[child] = `file:${createHash('sha256').update(readFileSync(full)).digest('hex')}`
    }
  }
  walk('')
  return out
}
