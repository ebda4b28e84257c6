// A small real world for dream tests: a workspace from the template, a messages DB, a fixed clock, a Dreamlane.
import { hostname } from 'node:os'
import { writeFileSync } from 'node:fs'
import { pino } from 'pino'
import { fixedClock } from '../../src/clock.js'
import { openDreamlane, type DreamlaneOptions } from '../../src/create.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import type { ModelProvider } from '../../src/model/provider.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { makeMessagesDb, makeWorkspace, type MessageSpec, type TestWorkspace } from './workspace.js'

export const NOW = '2026-11-21T20:00:00.000Z'

export const SMALL_HISTORY: MessageSpec[] = [
  {
    chatJid: 'web:main',
    content: 'I moved to Porto last month and I love it.',
    timestamp: '2026-11-20T09:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Nice! Porto is lovely.',
    timestamp: '2026-11-20T09:00:05.000Z',
    isBotMessage: true,
  },
  {
    chatJid: 'web:main',
    content: 'We decided to use Postgres for the Atlas project.',
    timestamp: '2026-11-21T10:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Noted: Postgres for Atlas.',
    timestamp: '2026-11-21T10:00:04.000Z',
    isBotMessage: true,
  },
]

export interface DreamWorld extends TestWorkspace {
  clock: ReturnType<typeof fixedClock>
  open(options?: Partial<DreamlaneOptions>): ReturnType<typeof openDreamlane>
}

/** `flags` are config settings on top of the test defaults (e.g. `{ privacy: { keepSecretKinds: [...] } }`). */
export async function makeDreamWorld(
  messages: MessageSpec[] = SMALL_HISTORY,
  flags: ConfigFile = {},
): Promise<DreamWorld> {
  const ws = makeWorkspace({}, flags)
  await initWorkspace(ws.paths)
  makeMessagesDb(ws.paths, messages).close()
  const clock = fixedClock(NOW)
  return {
    ...ws,
    clock,
    open(options = {}) {
      const dreamlane = openDreamlane({
        config: ws.config,
        clock,
        logger: pino({ level: 'silent' }),
        ...options,
      })
      return dreamlane
    },
  }
}

/** Writes a lock file as if another process held it. */
export function writeForeignLock(file: string, pid: number, startedAt: string, runId = 'run-other'): void {
  writeFileSync(file, JSON.stringify({ pid, host: hostname(), runId, startedAt }))
}

export type { ModelProvider }
