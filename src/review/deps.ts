// What review actions (apply, discard, undo, recovery of stages) need: the workspace, its state DB and runs.
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import type { RunStore } from '../dream/runs.js'
import type { WorkspacePaths } from '../notes/paths.js'

export interface ReviewDeps {
  paths: WorkspacePaths
  config: ResolvedConfig
  clock: Clock
  state: StateDb
  runs: RunStore
  log: Logger
}
