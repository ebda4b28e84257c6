// Reads a time window chat by chat over the (chat_jid, timestamp) index every host DB has, merged oldest first,
// so a window costs what is in it whatever the history, with no timestamp index of dreamlane's own.
import { Heap } from '../collections/heap.js'
import type { Db } from './open.js'

/**
 * Rows one per-chat query reads at a time by default: big enough to amortise the query, small enough to stay flat.
 * Rows buffered across many chats live long enough to reach the old GC generation; 128 read a year no slower
 * than 512 did, with less old-space growth and shorter collections.
 */
export const PAGE_ROWS = 128
/**
 * Rows of each chat's first page. The merge needs every chat's first row before it yields anything, so the
 * first pages are small and grow to PAGE_ROWS: a window over many chats starts without a long synchronous read.
 */
const FIRST_PAGE_ROWS = 4

/** A row as a per-chat query returns it (raw: an array), its id first and its timestamp second. */
export type WindowRow = [id: unknown, timestamp: string, ...rest: unknown[]]

/** One row of the merged window and the chat it came from. */
export interface ChatRow {
  jid: string
  row: WindowRow
}

/**
 * Every chat_jid that has messages, in SQLite's own order, by one index seek per chat (a skip scan written
 * out: `SELECT DISTINCT chat_jid` would walk every message).
 */
export function listMessageChats(db: Db): string[] {
  return db
    .prepare(
      `WITH RECURSIVE jids(jid) AS (
        SELECT (SELECT min(chat_jid) FROM messages)
        UNION ALL
        SELECT (SELECT min(chat_jid) FROM messages WHERE chat_jid > jid) FROM jids WHERE jid IS NOT NULL)
      SELECT jid FROM jids WHERE jid IS NOT NULL`,
    )
    .pluck()
    .all() as string[]
}

type ReadPage = (jid: string, from: string, afterId: unknown, limit: number) => WindowRow[]

/** One chat's window rows, a page at a time, resuming after the last (timestamp, id) read. */
class ChatCursor {
  readonly rank: number
  readonly jid: string
  #rows: WindowRow[] = []
  #next = 0
  #done = false
  #after: WindowRow | null = null
  #pageRows: number
  readonly #maxPageRows: number
  readonly #read: ReadPage
  readonly #start: string

  constructor(
    rank: number,
    jid: string,
    start: string,
    read: ReadPage,
    pageRows: { first: number; max: number },
  ) {
    this.rank = rank
    this.jid = jid
    this.#start = start
    this.#read = read
    this.#pageRows = pageRows.first
    this.#maxPageRows = pageRows.max
  }

  /** The timestamp of the row peek() last returned: what the merge compares, without another peek(). */
  head = ''

  /** The row this cursor would give next, reading a page when the last is used up; undefined at the end. */
  peek(): WindowRow | undefined {
    if (this.#next < this.#rows.length) {
      const row = this.#rows[this.#next] as WindowRow
      this.head = row[1]
      return row
    }
    if (this.#done) return undefined
    const after = this.#after
    this.#rows = this.#read(this.jid, after ? after[1] : this.#start, after ? after[0] : null, this.#pageRows)
    this.#next = 0
    if (this.#rows.length < this.#pageRows) this.#done = true
    this.#pageRows = Math.min(this.#pageRows * 4, this.#maxPageRows)
    const row = this.#rows[0]
    if (row) this.head = row[1]
    return row
  }

  take(): WindowRow {
    const row = this.#rows[this.#next++] as WindowRow
    this.#after = row
    return row
  }
}

/**
 * Rows of `jids` with `start <= timestamp < end`, ordered by (timestamp, chat_jid, id) as one ORDER BY over
 * the whole table would give them. `select` must be a SELECT m.id, m.timestamp, … FROM messages m … whose WHERE
 * ends in AND, so the chat, range and resume conditions can follow; rows come back raw (arrays), and each query
 * holds no statement open between pages of at most `pageRows`. `expectRows`, the rows the caller expects to take
 * (a hint), sizes each chat's first page.
 */
export function* iterateChatWindows(
  db: Db,
  select: string,
  jids: readonly string[],
  start: string,
  end: string,
  pageRows = PAGE_ROWS,
  expectRows = 0,
): Generator<ChatRow> {
  const page = db
    .prepare(
      `${select} m.chat_jid = @jid AND m.timestamp >= @from AND m.timestamp < @end
      AND NOT (@afterId IS NOT NULL AND m.timestamp = @from AND m.id <= @afterId)
    ORDER BY m.timestamp, m.id LIMIT @limit`,
    )
    .raw(true)
  const read: ReadPage = (jid, from, afterId, limit) =>
    page.all({ jid, from, end, afterId, limit }) as WindowRow[]
  // A min-heap of cursors on (timestamp, chat rank). Timestamps are ISO text, whose JS and SQLite orders agree;
  // the rank is SQLite's chat_jid order, and within one chat the query already orders by id.
  // Every cursor in the heap has been peeked since its last take(), so its head is current.
  const before = (a: ChatCursor, b: ChatCursor): boolean =>
    a.head < b.head || (a.head === b.head && a.rank < b.rank)
  const cursors: ChatCursor[] = []
  const max = Math.max(FIRST_PAGE_ROWS, pageRows)
  // A caller that will take many rows (a bulk page) has each chat read its share at once: fewer, fuller queries.
  const first = Math.min(max, Math.max(FIRST_PAGE_ROWS, Math.ceil(expectRows / Math.max(1, jids.length))))
  jids.forEach((jid, rank) => {
    const cursor = new ChatCursor(rank, jid, start, read, { first, max })
    if (cursor.peek()) cursors.push(cursor)
  })
  const heap = new Heap(before, cursors)
  for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
    yield { jid: top.jid, row: top.take() }
    if (top.peek()) heap.topChanged()
    else heap.pop()
  }
}
