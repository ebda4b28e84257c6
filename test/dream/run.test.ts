import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { makeDreamWorld, NOW, writeForeignLock } from '../helpers/dream-world.js'
import type { PostedSummary } from '../../src/dream/types.js'

const USER_MD = '# User\n\n- Lives in Porto (since 2026-10). [[2026-11-20]]\n- Favourite word: zanzibarite\n'
const DAY_PAGE = '# 2026-11-21\n\nDecided Postgres for Atlas.\n'

function dailyNoteFor(world: { paths: { daily: string } }, day: string): string {
  return readFileSync(join(world.paths.daily, `${day}.md`), 'utf8')
}

describe('a dream, end to end', () => {
  it('keeps the model edits byte-for-byte (keys added), cleans the channel, posts the summary and indexes new text', async () => {
    const world = await makeDreamWorld()
    // The model rewrites only MEMORY.md's index block; the template's lines around it stay.
    const memoryIndex = readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8').replace(
      '<!-- dreamlane:begin index -->\n',
      '<!-- dreamlane:begin index -->\n- [User](user.md)\n- 2026-11-21: [days/2026-11-21.md](days/2026-11-21.md)\n',
    )
    const provider = createScriptedProvider(
      [
        { tool: 'read_file', input: { path: 'notes/memory/MEMORY.md' } },
        { tool: 'write_file', input: { path: 'notes/memory/user.md', content: USER_MD } },
        { tool: 'write_file', input: { path: 'notes/memory/days/2026-11-21.md', content: DAY_PAGE } },
        { tool: 'write_file', input: { path: 'notes/memory/MEMORY.md', content: memoryIndex } },
        { tool: 'write_file', input: { path: '.dreamlane/config.json', content: '{}' } },
        { text: 'Summarised nothing, updated user.md.' },
      ],
      { usagePerStep: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 5 } },
    )
    const channelsSeen: string[] = []
    const dreamlane = world.open({
      provider,
      onEvent: (event) => {
        if (event.type === 'tool') channelsSeen.push(...dreamlane.messages.listDreamChannels())
      },
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })

    // The model's words survive the passes exactly; its fact bullets only gained key comments (MEMORY.md
    // already linked the day page).
    expect(readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).toBe(
      '# User\n\n' +
        '- Lives in Porto (since 2026-10). [[2026-11-20]] <!-- key: user.lives-in-porto-since-2026-10; seen: 2026-11-20..2026-11-20 x1 -->\n' +
        '- Favourite word: zanzibarite <!-- key: user.favourite-word; value: zanzibarite -->\n',
    )
    expect(readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')).toBe(memoryIndex)
    expect(readFileSync(join(world.paths.days, '2026-11-21.md'), 'utf8')).toBe(DAY_PAGE)
    // The channel existed during the turn and is gone now.
    expect(channelsSeen[0]).toMatch(/^dream:manual:web:main:\d+$/)
    expect(dreamlane.messages.listDreamChannels()).toEqual([])
    // Summary posted to the originating chat as a bot message.
    const posted = dreamlane.messages
      .listChatMessages('web:main')
      .filter((m) => m.isBotMessage && m.sender === 'dreamlane')
    expect(posted).toHaveLength(1)
    expect(posted[0]?.content).toContain(run.id)
    // The search index finds what the dream wrote.
    const { searchIndex } = await import('../../src/fts/search.js')
    const hits = await searchIndex({
      state: dreamlane.state,
      paths: world.paths,
      config: world.config,
      query: 'zanzibarite',
    })
    expect(hits.map((h) => h.path)).toContain('notes/memory/user.md')
    // The record has timings, tool calls (including the refused one) and usage.
    expect(run.steps.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'lock',
        'backup',
        'secrets',
        'seed',
        'channel',
        'model',
        'index',
        'fts',
        'cleanup',
      ]),
    )
    expect(run.steps.every((s) => s.durationMs >= 0 && s.startedAt)).toBe(true)
    expect(run.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ['read_file', true],
      ['write_file', true],
      ['write_file', true],
      ['write_file', true],
      ['write_file', false],
    ])
    expect(run.usage).toEqual({
      inputTokens: 600,
      outputTokens: 60,
      cacheReadTokens: 300,
      cacheWriteTokens: 30,
      requests: 6,
    })
    // It wrote, so it did work (the "no writes while the backlog is not empty" rule only catches idle turns).
    expect(run.status).toBe('succeeded')
    expect(existsSync(world.paths.lockFile)).toBe(false)
    // It summarised no daily note: the runtime names the days it left, in the record and the summary.
    expect(run.unresolvedDays).toEqual([
      { day: '2026-11-20', state: 'unsummarised' },
      { day: '2026-11-21', state: 'unsummarised' },
    ])
    expect(posted[0]?.content).toContain(
      'Still unresolved: 2026-11-20 (unsummarised), 2026-11-21 (unsummarised).',
    )
    await dreamlane.close()
  })

  it('succeeds with the offline engine and summarises the seeded days', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.provider).toBe('offline')
    expect(dailyNoteFor(world, '2026-11-21')).not.toContain('NEEDS_SUMMARY')
    expect(run.backupId).toMatch(/manual/)
    expect(run.unresolvedDays).toEqual([])
    expect(run.summary).not.toContain('Still unresolved')
    await dreamlane.close()
  })

  it('consolidates a year-long window with only a few days of messages (the budget is per note, not per day)', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 365 })
    expect(run.status).toBe('succeeded')
    expect(run.summary).not.toMatch(/more than the tool-call budget/)
    expect(dailyNoteFor(world, '2026-11-20')).not.toContain('NEEDS_SUMMARY')
    expect(readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).toContain('Porto')
    await dreamlane.close()
  })

  it('coalesces two triggers into one run', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    const first = dreamlane.trigger({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const second = dreamlane.trigger({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(second.coalesced).toBe(true)
    expect(second.run.id).toBe(first.run.id)
    const [a, b] = await Promise.all([first.done, second.done])
    expect(a.id).toBe(b.id)
    expect(dreamlane.runs.list()).toHaveLength(1)
    expect(dreamlane.runs.get(a.id).coalesced).toBe(1)
    await dreamlane.close()
  })

  it('skips with the lock reason when another live process holds the lock', async () => {
    const world = await makeDreamWorld()
    writeForeignLock(world.paths.lockFile, process.pid, NOW)
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run).toMatchObject({ status: 'skipped', gate: 'lock' })
    expect(run.reason).toMatch(/already running: run run-other \(pid \d+/)
    expect(existsSync(world.paths.lockFile)).toBe(true)
    await dreamlane.close()
  })

  it('a skipped manual run posts nothing to its chat; the host hook still hears of it', async () => {
    const world = await makeDreamWorld()
    writeForeignLock(world.paths.lockFile, process.pid, NOW)
    const summaries: PostedSummary[] = []
    const dreamlane = world.open({ onSummary: (summary) => void summaries.push(summary) })
    const before = dreamlane.messages.listChatMessages('web:main')
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('skipped')
    expect(dreamlane.messages.listChatMessages('web:main')).toEqual(before)
    expect(summaries).toMatchObject([{ runId: run.id, status: 'skipped', message: null }])
    await dreamlane.close()
  })

  it('a manual run hands the host the summary message it stored, exactly as stored', async () => {
    const world = await makeDreamWorld()
    const summaries: PostedSummary[] = []
    const dreamlane = world.open({ onSummary: (summary) => void summaries.push(summary) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const stored = dreamlane.messages.listChatMessages('web:main').filter((m) => m.sender === 'dreamlane')
    expect(stored).toHaveLength(1)
    const [row] = stored
    expect(summaries.map((s) => s.message)).toEqual([
      {
        id: row?.id,
        chatJid: 'web:main',
        sender: 'dreamlane',
        senderName: row?.senderName,
        content: row?.content,
        timestamp: row?.timestamp,
      },
    ])
    expect(row?.content).toContain(run.id)
    await dreamlane.close()
  })

  it('reaps a stale lock (dead pid) and runs', async () => {
    const world = await makeDreamWorld()
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    )
    writeForeignLock(world.paths.lockFile, dead, NOW)
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.steps.find((s) => s.name === 'lock')?.detail).toMatch(/reaped stale lock of run-other/)
    expect(existsSync(world.paths.lockFile)).toBe(false)
    await dreamlane.close()
  })

  it('falls back when the turn ends without writing while notes need summaries', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open({
      provider: createScriptedProvider([{ tool: 'list_files', input: {} }, { text: 'All good!' }]),
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(/without writing while 2 daily note\(s\) still need a summary/)
    expect(dailyNoteFor(world, '2026-11-20')).not.toContain('NEEDS_SUMMARY')
    await dreamlane.close()
  })

  it('falls back to the offline engine when the provider throws: degraded, notes refreshed, lock removed', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open({ provider: createScriptedProvider([{ fail: 'API exploded (529)' }]) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(/API exploded/)
    expect(run.steps.find((s) => s.name === 'fallback')?.ok).toBe(true)
    expect(dailyNoteFor(world, '2026-11-21')).not.toContain('NEEDS_SUMMARY')
    expect(existsSync(world.paths.lockFile)).toBe(false)
    expect(dreamlane.runs.lastSucceeded()).toBeNull()
    await dreamlane.close()
  })

  it('recovers after a crash: running run → lost, leftover channel removed, stale lock reaped', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    const run = dreamlane.runs.open({ mode: 'manual', chatJid: 'web:main', days: 2 })
    dreamlane.runs.markRunning(run.id)
    dreamlane.messages.upsertChat('dream:manual:web:main:1', 'leftover')
    dreamlane.messages.insertMessages([
      { id: 'x', chatJid: 'dream:manual:web:main:1', content: 'half a turn', timestamp: NOW },
    ])
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    )
    writeForeignLock(world.paths.lockFile, dead, NOW, run.id)
    const report = await dreamlane.recover()
    expect(report).toEqual({
      reapedLock: run.id,
      lostRuns: [run.id],
      removedChannels: ['dream:manual:web:main:1'],
      removedTemps: [],
    })
    expect(dreamlane.runs.get(run.id).status).toBe('lost')
    await dreamlane.close()
  })

  it('answers /dream in chat and runs in the background', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    expect(await dreamlane.handleChatInput('web:main', '/dream 2')).toBe(
      'Dream queued in the background for the last 2 day(s).',
    )
    expect(await dreamlane.handleChatInput('web:main', '/dream nope')).toMatch(/^Usage: \/dream \[days\]/)
    expect(await dreamlane.handleChatInput('web:main', 'just chatting')).toBeNull()
    await dreamlane.close()
    const reopened = world.open()
    expect(reopened.runs.latest()?.status).toBe('succeeded')
    expect(await reopened.handleChatInput('web:main', '/dream status')).toMatch(
      /Latest dream: run-.* succeeded/,
    )
    await reopened.close()
  })
})
