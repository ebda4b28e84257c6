import { it } from 'vitest'
import { fixedClock } from '../../../src/clock.js'
import { openMessagesDb } from '../../../src/db/messages.js'
import { openStateDb } from '../../../src/db/state.js'
import { createOfflineProvider } from '../../../src/model/offline/engine.js'
import { seedDailyNotes } from '../../../src/notes/seed.js'
import { generateBulkMessages } from '../../../src/sample/bulk.js'
import { dayWindow } from '../../../src/time/local-day.js'
import { createToolSet } from '../../../src/tools/tool-set.js'
import { makeWorkspace } from '../../helpers/workspace.js'
import { cpSync } from 'node:fs'
import { TEMPLATE_DIR } from './world.js'

it.each([500, 2000, 8000])('perf %i window messages', async (windowMessages) => {
  const ws = makeWorkspace({}, { timezone: 'UTC' })
  cpSync(TEMPLATE_DIR, ws.paths.memory, { recursive: true })
  const now = new Date('2026-11-23T20:00:00Z')
  await generateBulkMessages({ file: ws.paths.messagesDb, now, timeZone: 'UTC', total: windowMessages + 1000, windowDays: 7, windowMessages })
  const messages = openMessagesDb(ws.paths.messagesDb)
  const state = openStateDb(ws.paths.stateDb)
  const window = dayWindow(now, 7, 'UTC')
  await seedDailyNotes({ paths: ws.paths, config: ws.config, messages, window })
  const tools = createToolSet({ paths: ws.paths, config: ws.config, window, messages, state, clock: fixedClock(now.toISOString()), isDream: true })
  const t0 = performance.now()
  const mem0 = process.memoryUsage().rss
  const result = await createOfflineProvider().runTurn({ system: '', prompt: '', context: { runId: 'r', mode: 'manual', chatJid: 'c', days: window.days, timeZone: 'UTC', now: now.toISOString() }, budget: { maxToolCalls: 400, maxTotalTokens: 1, maxOutputTokens: 1, timeoutMs: 1 } }, tools, new AbortController().signal)
  console.log(windowMessages, 'ms', Math.round(performance.now() - t0), 'calls', tools.calls().length, 'rss+MB', Math.round((process.memoryUsage().rss - mem0) / 1e6), result.stop)
  console.log(result.text)
  messages.close(); state.close()
}, 300_000)
