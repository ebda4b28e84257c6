import { hostname } from 'node:os'
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import { checkGates } from '../../src/dream/gates.js'
import { RunStore } from '../../src/dream/runs.js'
import { SettingsStore } from '../../src/dream/settings.js'
import { ensureRecallSchema } from '../../src/recall/store.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

const NOW = '2026-11-21T01:00:00.000Z'
const COMPLETE_NOTE = (day: string) =>
  `---\ndate: '${day}'\nsummarised_until: '${day}T23:00:00.000Z'\nmessages_total: 1\nmessages_user: 1\nmessages_assistant: 0\nsession_trees: 1\nsession_chats: 1\nfirst_message: '${day}T10:00:00.000Z'\nlast_message: '${day}T10:00:00.000Z'\nscope_mode: local-day\nscope_anchor: ${day} UTC\n---\n# Day\n\n## Summary\n\nDone.\n`
const UNSUMMARISED_NOTE = (day: string) =>
  COMPLETE_NOTE(day)
    .replace(/summarised_until: .*/, 'summarised_until: null')
    .replace('Done.', '<!-- NEEDS_SUMMARY -->')

interface Scenario {
  autoOff?: boolean
  liveLock?: boolean
  lastSuccessHoursAgo?: number
  messagesAfterSuccess?: MessageSpec[]
  notes?: Record<string, string>
}

function world(scenario: Scenario) {
  const ws = makeWorkspace(scenario.notes ?? {})
  const clock = fixedClock(NOW)
  const state = openStateDb(ws.paths.stateDb)
  const runs = new RunStore(state, clock, 'UTC')
  const settings = new SettingsStore(state)
  if (scenario.autoOff) settings.setAutoDreamEnabled(false, clock.now())
  if (scenario.lastSuccessHoursAgo !== undefined) {
    const at = new Date(clock.now().getTime() - scenario.lastSuccessHoursAgo * 3_600_000)
    clock.set(at.toISOString())
    const run = runs.open({ mode: 'auto', chatJid: 'main', days: 2 })
    runs.close(run.id, { status: 'succeeded' })
    clock.set(NOW)
  }
  const lastSuccess = scenario.lastSuccessHoursAgo ?? 0
  const before = new Date(new Date(NOW).getTime() - (lastSuccess + 1) * 3_600_000).toISOString()
  const messages = makeMessagesDb(ws.paths, [
    { chatJid: 'main', content: 'old', timestamp: before },
    ...(scenario.messagesAfterSuccess ?? []),
  ])
  if (scenario.liveLock) {
    writeFileSync(
      ws.paths.lockFile,
      JSON.stringify({ pid: process.pid, host: hostname(), runId: 'run-live', startedAt: NOW }),
    )
  }
  return { config: ws.config, paths: ws.paths, clock, runs, settings, messages, state }
}

const recent = (hoursAgo: number): string =>
  new Date(new Date(NOW).getTime() - hoursAgo * 3_600_000).toISOString()

describe('gate cascade', () => {
  it.each<[string, Scenario, string, RegExp]>([
    ['AutoDream switched off', { autoOff: true, liveLock: true }, 'disabled', /AutoDream is off/],
    ['a live lock', { liveLock: true, lastSuccessHoursAgo: 48 }, 'lock', /already running: run run-live/],
    [
      'too soon after a success',
      {
        lastSuccessHoursAgo: 5,
        messagesAfterSuccess: [{ chatJid: 'main', content: 'hi', timestamp: recent(1) }],
      },
      'time',
      /5\.0 h ago \(minimum 20 h\)/,
    ],
    [
      'no new sessions and no backlog',
      { lastSuccessHoursAgo: 30, notes: { 'notes/daily/2026-11-20.md': COMPLETE_NOTE('2026-11-20') } },
      'sessions',
      /0 session tree\(s\) since .*, fewer than 1, and no daily note needs a summary/,
    ],
    [
      'no new sessions but a backlog',
      { lastSuccessHoursAgo: 30, notes: { 'notes/daily/2026-11-20.md': UNSUMMARISED_NOTE('2026-11-20') } },
      'triggered',
      /1 daily note\(s\) still need a summary/,
    ],
    [
      'new sessions',
      {
        lastSuccessHoursAgo: 30,
        messagesAfterSuccess: [
          { chatJid: 'a', content: 'x', timestamp: recent(2) },
          { chatJid: 'b', content: 'y', timestamp: recent(3) },
        ],
      },
      'triggered',
      /2 session tree\(s\)/,
    ],
    ['no prior consolidation', {}, 'triggered', /no prior consolidation/],
  ])('%s → %s', async (_name, scenario, outcome, reason) => {
    const decision = await checkGates('auto', world(scenario))
    expect(decision.outcome).toBe(outcome)
    expect(decision.reason).toMatch(reason)
  })

  it("does not count dreamlane's own summary post as a new session", async () => {
    const w = world({ lastSuccessHoursAgo: 30 })
    w.messages.insertMessages([
      {
        id: 's',
        chatJid: 'main',
        sender: 'dreamlane',
        content: 'Dream finished',
        timestamp: recent(29),
        isBotMessage: true,
      },
    ])
    expect((await checkGates('auto', w)).outcome).toBe('sessions')
  })

  it('lets manual dreams through every gate but the lock', async () => {
    expect((await checkGates('manual', world({ autoOff: true, lastSuccessHoursAgo: 1 }))).outcome).toBe(
      'triggered',
    )
    expect((await checkGates('manual', world({ liveLock: true }))).outcome).toBe('lock')
  })
})

describe('the time gate counts from the last successful auto dream', () => {
  function withRuns(runs: { mode: 'auto' | 'manual'; hoursAgo: number }[]) {
    const w = world({})
    for (const spec of runs) {
      w.clock.set(recent(spec.hoursAgo))
      const run = w.runs.open({ mode: spec.mode, chatJid: 'main', days: 2 })
      w.runs.close(run.id, { status: 'succeeded' })
    }
    w.clock.set(NOW)
    w.messages.insertMessages([{ id: 'new', chatJid: 'main', content: 'later', timestamp: recent(0.5) }])
    return w
  }

  it('a manual dream at 23:00 does not make the 01:00 AutoDream skip', async () => {
    const w = withRuns([
      { mode: 'auto', hoursAgo: 24 },
      { mode: 'manual', hoursAgo: 2 },
    ])
    const decision = await checkGates('auto', w)
    expect(decision.outcome).toBe('triggered')
    expect(decision.reason).toMatch(/session tree/)
  })

  it('an auto dream 5 h ago still stops it, whatever manual dreams did', async () => {
    const w = withRuns([
      { mode: 'manual', hoursAgo: 30 },
      { mode: 'auto', hoursAgo: 5 },
    ])
    const decision = await checkGates('auto', w)
    expect(decision.outcome).toBe('time')
    expect(decision.reason).toMatch(/auto dream 5\.0 h ago/)
  })

  it('counts new sessions from the last consolidation of any mode', async () => {
    const w = withRuns([
      { mode: 'auto', hoursAgo: 30 },
      { mode: 'manual', hoursAgo: 0.25 },
    ])
    // The only new message predates the manual dream, so nothing is new since the last consolidation.
    expect((await checkGates('auto', w)).outcome).toBe('sessions')
  })
})

describe('the sessions threshold and the signal gate', () => {
  const twoTrees: MessageSpec[] = [
    { chatJid: 'a', content: 'x', timestamp: recent(2) },
    { chatJid: 'b', content: 'y', timestamp: recent(3) },
  ]
  function configured(
    scenario: Scenario,
    autoDream: Partial<{ minSessions: number; minNewRecalls: number }>,
  ) {
    const w = world(scenario)
    return { ...w, config: { ...w.config, autoDream: { ...w.config.autoDream, ...autoDream } } }
  }
  function recall(w: ReturnType<typeof world>, count: number, hoursAgo: number) {
    ensureRecallSchema(w.state)
    const insert = w.state.prepare(
      `INSERT INTO recall_events (chunk_key, query_hash, score, relevance, day, at_ms, chat_jid)
      VALUES ('notes/a.md:1-1:000000000000', 'q', 1, 1, '2026-11-20', ?, 'main')`,
    )
    for (let i = 0; i < count; i++) insert.run(Date.parse(recent(hoursAgo)))
  }

  it.each<[string, number, number, string, RegExp]>([
    [
      '2 trees under a threshold of 3, no backlog',
      3,
      0,
      'sessions',
      /2 session tree\(s\) since .*, fewer than 3/,
    ],
    [
      '2 trees at a threshold of 2',
      2,
      0,
      'triggered',
      /2 session tree\(s\) .*\(threshold 2\); 1 new recall event\(s\) since /,
    ],
    [
      '2 trees, signal minimum 2 with 1 new event',
      1,
      2,
      'signal',
      /1 new recall event\(s\) since .*, fewer than 2/,
    ],
  ])('%s → %s', async (_name, minSessions, minNewRecalls, outcome, reason) => {
    const w = configured(
      { lastSuccessHoursAgo: 30, messagesAfterSuccess: twoTrees },
      { minSessions, minNewRecalls },
    )
    recall(w, 1, 1)
    const decision = await checkGates('auto', w)
    expect([decision.outcome, decision.reason]).toEqual([outcome, expect.stringMatching(reason)])
    expect(decision.measures.sessions).toMatchObject({ count: 2, threshold: minSessions })
    if (outcome !== 'sessions')
      expect(decision.measures.signal).toMatchObject({ count: 1, minimum: minNewRecalls })
  })

  it('a backlog still lets AutoDream through a sessions threshold it misses, on to the signal gate', async () => {
    const w = configured(
      { lastSuccessHoursAgo: 30, notes: { 'notes/daily/2026-11-20.md': UNSUMMARISED_NOTE('2026-11-20') } },
      { minSessions: 3 },
    )
    const decision = await checkGates('auto', w)
    expect(decision.outcome).toBe('triggered')
    expect(decision.reason).toMatch(
      /0 session tree\(s\) \(threshold 3\), but 1 daily note\(s\) still need a summary/,
    )
  })

  it.each<[string, Partial<{ off: boolean; lock: boolean; events: number; sweptHoursAgo: number }>, string]>([
    ['sweeps off', { off: true, lock: true, events: 5 }, 'disabled'],
    ['a live lock', { lock: true, events: 5 }, 'lock'],
    ['no recall yet', {}, 'signal'],
    ['recall since the start', { events: 2 }, 'triggered'],
    ['no recall since the last deep sweep', { events: 2, sweptHoursAgo: 0.5 }, 'signal'],
  ])('a deep sweep: %s → %s', async (_name, given, outcome) => {
    const w = world({ liveLock: given.lock })
    if (given.off) w.settings.setDreamingMode('off', w.clock.now())
    recall(w, given.events ?? 0, 1)
    if (given.sweptHoursAgo !== undefined) {
      w.clock.set(recent(given.sweptHoursAgo))
      w.runs.close(w.runs.open({ mode: 'deep', chatJid: 'main', days: 1 }).id, { status: 'succeeded' })
      w.clock.set(NOW)
    }
    expect((await checkGates('deep', w)).outcome).toBe(outcome)
  })

  it('a deep sweep never counts as the last consolidation', async () => {
    const w = world({ lastSuccessHoursAgo: 30, messagesAfterSuccess: twoTrees })
    w.clock.set(recent(0.1))
    w.runs.close(w.runs.open({ mode: 'deep', chatJid: 'main', days: 1 }).id, { status: 'succeeded' })
    w.clock.set(NOW)
    expect(w.runs.lastSucceeded()?.mode).toBe('auto')
    expect((await checkGates('auto', w)).outcome).toBe('triggered')
  })
})
