// `dream --dry-run`: the whole dream against a scratch copy of the notes; reports its ledger, touches nothing.
import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { ResolvedConfig } from '../config/schema.js'
import { openStateDb } from '../db/state.js'
import type { DreamDeps } from '../dream/deps.js'
import { runDream } from '../dream/run.js'
import { RunStore } from '../dream/runs.js'
import { SettingsStore } from '../dream/settings.js'
import type { DreamRequest, RunRecord } from '../dream/types.js'
import { isTempOrHidden } from '../notes/atomic-write.js'
import { workspacePaths, type WorkspacePaths } from '../notes/paths.js'
import { LedgerStore } from '../ledger/store.js'
import type { FileChange } from '../ledger/types.js'
import { withWorkspaceLock } from '../notes/lock.js'

export interface DryRunResult {
  /** The rehearsal's record (from the scratch state, gone once this returns): status, steps, totals, flags. */
  run: RunRecord
  /** The diff the real run would apply, file by file. */
  changes: FileChange[]
  /** True when the real run would be held for review (see run.holdReasons). */
  wouldHold: boolean
}

/**
 * Copies the readable part of the workspace (notes/ and the search roots inside it) into a scratch folder in
 * the data dir while holding the lock, then runs the dream there with its own state.db: same messages, same
 * provider, same settings, nothing posted to chat. The scratch folder is removed afterwards.
 */
export async function dryRunDream(
  request: Omit<DreamRequest, 'dryRun'>,
  deps: DreamDeps,
): Promise<DryRunResult> {
  const scratch = join(deps.paths.dataDir, `dry-run-${randomBytes(4).toString('hex')}`)
  try {
    await withWorkspaceLock(deps, 'dry-run', () => copyReadableTree(deps.paths, deps.config, scratch))
    const config: ResolvedConfig = {
      ...deps.config,
      workspace: scratch,
      dataDir: join(scratch, '.dreamlane'),
    }
    const { messagesDb, template, skills } = deps.paths
    const paths: WorkspacePaths = { ...workspacePaths(config), messagesDb, template, skills }
    const state = openStateDb(paths.stateDb)
    try {
      const runs = new RunStore(state, deps.clock, config.timezone)
      const scratchDeps: DreamDeps = {
        ...deps,
        config,
        paths,
        state,
        runs,
        settings: new SettingsStore(state),
        onSummary: undefined,
      }
      const opened = runs.open(request)
      const run = await runDream(opened.id, { ...request, dryRun: true }, scratchDeps)
      return { run, changes: new LedgerStore(state).list(run.id), wouldHold: run.status === 'held' }
    } finally {
      state.close()
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** notes/ plus every configured search root inside the workspace: what a dream's tools could read. */
async function copyReadableTree(
  paths: WorkspacePaths,
  config: ResolvedConfig,
  scratch: string,
): Promise<void> {
  const roots = new Set(['notes'])
  for (const root of config.search.roots) {
    const rel = isAbsolute(root) ? relative(paths.workspace, root) : root
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) roots.add(rel.split(sep).join('/'))
  }
  for (const root of roots)
    await copyTree(join(paths.workspace, ...root.split('/')), join(scratch, ...root.split('/')))
}

/** Regular files and folders only: symlinks could lead the rehearsal back into the real notes. */
async function copyTree(from: string, to: string): Promise<void> {
  let entries
  try {
    entries = await readdir(from, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  await mkdir(to, { recursive: true })
  for (const entry of entries) {
    if (isTempOrHidden(entry.name)) continue
    if (entry.isDirectory()) await copyTree(join(from, entry.name), join(to, entry.name))
    else if (entry.isFile()) await copyFile(join(from, entry.name), join(to, entry.name))
  }
}
