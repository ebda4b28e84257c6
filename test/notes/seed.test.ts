import { readFileSync, statSync, utimesSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ConfigFile } from '../../src/config/schema.js'
import type { NewBranch } from '../../src/db/messages.js'
import { dayStateOf, parseDailyNote, renderDailyNote, withSummary } from '../../src/notes/daily-note.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import { seedDailyNotes } from '../../src/notes/seed.js'
import { dayWindow } from '../../src/time/local-day.js'
import { makeMessagesDb, makeWorkspace, type MessageSpec } from '../helpers/workspace.js'

const NOW = '2026-11-21T23:00:00Z'

function world(
  messages: MessageSpec[],
  options: { flags?: ConfigFile; branches?: NewBranch[]; files?: Record<string, string> } = {},
) {
  const ws = makeWorkspace(options.files ?? {}, options.flags ?? {})
  const db = makeMessagesDb(ws.paths, messages, options.branches ?? [])
  const seed = (days = 3, now = NOW) =>
    seedDailyNotes({
      paths: ws.paths,
      config: ws.config,
      messages: db,
      window: dayWindow(new Date(now), days, ws.config.timezone),
    })
  const read = (day: string) => readFileSync(dailyNotePath(ws.paths, day), 'utf8')
  return { ws, db, seed, read }
}

/** `count` messages in `chatJid`, one minute apart from `startIso`, alternating user and assistant. */
function chat(
  chatJid: string,
  startIso: string,
  count: number,
  content = (i: number) => `message ${i} about trips`,
): MessageSpec[] {
  const start = Date.parse(startIso)
  return Array.from({ length: count }, (_, i) => ({
    chatJid,
    content: content(i),
    timestamp: new Date(start + i * 60_000).toISOString(),
    isBotMessage: i % 2 === 1,
  }))
}

function cuesOf(text: string): string {
  const start = text.indexOf('<!-- DREAM_CUES\n')
  return text.slice(start + '<!-- DREAM_CUES\n'.length, text.indexOf('-->', start))
}

describe('seedDailyNotes', () => {
  it('creates a note for a day with messages: front matter, warning, whole-slice cues, placeholder', async () => {
    const { seed, read, ws } = world(chat('team@g', '2026-11-21T08:02:11Z', 5))
    const result = await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    expect(result.days).toEqual([
      { day: '2026-11-21', path, state: 'unsummarised', messages: 5, bytes: 5 * 21, outcome: 'created' },
    ])
    expect(result.changed).toEqual([path])
    expect(result.problems).toEqual([])
    expect(existsSync(dailyNotePath(ws.paths, '2026-11-20'))).toBe(false)
    const text = read('2026-11-21')
    expect(text).toMatch(
      /^---\ndate: '2026-11-21'\nsummarised_until: null\nmessages_total: 5\nmessages_user: 3\n/,
    )
    expect(text).toContain(
      "first_message: '2026-11-21T08:02:11.000Z'\nlast_message: '2026-11-21T08:06:11.000Z'\n",
    )
    expect(text).toContain('# Saturday, November 21, 2026\n\n← [[2026-11-20]] | [[2026-11-22]] →\n\n---\n\n')
    expect(text).toContain(
      '> ⚠ **Incomplete daily note** — seeded from 5 messages; a dream has not summarised it yet.',
    )
    const cues = cuesOf(text)
    expect(cues).toContain('slice: 2026-11-21T08:02:11.000Z .. 2026-11-21T08:06:11.000Z\n')
    expect(cues).toContain('messages: 5 by Alex 3, Assistant 2 · session_trees: 1 · session_chats: 1\n')
    expect(cues).toContain('bounded_full_slice: yes\n')
    expect(cues).toContain('message_snippets: all 5 shown\n')
    expect(cues).toContain('cue_terms: message, trips\n')
    expect(cues).toContain('- 2026-11-21T08:03:11.000Z Assistant (bot) [team@g]: message 1 about trips\n')
    expect(cues).not.toContain('session_tree_index')
    expect(text.endsWith('## Summary\n\n<!-- NEEDS_SUMMARY -->\n')).toBe(true)
    expect(renderDailyNote(parseDailyNote(text, path))).toBe(text)
  })

  it('groups messages by local day in the configured time zone', async () => {
    const messages = [{ chatJid: 'a@g', content: 'late night', timestamp: '2026-11-21T05:30:00Z' }]
    const utc = world(messages)
    const la = world(messages, { flags: { timezone: 'America/Los_Angeles' } })
    expect((await utc.seed()).days.map((day) => day.day)).toEqual(['2026-11-21'])
    expect((await la.seed()).days.map((day) => day.day)).toEqual(['2026-11-20'])
    expect(la.read('2026-11-20')).toContain("scope_anchor: '2026-11-20 America/Los_Angeles'")
  })

  it('switches to per-tree cues with a session_tree_index for a day of three trees', async () => {
    const branches = [{ branchId: 'b1', chatJid: 'a-branch@g', rootChatJid: 'a@g' }]
    const messages = [
      ...chat('a@g', '2026-11-21T08:00:00Z', 3),
      ...chat('a-branch@g', '2026-11-21T09:00:00Z', 2),
      ...chat('b@g', '2026-11-21T10:00:00Z', 12),
      ...chat('c@g', '2026-11-21T11:00:00Z', 1),
    ]
    const { seed, read } = world(messages, { branches })
    await seed()
    const text = read('2026-11-21')
    expect(text).toContain('session_trees: 3\nsession_chats: 4\n')
    const cues = cuesOf(text)
    expect(cues).toContain('bounded_full_slice: no\n')
    expect(cues).toContain(
      'session_tree_index:\n' +
        '- a@g [a@g]: 5 messages, 2026-11-21T08:00:00.000Z .. 2026-11-21T09:01:00.000Z\n' +
        '- b@g [b@g]: 12 messages, 2026-11-21T10:00:00.000Z .. 2026-11-21T10:11:00.000Z\n' +
        '- c@g [c@g]: 1 messages, 2026-11-21T11:00:00.000Z .. 2026-11-21T11:00:00.000Z\n',
    )
    // b@g (12 > smallTreeMaxMessages) shows its first 5 and last 5; the small trees show everything.
    expect(cues).toContain('snippet_budget: 16/120, breached no\n')
    expect(cues).toContain('[b@g]: message 4 about trips\n  … 2 more messages in this tree …\n')
    expect(cues).not.toContain('[b@g]: message 5 ')
    expect(cues).not.toContain('[b@g]: message 6 ')
    expect(cues).toContain('[b@g]: message 7 ')
  })

  it('leaves the whole slice for 50 messages in one tree and switches at 51', async () => {
    const fifty = world(chat('a@g', '2026-11-21T08:00:00Z', 50))
    await fifty.seed()
    expect(cuesOf(fifty.read('2026-11-21'))).toContain('bounded_full_slice: yes')
    expect(cuesOf(fifty.read('2026-11-21')).match(/^- 2026/gm)).toHaveLength(50)
    const more = world(chat('a@g', '2026-11-21T08:00:00Z', 51))
    await more.seed()
    const cues = cuesOf(more.read('2026-11-21'))
    expect(cues).toContain('bounded_full_slice: no')
    expect(cues).toContain('  … 41 more messages in this tree …')
  })

  it('falls back to 2 + 2 per tree above the snippet budget and flags the breach', async () => {
    const messages = ['a@g', 'b@g', 'c@g'].flatMap((jid, t) => chat(jid, `2026-11-21T0${t + 1}:00:00Z`, 20))
    const { seed, read } = world(messages, { flags: { seeding: { snippetBudget: 12 } } })
    await seed()
    const cues = cuesOf(read('2026-11-21'))
    expect(cues).toContain('snippet_budget: 12/12, breached yes\n')
    for (const jid of ['a@g', 'b@g', 'c@g']) {
      const lines = cues
        .split('\n')
        .filter((line) => line.startsWith('- 2026') && line.includes(`[${jid}]: `))
        .map((line) => line.replace(/.*: /, ''))
      expect(lines).toEqual([
        'message 0 about trips',
        'message 1 about trips',
        'message 18 about trips',
        'message 19 about trips',
      ])
    }
    const tight = world(messages, { flags: { seeding: { snippetBudget: 10 } } })
    await tight.seed()
    expect(cuesOf(tight.read('2026-11-21'))).toContain('snippet_budget: 10/10, breached yes, omitted 2\n')
  })

  it('escapes -- and --> in content, sender and chat names so nothing can close the comment', async () => {
    const messages = [
      {
        chatJid: 'x-->y@g',
        content: 'a --> b -- c ---- d <!-- e',
        senderName: 'Al--ex -->',
        timestamp: '2026-11-21T08:00:00Z',
      },
      { chatJid: 'x-->y@g', content: 'ends with -', timestamp: '2026-11-21T08:01:00Z' },
    ]
    const { seed, read } = world(messages)
    await seed()
    const text = read('2026-11-21')
    const cues = cuesOf(text)
    expect(cues).not.toContain('--')
    expect(cues.endsWith('\nDREAM_CUES ')).toBe(true)
    expect(cues).toContain(
      'Al\u2010-ex \u2010-> [x\u2010->y@g]: a \u2010-> b \u2010- c \u2010\u2010\u2010- d <!\u2010- e\n',
    )
    expect(parseDailyNote(text, 'x').sections).toEqual([{ updateTime: null, text: '', isPending: true }])
  })

  it('reads non-UTF-8 message content stored as a BLOB', async () => {
    const { seed, read, db } = world([])
    db.upsertChat('a@g', 'Alpha')
    db.db
      .prepare('INSERT INTO messages (id, chat_jid, sender, content, timestamp) VALUES (?, ?, ?, ?, ?)')
      .run(
        'raw1',
        'a@g',
        'u',
        Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x20, 0x2d, 0x2d, 0x3e, 0x20, 0xc3]),
        '2026-11-21T08:00:00.000Z',
      )
    const result = await seed()
    expect(result.days[0]?.messages).toBe(1)
    const cues = cuesOf(read('2026-11-21'))
    expect(cues).toContain('u [Alpha]: hi\uFFFD\uFFFD \u2010-> \uFFFD\nDREAM_CUES ')
  })

  it('adds one Summary update section for messages after summarised_until, at their local time', async () => {
    const { seed, read, db, ws } = world(chat('a@g', '2026-11-21T16:00:00Z', 4), {
      flags: { timezone: 'America/Los_Angeles' },
    })
    await seed(3, '2026-11-22T06:00:00Z')
    const path = dailyNotePath(ws.paths, '2026-11-21')
    const summarised = withSummary(
      parseDailyNote(read('2026-11-21'), path),
      'Talked trips.',
      '2026-11-21T16:03:00.000Z',
    )
    writeFileSync(path, renderDailyNote(summarised))
    expect(dayStateOf(summarised)).toBe('complete')
    db.insertMessages([
      { id: 'late1', chatJid: 'a@g', content: 'one more -- thing', timestamp: '2026-11-21T20:15:00.000Z' },
      {
        id: 'late2',
        chatJid: 'a@g',
        content: 'and another',
        timestamp: '2026-11-21T20:20:00.000Z',
        isBotMessage: true,
      },
    ])
    const first = await seed(3, '2026-11-22T06:00:00Z')
    expect(first.days[0]).toMatchObject({ state: 'partial', outcome: 'updated', messages: 6 })
    const text = read('2026-11-21')
    expect(text).toContain(
      '## Summary\n\nTalked trips.\n\n## Summary update (12:15)\n\n<!-- NEEDS_SUMMARY_UPDATE -->\n',
    )
    expect(text).toContain('— 2 of 6 messages (from 12:15) are not summarised yet.')
    const cues = cuesOf(text)
    expect(cues).toContain(
      'slice: 2026-11-21T20:15:00.000Z .. 2026-11-21T20:20:00.000Z\nmessages: 2 by unknown 2',
    )
    expect(cues).not.toContain('T16:0')
    const again = await seed(3, '2026-11-22T06:00:00Z')
    expect(again.days[0]?.outcome).toBe('unchanged')
    expect(read('2026-11-21').match(/## Summary update/g)).toHaveLength(1)
  })

  it('keeps summary text byte for byte when re-seeding with new messages', async () => {
    const { seed, read, db, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 3))
    await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    const summary =
      'Odd   spacing\t and tabs.  \n\n### Notes\n\n```\ncode -- block\n```\n- ünïcode ✓ [[2026-11-20]]'
    writeFileSync(
      path,
      read('2026-11-21')
        .replace('<!-- NEEDS_SUMMARY -->', summary)
        .replace('summarised_until: null', "summarised_until: '2026-11-21T08:02:00.000Z'"),
    )
    db.insertMessages([{ id: 'n1', chatJid: 'a@g', content: 'later', timestamp: '2026-11-21T15:00:00.000Z' }])
    await seed()
    const text = read('2026-11-21')
    expect(text).toContain(`## Summary\n\n${summary}\n\n## Summary update (15:00)\n`)
    expect(text).toContain('messages_total: 4\n')
  })

  it('turns a complete note into a partial one when newer messages arrive', async () => {
    const { seed, read, db, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 2))
    await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    writeFileSync(
      path,
      renderDailyNote(withSummary(parseDailyNote(read('2026-11-21'), path), 'Done.', '2026-11-21T08:01:00Z')),
    )
    const complete = await seed()
    expect(complete.days[0]).toMatchObject({ state: 'complete', outcome: 'unchanged' })
    expect(read('2026-11-21')).not.toContain('DREAM_CUES')
    db.insertMessages([{ id: 'n1', chatJid: 'a@g', content: 'new', timestamp: '2026-11-21T09:00:00.000Z' }])
    const partial = await seed()
    expect(partial.days[0]).toMatchObject({ state: 'partial', outcome: 'updated' })
    expect(read('2026-11-21')).toContain('Incomplete daily note')
    expect(read('2026-11-21')).toContain('<!-- DREAM_CUES')
  })

  it('detects a missing watermark and cues the whole day', async () => {
    const { seed, read, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 3))
    await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    writeFileSync(path, read('2026-11-21').replace('<!-- NEEDS_SUMMARY -->', 'Someone wrote this.'))
    const result = await seed()
    expect(result.days[0]).toMatchObject({ state: 'missing_watermark', outcome: 'updated' })
    const text = read('2026-11-21')
    expect(text).toContain('the summary has no summarised_until')
    expect(cuesOf(text)).toContain('messages: 3 ')
    expect(text.endsWith('## Summary\n\nSomeone wrote this.\n')).toBe(true)
  })

  it('does not rewrite an unchanged note', async () => {
    const { seed, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 3))
    await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    utimesSync(path, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'))
    const before = readFileSync(path)
    const result = await seed()
    expect(result.days[0]).toMatchObject({ outcome: 'unchanged', state: 'unsummarised' })
    expect(result.changed).toEqual([])
    expect(statSync(path).mtime.toISOString()).toBe('2020-01-01T00:00:00.000Z')
    expect(readFileSync(path).equals(before)).toBe(true)
  })

  it.each([
    ['bad YAML', (text: string) => text.replace("date: '2026-11-21'", "date: '2026-11-21"), /date/],
    ['a missing key', (text: string) => text.replace(/messages_user: \d+\n/, ''), /missing "messages_user"/],
    [
      'the wrong date',
      (text: string) => text.replace("date: '2026-11-21'", "date: '2026-11-20'"),
      /'2026-11-20' is not 2026-11-21/,
    ],
    ['no front matter', (text: string) => text.slice(text.indexOf('# Saturday')), /does not start/],
  ])('reports a note with %s and leaves it untouched', async (_name, breakIt, reason) => {
    const { seed, read, db, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 2))
    await seed()
    const path = dailyNotePath(ws.paths, '2026-11-21')
    const broken = breakIt(read('2026-11-21').replace('<!-- NEEDS_SUMMARY -->', 'Precious text.'))
    writeFileSync(path, broken)
    db.insertMessages([{ id: 'n1', chatJid: 'a@g', content: 'new', timestamp: '2026-11-21T09:00:00.000Z' }])
    const result = await seed()
    expect(result.problems).toHaveLength(1)
    expect(result.problems[0]?.path).toBe(path)
    expect(result.problems[0]?.reason).toMatch(reason)
    expect(result.days[0]).toMatchObject({ outcome: 'skipped', messages: 3 })
    expect(result.changed).toEqual([])
    expect(read('2026-11-21')).toBe(broken)
  })

  it('reports a note that is not valid UTF-8 and leaves its bytes alone', async () => {
    const { seed, ws } = world(chat('a@g', '2026-11-21T08:00:00Z', 1))
    const path = dailyNotePath(ws.paths, '2026-11-21')
    const bytes = Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a])
    mkdirSync(ws.paths.daily, { recursive: true })
    writeFileSync(path, bytes)
    const result = await seed()
    expect(result.problems[0]?.reason).toMatch(/UTF-8/)
    expect(readFileSync(path).equals(bytes)).toBe(true)
  })

  it('counts only the window, skips dream channels and reports progress per day', async () => {
    const messages = [
      ...chat('a@g', '2026-11-17T08:00:00Z', 2),
      ...chat('a@g', '2026-11-19T08:00:00Z', 2),
      ...chat('dream:manual:a@g:1', '2026-11-19T09:00:00Z', 3),
      ...chat('a@g', '2026-11-21T08:00:00Z', 1),
    ]
    const { ws, db } = world(messages)
    const progress: string[] = []
    const result = await seedDailyNotes({
      paths: ws.paths,
      config: ws.config,
      messages: db,
      window: dayWindow(new Date(NOW), 3, 'UTC'),
      onProgress: (day, index, total) => progress.push(`${day} ${index}/${total}`),
    })
    expect(result.days.map((day) => [day.day, day.messages])).toEqual([
      ['2026-11-19', 2],
      ['2026-11-21', 1],
    ])
    expect(progress).toEqual(['2026-11-19 1/2', '2026-11-21 2/2'])
  })

  it('leaves a note alone when someone saves it while seeding is under way', async () => {
    const messages = [...chat('a@g', '2026-11-20T08:00:00Z', 2), ...chat('a@g', '2026-11-21T08:00:00Z', 2)]
    const { ws, db, read } = world(messages)
    const window = dayWindow(new Date(NOW), 3, 'UTC')
    await seedDailyNotes({ paths: ws.paths, config: ws.config, messages: db, window })
    db.insertMessages([{ id: 'n1', chatJid: 'a@g', content: 'new', timestamp: '2026-11-21T09:00:00.000Z' }])
    const edited = read('2026-11-21').replace('<!-- NEEDS_SUMMARY -->', 'Typed by hand just now.')
    // Saved after seeding read the notes, while it reads the window (on this thread): before any note is written.
    let isSaved = false
    const reader = Object.create(db, {
      iterateWindow: {
        value: function* (start: Date, end: Date) {
          for (const row of db.iterateWindow(start, end)) {
            if (!isSaved) writeFileSync(dailyNotePath(ws.paths, '2026-11-21'), edited)
            isSaved = true
            yield row
          }
        },
      },
    }) as typeof db
    const input = { paths: ws.paths, config: ws.config, messages: reader, window, threads: 0 }
    const result = await seedDailyNotes(input)
    expect(result.days.map((day) => day.outcome)).toEqual(['unchanged', 'skipped'])
    expect(result.problems[0]?.reason).toMatch(/changed while seeding/)
    expect(read('2026-11-21')).toBe(edited)
  })

  it('lets timers run while it reads a long window, not only between its file reads and writes', async () => {
    const messages = [0, 1, 2, 3].flatMap((c) =>
      chat(`chat${c}@g`, '2026-11-19T00:00:00Z', 1500, (i) => `plan ${i} for the garden and the ferry trip`),
    )
    const { ws, db } = world(messages)
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    // What the seeding loop sees: the tick count when each message reaches it.
    const seenAt: number[] = []
    const reader = Object.create(db, {
      iterateWindow: {
        value: function* (start: Date, end: Date) {
          for (const row of db.iterateWindow(start, end)) {
            seenAt.push(ticks)
            yield row
          }
        },
      },
    }) as typeof db
    try {
      const window = dayWindow(new Date(NOW), 3, 'UTC')
      // On the calling thread (the default below 20,000 messages): a thread would read through its own connection.
      const input = { paths: ws.paths, config: ws.config, messages: reader, window, threads: 0 }
      const result = await seedDailyNotes(input)
      expect(result.days.reduce((sum, day) => sum + day.messages, 0)).toBe(messages.length)
    } finally {
      clearInterval(timer)
    }
    // 6,000 messages take well over one 10 ms slice anywhere, so timers fired between the first and last.
    expect(seenAt).toHaveLength(messages.length)
    expect(seenAt.at(-1)).toBeGreaterThan(seenAt[0] ?? 0)
  })
})
