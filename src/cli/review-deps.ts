// What a review-like command (runs apply|discard|undo, forget) works with: the state DB and the run store, no
// messages DB. One opener, so each such command builds its dependencies alike and always closes the DB.
import { systemClock } from '../clock.js'
import type { ReviewDeps } from '../review/deps.js'
import { cliLogger, type CliContext } from './context.js'

/** Runs `work` with review dependencies over the context's state DB, closing it however `work` ends. */
export async function withReviewDeps<T>(ctx: CliContext, work: (deps: ReviewDeps) => Promise<T>): Promise<T> {
  const { openStateDb } = await import('../db/state.js')
  const { RunStore } = await import('../dream/runs.js')
  const state = openStateDb(ctx.paths.stateDb)
  try {
    return await work({
      paths: ctx.paths,
      config: ctx.config,
      clock: systemClock,
      state,
      runs: new RunStore(state, systemClock, ctx.config.timezone),
      log: await cliLogger(),
    })
  } finally {
    state.close()
  }
}
