// Use case: `dreamlane seed`: create or refresh the window's daily notes under the workspace lock.
import type { Clock } from '../clock.js'
import { PrivacyStore, withSecretsWithheld } from '../db/privacy-store.js'
import type { StateDb } from '../db/state.js'
import { markDirty } from '../fts/journal.js'
import { withWorkspaceLock } from '../notes/lock.js'
import { seedDailyNotes, type SeedInput, type SeedResult } from '../notes/seed.js'

export type { SeedResult }

export interface SeedDeps {
  clock: Clock
  state: StateDb
}

/** Seeds like a dream's seed step would, refused (LOCK_HELD) while a dream writes the same notes. */
export async function seedNotes(input: SeedInput, deps: SeedDeps): Promise<SeedResult> {
  return withWorkspaceLock({ ...input, clock: deps.clock }, 'seed', async () => {
    // The same privacy rules as a dream's seeding: no cue of an excluded chat, a private stretch, a tombstone.
    const rules = new PrivacyStore(deps.state).rules(input.config.memory.excludeChats)
    const result = await seedDailyNotes({ ...input, privacy: withSecretsWithheld(rules, input.config) })
    markDirty(deps.state, input.paths.workspace, result.changed)
    return result
  })
}
