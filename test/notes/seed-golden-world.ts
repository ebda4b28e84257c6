// Two deterministic seeding worlds whose notes were recorded from the seeding code as it was before seeding moved
// off the main thread (test/fixtures/seed-golden/): every way a seeded note can come out must stay byte-identical.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import Database from 'better-sqlite3'
import type { MessagesDb } from '../../src/db/messages.js'
import { openMessagesDb } from '../../src/db/messages.js'
import { parseDailyNote, renderDailyNote, withSummary } from '../../src/notes/daily-note.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import type { SeedInput, SeedResult } from '../../src/notes/seed.js'
import { dayWindow } from '../../src/time/local-day.js'
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'
import { mulberry32 } from '../../src/sample/prng.js'

export type Seed = (input: SeedInput) => Promise<SeedResult>

/** What one world leaves behind: every daily note (text, or its sha256 for big worlds) and each seed's result. */
export interface GoldenOutcome {
  notes: Record<string, string>
  results: unknown[]
}

type Row = [
  id: string,
  chat: string,
  sender: string | null,
  content: unknown,
  timestamp: unknown,
  isBot?: number,
]

/** A messages DB as PiClaw makes it: its schema with content_blocks, no dreamlane id, no timestamp index. */
function hostDb(file: string): Database.Database {
  const db = new Database(file)
  db.exec(`
    CREATE TABLE chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT);
    CREATE TABLE chat_branches (branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE,
      root_chat_jid TEXT NOT NULL, parent_branch_id TEXT, created_at TEXT);
    CREATE TABLE messages (id TEXT NOT NULL, chat_jid TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT,
      timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0, content_blocks TEXT,
      PRIMARY KEY (id, chat_jid));
    CREATE INDEX idx_messages_chat_time ON messages (chat_jid, timestamp);`)
  return db
}

function insertRows(db: Database.Database, rows: readonly Row[], blocks: Record<string, string> = {}): void {
  const insert = db.prepare(`INSERT INTO messages (id, chat_jid, sender, sender_name, content, timestamp,
    is_from_me, is_bot_message, content_blocks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  db.transaction(() => {
    for (const [id, chat, sender, content, timestamp, isBot = 0] of rows)
      insert.run(
        id,
        chat,
        sender,
        sender ? `${sender} Name` : null,
        content,
        timestamp,
        1 - isBot,
        isBot,
        blocks[id] ?? null,
      )
  })()
}

const WORDS = (
  'trip budget flight hotel invoice garden recipe deadline launch review draft meeting dentist birthday concert ' +
  'marathon python release migration backup router museum passport visa ferry coffee Café naïve İstanbul ' +
  "Zürich straße 東京 mañana résumé co-op rock'n'roll Alex's Mia’s it's e-mail x2 2fa v1.2 -- --> <!-- ok yes"
).split(' ')

function sentence(next: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')
}

const at = (iso: string, minutes: number): string =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString()

/** Edge cases on a host's DB in America/New_York over the end of DST (a 25-hour day), seeded twice. */
export async function edgeWorld(seed: Seed): Promise<{ ws: TestWorkspace; outcome: GoldenOutcome }> {
  const ws = makeWorkspace({}, { timezone: 'America/New_York' })
  const db = hostDb(ws.paths.messagesDb)
  db.exec(`INSERT INTO chats VALUES ('team@g', 'Team -- core', NULL), ('team-b1@g', 'Branch one', NULL),
    ('nameless@g', NULL, NULL), ('${'long'.repeat(30)}@g', '${'Very long chat name '.repeat(8)}', NULL);
    INSERT INTO chat_branches VALUES ('b1', 'team-b1@g', 'team@g', NULL, NULL),
      ('b2', 'team-b2@g', 'team@g', 'b1', NULL)`)
  const next = mulberry32(11)
  const rows: Row[] = []
  // 2026-10-26: one tree, whole slice, with every kind of awkward content.
  const d26 = '2026-10-26T14:00:00.000Z'
  rows.push(
    ['a1', 'team@g', 'u1', 'Plan -- the trip --> then <!-- more', at(d26, 0)],
    ['a2', 'team@g', 'bot', `line one\nline\ttwo\u0000\u0007 three  ${'long '.repeat(400)}`, at(d26, 1), 1],
    ['a3', 'team@g', 'u1', Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x20, 0x74, 0x72, 0x69, 0x70]), at(d26, 2)],
    ['a4', 'team@g', 'u1', '', at(d26, 3)],
    ['a5', 'team@g', 'u1', ' \n\u00a0\u2028 ', at(d26, 4)],
    ['a6', 'team@g', 'u1', 42, at(d26, 5)],
    ['a7', 'team@g', null, 'no sender at all 🙂 emoji 🙂🙂', at(d26, 6)],
    [
      'a8',
      'team@g',
      'u1',
      "Café İstanbul Zürich straße 東京 naïve Mia’s Alex's rock'n'roll",
      '2026-10-26T15:00:00Z',
    ],
    ['a9', 'team@g', 'u1', 'offset timestamp', '2026-10-26T11:30:00.000-04:00'],
    ['a10', 'team@g', 'dreamlane', 'a dreamlane summary: never seeded', at(d26, 8)],
    ['a11', 'dream:manual:team@g:1', 'u1', 'inside a dream channel', at(d26, 9)],
  )
  const blocks = {
    a4: JSON.stringify([{ type: 'text', text: 'from the blocks' }, { type: 'image' }, { text: 'second' }]),
    a5: '{"text":"one block"}',
    a6: '[{"text":"ignored: content is a number"}]',
  }
  // 2026-10-27: three trees (no whole slice), a big tree with head and tail, a branch speaking before its root.
  const d27 = '2026-10-27T12:00:00.000Z'
  rows.push(['b0', 'team-b1@g', 'u2', 'branch first', at(d27, 0)])
  for (let i = 1; i <= 30; i++)
    rows.push([`b${i}`, 'team@g', i % 2 ? 'u1' : 'bot', sentence(next, 3 + i), at(d27, i), i % 2 ? 0 : 1])
  rows.push(
    ['c1', 'nameless@g', 'u3', 'nameless chat', at(d27, 2)],
    ['c2', 'solo@s', 'u4', 'no chats row', at(d27, 2)],
  )
  // 2026-11-01 (25 hours): 45 trees, ties on timestamp across chats and within a chat; the snippet budget breaks.
  const d01 = '2026-11-01T04:30:00.000Z'
  for (let tree = 0; tree < 45; tree++) {
    const chat = tree === 0 ? `${'long'.repeat(30)}@g` : `group${String(tree).padStart(2, '0')}@g`
    for (let i = 0; i < 7; i++)
      rows.push([
        `t${tree}-${i}`,
        chat,
        i % 3 ? 'u5' : 'bot',
        sentence(next, 6),
        at(d01, i * 60),
        i % 3 ? 0 : 1,
      ])
    rows.push([`t${tree}-z`, chat, 'u5', 'same instant as the others', at(d01, 600)])
    rows.push([`t${tree}-y`, chat, 'u5', 'same instant, earlier id', at(d01, 600)])
  }
  rows.push(['late1', 'team@g', 'u1', 'at 23:30 local', '2026-11-02T04:30:00.000Z'])
  // 2026-10-28: more than 50,000 distinct terms, so rarely seen terms are dropped while counting.
  const d28 = '2026-10-28T13:00:00.000Z'
  for (let i = 0; i < 140; i++) {
    const unique = Array.from({ length: 420 }, (_, k) => `w${(i * 420 + k).toString(36)}q`).join(' ')
    rows.push([`p${i}`, i % 2 ? 'team@g' : 'team-b1@g', 'u1', `${sentence(next, 3)} ${unique}`, at(d28, i)])
  }
  // Days that get a summary between the two seeds (2026-10-29 .. 10-31), and one that breaks (11-02).
  for (const [day, count] of [
    ['2026-10-29', 6],
    ['2026-10-30', 4],
    ['2026-10-31', 5],
    ['2026-11-02', 3],
  ] as const)
    for (let i = 0; i < count; i++)
      rows.push([`${day}-${i}`, 'team@g', 'u1', sentence(next, 5), at(`${day}T15:00:00.000Z`, i * 7)])
  // Outside the window by instant though inside it as text; epoch numbers (a warning).
  rows.push(
    ['x1', 'team@g', 'u1', 'after the window', '2026-11-04T04:30:00-02:00'],
    ['x2', 'team@g', 'u1', 'epoch', 1_761_000_000],
  )
  insertRows(db, rows, blocks)
  const messages = openMessagesDb(ws.paths.messagesDb, { readonly: true })
  const window = dayWindow(new Date('2026-11-03T16:00:00.000Z'), 9, 'America/New_York')
  const results = [await seedOnce(seed, ws, messages, window)]
  // Between the seeds: summaries (with and without watermark, one with a pending update), a broken note, new rows.
  const summarise = (day: string, until: string | null, edit?: (text: string) => string) => {
    const path = dailyNotePath(ws.paths, day)
    const note = parseDailyNote(readFileSync(path, 'utf8'), path)
    let text = renderDailyNote(withSummary(note, `Summary of ${day}.`, until ?? '2026-10-30T00:00:00Z'))
    if (until === null) text = text.replace(/^summarised_until: .*$/m, 'summarised_until: null')
    writeFileSync(path, edit ? edit(text) : text)
  }
  summarise('2026-10-29', '2026-10-29T15:20:00Z')
  summarise('2026-10-30', null)
  summarise(
    '2026-10-31',
    '2026-10-31T15:40:00Z',
    (text) => `${text}\n## Summary update (14:00)\n\n<!-- NEEDS_SUMMARY_UPDATE -->\n`,
  )
  summarise('2026-10-26', '2026-10-26T16:00:00Z')
  writeFileSync(dailyNotePath(ws.paths, '2026-11-02'), '---\ndate: [unclosed\n---\n')
  const later: Row[] = [
    ['n1', 'team@g', 'u1', 'after the watermark', '2026-10-29T18:00:00.000Z'],
    ['n2', 'team-b2@g', 'bot', 'a new branch joins', '2026-10-29T18:00:00.000Z', 1],
    ['n3', 'team@g', 'u1', 'more for the missing watermark day', '2026-10-30T20:00:00.000Z'],
    ['n4', 'team@g', 'u1', 'new on the broken day', '2026-11-02T20:00:00.000Z'],
    ['n5', 'team@g', 'u1', 'a new day', '2026-11-03T13:00:00.000Z'],
  ]
  insertRows(db, later)
  db.close()
  results.push(await seedOnce(seed, ws, messages, window))
  results.push(await seedOnce(seed, ws, messages, window)) // nothing new: every note unchanged
  messages.close()
  return { ws, outcome: { notes: readNotes(ws, (text) => text), results } }
}

/**
 * A bench-like volume on a DB dreamlane created (UTC): 40 days of 12 chats with branches, with seeding settings
 * other than the defaults; notes by sha256.
 */
export async function volumeWorld(seed: Seed): Promise<{ ws: TestWorkspace; outcome: GoldenOutcome }> {
  const ws = makeWorkspace(
    {},
    { seeding: { headTail: 3, snippetBudget: 80, cueTermsMax: 10, snippetMaxChars: 60 } },
  )
  const messages = openMessagesDb(ws.paths.messagesDb, { create: true })
  for (let c = 0; c < 12; c++) messages.upsertChat(`chat${c}@g`, `Chat ${c}`)
  for (let c = 0; c < 12; c += 4)
    messages.upsertBranch({ branchId: `b${c}`, chatJid: `chat${c + 1}@g`, rootChatJid: `chat${c}@g` })
  const next = mulberry32(42)
  const window = dayWindow(new Date('2026-11-21T12:00:00Z'), 40, 'UTC')
  const span = window.end.getTime() - window.start.getTime()
  const total = 12_000
  messages.insertMessages(
    Array.from({ length: total }, (_, i) => {
      const isBot = next() < 0.5
      return {
        id: `v${i}`,
        chatJid: `chat${Math.floor(next() * 12)}@g`,
        sender: isBot ? 'bot' : 'user',
        senderName: isBot ? 'Assistant' : 'Alex',
        content: sentence(next, 4 + Math.floor(next() * 40)),
        // Whole seconds, so messages of different chats often share a timestamp.
        timestamp: new Date(
          window.start.getTime() + Math.floor(((i / total) * span) / 1000) * 1000,
        ).toISOString(),
        isBotMessage: isBot,
        isFromMe: !isBot,
      }
    }),
  )
  messages.close()
  const reader = openMessagesDb(ws.paths.messagesDb, { readonly: true })
  const results = [await seedOnce(seed, ws, reader, window)]
  reader.close()
  const sha = (text: string) => createHash('sha256').update(text).digest('hex')
  return { ws, outcome: { notes: readNotes(ws, sha), results } }
}

async function seedOnce(seed: Seed, ws: TestWorkspace, messages: MessagesDb, window: SeedInput['window']) {
  const progress: string[] = []
  const onProgress = (day: string, done: number, total: number) => progress.push(`${day} ${done}/${total}`)
  const result = await seed({ paths: ws.paths, config: ws.config, messages, window, onProgress })
  const rel = (path: string) => relative(ws.dir, path)
  return {
    days: result.days.map((day) => ({ ...day, path: rel(day.path) })),
    changed: result.changed.map(rel),
    problems: result.problems.map((problem) => ({ ...problem, path: rel(problem.path) })),
    warnings: result.warnings.map((warning) => warning.replace(ws.dir, '<workspace>')),
    progress,
  }
}

function readNotes(ws: TestWorkspace, keep: (text: string) => string): Record<string, string> {
  const notes: Record<string, string> = {}
  for (const name of readdirSync(ws.paths.daily).sort())
    notes[name] = keep(readFileSync(join(ws.paths.daily, name), 'utf8'))
  return notes
}
