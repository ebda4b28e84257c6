// The messages DB's queries: window streaming, session trees, and the few writes dreamlane makes.
import { MessagesDbBusyError, DreamlaneError } from '../errors.js'
import { DEFAULT_DB_WAIT_MS, describeDbHolder, retryWhileBusy, type DbWait } from './busy.js'
import {
  DREAMLANE_SENDER,
  toRow,
  windowRowToMessage,
  type ChatActivity,
  type MessageRow,
  type NewBranch,
  type NewMessage,
  type ChatOfRow,
  type RawMessage,
} from './message-row.js'
import { iterateChatWindows, listMessageChats } from './chat-window.js'
import type Database from 'better-sqlite3'
import type { Db } from './open.js'
import { planWindowScan } from './window-scan.js'
import { TimeSlicer } from '../time/slice.js'
import { compilePrivacy, type PrivacyRules } from '../privacy/rules.js'
import { windowSecretFilter } from './window-secrets.js'

/** Each probe of a locked DB waits this long on SQLite's busy handler before the next progress check. */
export const PROBE_BUSY_MS = 250

/** How long a statement on an open messages DB waits on a host's lock before failing. */
export const DB_BUSY_TIMEOUT_MS = 5000

export class MessagesDb {
  readonly db: Db
  readonly file: string
  readonly #selectColumns: string
  /** The message's own columns, for reads that resolve the chat's root and name once per chat. */
  readonly #messageColumns: string
  /** The same, always eight of them (content_blocks or NULL), then the chat: what a table walk reads. */
  readonly #scanColumns: string
  #insertStatements: { insert: Database.Statement; touch: Database.Statement } | undefined

  constructor(db: Db, file: string) {
    this.db = db
    this.file = file
    const columns = new Set(
      (db.prepare('PRAGMA table_info(messages)').all() as { name: string }[]).map((column) => column.name),
    )
    for (const required of ['id', 'chat_jid', 'content', 'timestamp']) {
      if (!columns.has(required)) {
        throw new DreamlaneError('MESSAGES_DB_SCHEMA', `${file}: messages table has no "${required}" column`)
      }
    }
    this.#selectColumns = `m.id, m.chat_jid, COALESCE(b.root_chat_jid, m.chat_jid) AS root_jid, c.name AS chat_name,
      m.sender, m.sender_name, m.content, m.timestamp, m.is_from_me, m.is_bot_message
      ${columns.has('content_blocks') ? ', m.content_blocks' : ''}`
    this.#messageColumns = `m.id, m.timestamp, m.sender, m.sender_name, m.content, m.is_from_me, m.is_bot_message
      ${columns.has('content_blocks') ? ', m.content_blocks' : ''}`
    this.#scanColumns = `m.id, m.timestamp, m.sender, m.sender_name, m.content, m.is_from_me, m.is_bot_message,
      ${columns.has('content_blocks') ? 'm.content_blocks' : 'NULL'}, m.chat_jid`
  }

  /**
   * Streams the messages with `start <= timestamp < end` (ISO UTC), oldest first (by timestamp, chat, id),
   * excluding dream channels and dreamlane's own summary posts. Read chat by chat over the host's own
   * (chat_jid, timestamp) index, a page at a time, so the cost follows the window, not the history.
   * `privacy` keeps excluded chats, private stretches and forgotten sentences out (a chat kept out whole is not
   * read at all).
   */
  *iterateWindow(
    start: Date,
    end: Date,
    options: { pageRows?: number; expectRows?: number; privacy?: PrivacyRules } = {},
  ): Generator<MessageRow> {
    const privacy = compilePrivacy(options.privacy)
    const visible = listMessageChats(this.db).filter((jid) => !jid.startsWith('dream:'))
    // Each per-chat page reads one chat, so its root and name are looked up once here, not joined per row.
    const chats = this.#chatsOf(visible)
    const jids = privacy.isEmpty
      ? visible
      : visible.filter((jid) => !privacy.isChatExcluded(jid, chats.get(jid)?.root))
    const select = `SELECT ${this.#messageColumns}
      FROM messages m
      WHERE COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}' AND`
    const rows = iterateChatWindows(
      this.db,
      select,
      jids,
      start.toISOString(),
      end.toISOString(),
      options.pageRows,
      options.expectRows,
    )
    const withhold = options.privacy?.secrets ? windowSecretFilter(options.privacy.secrets) : null
    for (const { jid, row } of rows) {
      const message = windowRowToMessage(jid, row, chats.get(jid))
      const seen = privacy.isEmpty ? message : privacy.apply(message)
      if (seen) yield withhold ? withhold(seen) : seen
    }
  }

  /**
   * iterateWindow's rows in its order, for a long window read where nothing waits on the thread (a worker): the
   * table is walked over the window's rowid span when the window's rows lie together there, which costs about half
   * of a table lookup per row; otherwise this is iterateWindow.
   */
  *iterateLongWindow(
    start: Date,
    end: Date,
    options: { privacy?: PrivacyRules } = {},
  ): Generator<MessageRow> {
    const privacy = compilePrivacy(options.privacy)
    const visible = this.#windowChats()
    const chats = this.#chatsOf(visible)
    const jids = privacy.isEmpty
      ? visible
      : visible.filter((jid) => !privacy.isChatExcluded(jid, chats.get(jid)?.root))
    const select = `SELECT ${this.#scanColumns} FROM messages m`
    const scan = planWindowScan(this.db, select, jids, start.toISOString(), end.toISOString())
    if (!scan) return yield* this.iterateWindow(start, end, options)
    const withhold = options.privacy?.secrets ? windowSecretFilter(options.privacy.secrets) : null
    for (const { jid, row } of scan.read()) {
      if (row[2] === DREAMLANE_SENDER) continue
      const message = windowRowToMessage(jid, row, chats.get(jid))
      const seen = privacy.isEmpty ? message : privacy.apply(message)
      if (seen) yield withhold ? withhold(seen) : seen
    }
  }

  /** Each chat's session-tree root (itself unless it is a branch) and name. */
  #chatsOf(jids: readonly string[]): Map<string, ChatOfRow> {
    const root = this.db.prepare('SELECT root_chat_jid FROM chat_branches WHERE chat_jid = ?').pluck()
    const name = this.db.prepare('SELECT name FROM chats WHERE jid = ?').pluck()
    return new Map(
      jids.map((jid) => [
        jid,
        {
          root: (root.get(jid) as string | undefined) ?? jid,
          name: (name.get(jid) as string | null) ?? null,
        },
      ]),
    )
  }

  /**
   * Per-chat counts and first/last timestamps in a window, newest activity first: one aggregate per chat over
   * the (chat_jid, timestamp) index every host DB has. Same exclusions as iterateWindow, plus branches of dream
   * chats.
   */
  summarizeWindow(start: Date, end: Date): ChatActivity[] {
    return byLatestActivity(this.#windowChats().flatMap(this.#chatActivity(start, end)))
  }

  /**
   * summarizeWindow for long windows: lets the event loop run between chats when a time slice is used up. Chats
   * `privacy` keeps out whole are left out (by their jid or their tree's root).
   */
  async summarizeWindowInSlices(start: Date, end: Date, privacy?: PrivacyRules): Promise<ChatActivity[]> {
    const read = this.#chatActivity(start, end)
    const slicer = new TimeSlicer()
    const activity: ChatActivity[] = []
    const filter = compilePrivacy(privacy)
    for (const jid of this.#windowChats()) {
      for (const chat of read(jid)) if (!filter.isChatExcluded(chat.jid, chat.root)) activity.push(chat)
      if (slicer.isDue()) await slicer.yield()
    }
    return byLatestActivity(activity)
  }

  /**
   * About how many messages fall in each of the consecutive ranges `[bounds[i], bounds[i + 1])`: counted on the
   * (chat_jid, timestamp) index alone (dreamlane's own posts included), so it costs a few ms for a year of 500k
   * messages. Lets the event loop run between chats.
   */
  async countWindowInSegments(bounds: readonly Date[]): Promise<number[]> {
    const count = this.db
      .prepare('SELECT count(*) FROM messages WHERE chat_jid = ? AND timestamp >= ? AND timestamp < ?')
      .pluck()
    const texts = bounds.map((bound) => bound.toISOString())
    const counts = texts.slice(1).map(() => 0)
    const slicer = new TimeSlicer()
    for (const jid of this.#windowChats()) {
      for (let i = 0; i < counts.length; i++)
        counts[i] = (counts[i] as number) + (count.get(jid, texts[i], texts[i + 1]) as number)
      if (slicer.isDue()) await slicer.yield()
    }
    return counts
  }

  #windowChats(): string[] {
    return listMessageChats(this.db).filter((jid) => !jid.startsWith('dream:'))
  }

  /** One chat's activity in the window: one row, or none when it has no visible message there. */
  #chatActivity(start: Date, end: Date): (jid: string) => ChatActivity[] {
    const statement = this.db.prepare(
      `SELECT m.chat_jid AS jid, COALESCE(c.name, m.chat_jid) AS name,
        COALESCE(b.root_chat_jid, m.chat_jid) AS root, count(*) AS messages,
        min(m.timestamp) AS first, max(m.timestamp) AS last
      FROM messages m
      LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
      LEFT JOIN chats c ON c.jid = m.chat_jid
      WHERE m.chat_jid = ? AND m.timestamp >= ? AND m.timestamp < ?
        AND substr(COALESCE(b.root_chat_jid, m.chat_jid), 1, 6) <> 'dream:'
        AND COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}'
      GROUP BY m.chat_jid`,
    )
    const from = start.toISOString()
    const to = end.toISOString()
    return (jid) => statement.all(jid, from, to) as ChatActivity[]
  }

  /**
   * The text of the latest `limit` visible messages with `since <= timestamp < end`, newest first (dream channels
   * and dreamlane's own messages left out). Reads back from `end` in spans that double (a week, then two, four…),
   * one seek per chat and span on (chat_jid, timestamp), and stops once it has `limit`: the cost is what it keeps,
   * not the history's. Yields to the event loop between chats.
   */
  async contentsBetween(since: Date, end: Date, limit: number): Promise<string[]> {
    const statement = this.db.prepare(
      `SELECT timestamp, content FROM messages
      WHERE chat_jid = ? AND timestamp >= ? AND timestamp < ? AND COALESCE(sender, '') <> '${DREAMLANE_SENDER}'
      ORDER BY timestamp DESC LIMIT ?`,
    )
    const kept: string[] = []
    const slicer = new TimeSlicer()
    const chats = this.#windowChats()
    let spanEnd = end.getTime()
    for (let days = 7; spanEnd > since.getTime() && kept.length < limit; days *= 2) {
      const spanStart = Math.max(since.getTime(), spanEnd - days * 86_400_000)
      const [from, to] = [new Date(spanStart).toISOString(), new Date(spanEnd).toISOString()]
      const rows: { timestamp: string; content: string | null }[] = []
      for (const jid of chats) {
        rows.push(...(statement.all(jid, from, to, limit - kept.length) as typeof rows))
        await slicer.maybeYield()
      }
      rows.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))
      for (const row of rows.slice(0, limit - kept.length)) kept.push(row.content ?? '')
      spanEnd = spanStart
    }
    return kept
  }

  /** Messages of one chat in a time range, oldest first, at most `limit`. */
  listChatMessages(
    chatJid: string,
    options: { start?: Date; end?: Date; limit?: number } = {},
  ): MessageRow[] {
    const rows = this.db
      .prepare(
        `SELECT ${this.#selectColumns}
        FROM messages m
        LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
        LEFT JOIN chats c ON c.jid = m.chat_jid
        WHERE m.chat_jid = ? AND m.timestamp >= ? AND m.timestamp < ?
        ORDER BY m.timestamp, m.id LIMIT ?`,
      )
      .all(
        chatJid,
        options.start?.toISOString() ?? '',
        options.end?.toISOString() ?? '\uffff',
        options.limit ?? 1000,
      ) as RawMessage[]
    return rows.map(toRow)
  }

  /**
   * Messages whose timestamp is not ISO 8601 text: numbers (epoch seconds or ms, stored as INTEGER, REAL or
   * digits) sort before '1970-01-01', so a seek per chat on (chat_jid, timestamp) finds them without walking history.
   */
  countNonIsoTimestamps(): number {
    // Per chat, so the host's (chat_jid, timestamp) index serves it even without a timestamp index.
    const count = this.db
      .prepare(`SELECT count(*) FROM messages WHERE chat_jid = ? AND timestamp < '1970-01-01'`)
      .pluck()
    return listMessageChats(this.db).reduce((sum, jid) => sum + (count.get(jid) as number), 0)
  }

  /** Count of messages in a window, excluding dream channels. */
  countWindow(start: Date, end: Date): number {
    const row = this.db
      .prepare(
        `SELECT count(*) AS n FROM messages
        WHERE timestamp >= ? AND timestamp < ? AND substr(chat_jid, 1, 6) <> 'dream:'
          AND COALESCE(sender, '') <> '${DREAMLANE_SENDER}'`,
      )
      .get(start.toISOString(), end.toISOString()) as { n: number }
    return row.n
  }

  /**
   * Distinct session trees with messages after `since` (ISO UTC), excluding dream channels and the summaries
   * dreamlane itself posted — so a dream's own reply never looks like a new session.
   */
  countSessionTreesSince(since: Date): number {
    const row = this.db
      .prepare(
        `SELECT count(DISTINCT COALESCE(b.root_chat_jid, m.chat_jid)) AS n
        FROM messages m LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
        WHERE m.timestamp > ? AND substr(m.chat_jid, 1, 6) <> 'dream:' AND COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}'`,
      )
      .get(since.toISOString()) as { n: number }
    return row.n
  }

  /** Root chat of `chatJid`'s session tree. */
  rootOf(chatJid: string): string {
    const row = this.db
      .prepare('SELECT root_chat_jid AS root FROM chat_branches WHERE chat_jid = ?')
      .get(chatJid) as { root: string } | undefined
    return row?.root ?? chatJid
  }

  listChats(): { jid: string; name: string | null; lastMessageTime: string | null }[] {
    return this.db
      .prepare(
        `SELECT jid, name, last_message_time AS lastMessageTime FROM chats
        WHERE substr(jid, 1, 6) <> 'dream:' ORDER BY last_message_time DESC`,
      )
      .all() as { jid: string; name: string | null; lastMessageTime: string | null }[]
  }

  upsertChat(jid: string, name: string | null, lastMessageTime?: string): void {
    this.db
      .prepare(
        `INSERT INTO chats (jid, name, last_message_time) VALUES (?, ?, ?)
        ON CONFLICT(jid) DO UPDATE SET name = COALESCE(excluded.name, chats.name),
          last_message_time = MAX(COALESCE(chats.last_message_time, ''), COALESCE(excluded.last_message_time, ''))`,
      )
      .run(jid, name, lastMessageTime ?? null)
  }

  upsertBranch(branch: NewBranch): void {
    this.db
      .prepare(
        `INSERT INTO chat_branches (branch_id, chat_jid, root_chat_jid, parent_branch_id, created_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT(branch_id) DO NOTHING`,
      )
      .run(
        branch.branchId,
        branch.chatJid,
        branch.rootChatJid,
        branch.parentBranchId ?? null,
        branch.createdAt ?? null,
      )
  }

  /** Inserts messages (idempotent on (id, chat_jid)) in one transaction; returns how many were new. */
  insertMessages(messages: Iterable<NewMessage>): number {
    // Prepared once per connection: every chat turn stores two messages, and preparing is most of a small insert.
    this.#insertStatements ??= {
      insert: this.db.prepare(`INSERT OR IGNORE INTO messages
      (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      touch: this.db.prepare(`UPDATE chats SET last_message_time = ? WHERE jid = ?
      AND (last_message_time IS NULL OR last_message_time < ?)`),
    }
    const { insert, touch } = this.#insertStatements
    return this.db.transaction((rows: Iterable<NewMessage>) => {
      let added = 0
      for (const m of rows) {
        const result = insert.run(
          m.id,
          m.chatJid,
          m.sender ?? null,
          m.senderName ?? null,
          m.content,
          m.timestamp,
          m.isFromMe ? 1 : 0,
          m.isBotMessage ? 1 : 0,
        )
        added += result.changes
        touch.run(m.timestamp, m.chatJid, m.timestamp)
      }
      return added
    })(messages)
  }

  /** Removes a chat with its messages and branch rows (used for temporary dream channels only). */
  deleteChat(jid: string): number {
    return this.db.transaction(() => {
      const removed = this.db.prepare('DELETE FROM messages WHERE chat_jid = ?').run(jid).changes
      this.db.prepare('DELETE FROM chat_branches WHERE chat_jid = ?').run(jid)
      this.db.prepare('DELETE FROM chats WHERE jid = ?').run(jid)
      return removed
    })()
  }

  /**
   * Jids of leftover dream channels (from crashed runs). A range on the prefix (';' follows ':') lets SQLite
   * seek the chats key and the (chat_jid, timestamp) index instead of scanning every message, as substr() would.
   */
  listDreamChannels(): string[] {
    const rows = this.db
      .prepare(
        `SELECT jid FROM chats WHERE jid >= 'dream:' AND jid < 'dream;'
        UNION SELECT DISTINCT chat_jid FROM messages WHERE chat_jid >= 'dream:' AND chat_jid < 'dream;'`,
      )
      .all() as { jid: string }[]
    return rows.map((row) => row.jid)
  }

  /**
   * Waits (bounded) until this connection could write — the dream channel and the summary — and throws
   * MESSAGES_DB_BUSY naming the holder when another process keeps a write lock the whole time.
   */
  waitUntilWritable(wait: DbWait = {}): void {
    this.db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`)
    try {
      const probe = retryWhileBusy(
        () => {
          this.db.exec('BEGIN IMMEDIATE')
          this.db.exec('ROLLBACK')
        },
        wait,
        this.file,
      )
      if (!probe)
        throw new MessagesDbBusyError(
          this.file,
          describeDbHolder(this.file),
          wait.waitMs ?? DEFAULT_DB_WAIT_MS,
        )
    } finally {
      this.db.pragma(`busy_timeout = ${DB_BUSY_TIMEOUT_MS}`)
    }
  }

  close(): void {
    this.db.close()
  }
}

/** Newest activity first, then by jid in SQLite's byte order (as `ORDER BY last DESC, jid` gives them). */
function byLatestActivity(activity: ChatActivity[]): ChatActivity[] {
  return activity.sort(
    (a, b) =>
      (a.last < b.last ? 1 : a.last > b.last ? -1 : 0) ||
      Buffer.compare(Buffer.from(a.jid), Buffer.from(b.jid)),
  )
}
