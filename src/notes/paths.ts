// Where everything lives: workspace notes, the data dir and its files. Resolved once, passed down.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import type { ResolvedConfig } from '../config/schema.js'
import { DreamlaneError } from '../errors.js'

/** The seven memory files a dream may write, by name. */
export const MEMORY_FILES = [
  'MEMORY.md',
  'current-state.md',
  'recent-context.md',
  'user.md',
  'feedback.md',
  'project.md',
  'reference.md',
] as const
export type MemoryFile = (typeof MEMORY_FILES)[number]

/** The memory files that hold fact bullets (MEMORY.md holds pointers, recent-context.md day lines). */
export const FACT_FILES = [
  'user.md',
  'project.md',
  'reference.md',
  'feedback.md',
  'current-state.md',
] as const satisfies readonly MemoryFile[]

/** Files whose absence on start-up means "first boot" (bootstrap dream). */
export const CORE_MEMORY_FILES: readonly MemoryFile[] = ['MEMORY.md', 'current-state.md', 'recent-context.md']

export interface WorkspacePaths {
  workspace: string
  notes: string
  daily: string
  memory: string
  /** notes/memory/days: sparse distilled day pages. */
  days: string
  dataDir: string
  backups: string
  stateDb: string
  messagesDb: string
  lockFile: string
  /** The repo's starter memory files. */
  template: string
  skills: string
}

/** Repository root (where notes-template/ and skills/ ship), from this module's location in src/ or dist/. */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..')

export function workspacePaths(
  config: Pick<ResolvedConfig, 'workspace' | 'dataDir' | 'messagesDb'>,
): WorkspacePaths {
  const notes = join(config.workspace, 'notes')
  return {
    workspace: config.workspace,
    notes,
    daily: join(notes, 'daily'),
    memory: join(notes, 'memory'),
    days: join(notes, 'memory', 'days'),
    dataDir: config.dataDir,
    backups: join(config.dataDir, 'backups'),
    stateDb: join(config.dataDir, 'state.db'),
    messagesDb: config.messagesDb,
    lockFile: join(config.dataDir, 'dream.lock'),
    template: join(PACKAGE_ROOT, 'notes-template'),
    skills: join(PACKAGE_ROOT, 'skills'),
  }
}

/** notes/daily/YYYY-MM-DD.md */
export function dailyNotePath(paths: WorkspacePaths, day: string): string {
  return join(paths.daily, `${day}.md`)
}

/** A mistyped --workspace must say so, not complain about a messages DB inside a folder that is not there. */
export function assertWorkspaceExists(workspace: string): void {
  if (!existsSync(workspace))
    throw new DreamlaneError(
      'WORKSPACE_MISSING',
      `the workspace folder ${workspace} does not exist — check --workspace (or DREAMLANE_WORKSPACE), ` +
        `or create it with \`dreamlane --workspace ${workspace} init\``,
    )
}
