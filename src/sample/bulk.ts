// `generateBulkMessages`: a big messages DB for benches — long history, and a fixed, identical recent window.
import type { NewMessage } from '../db/messages.js'
import { UsageError } from '../errors.js'
import { dayWindow, isValidTimeZone, type DayWindow } from '../time/local-day.js'
import { openFreshMessagesDb } from './fresh-db.js'
import { ASSISTANT, USER } from './persona.js'
import { Prng } from './prng.js'

export interface BulkInput {
  file: string
  now: Date
  timeZone: string
  /** All messages written, window included. */
  total: number
  /** The window: the last `windowDays` local days, ending today. */
  windowDays: number
  /** Exactly this many messages fall inside the window, the rest before it. */
  windowMessages: number
  /** How far back the history before the window reaches. @default 730 */
  historyDays?: number
  /** Seeds the window's content and times only (history is evenly spaced). @default 1 */
  seed?: number
  /** Replace an existing non-empty DB at `file`. @default false */
  overwrite?: boolean
}

export interface BulkResult {
  total: number
  windowMessages: number
  window: DayWindow
}

const CHATS = [
  { jid: 'web:bulk-main', name: 'Main' },
  { jid: 'web:bulk-work', name: 'Work' },
  { jid: 'web:bulk-home', name: 'Home' },
  { jid: 'web:bulk-recipes', name: 'Recipes' },
  { jid: 'web:bulk-work/fork-1', name: 'Work (regenerated)' },
] as const
const BRANCH = { branchId: 'bulk-work-fork-1', chatJid: 'web:bulk-work/fork-1', rootChatJid: 'web:bulk-work' }

// Three word lists of coprime lengths: cheap to combine, and rows rarely repeat exactly.
const OPENERS = [
  'quick question:',
  'remind me',
  'can you check',
  'note that',
  'what about',
  'ok so',
  'thoughts on',
]
const TOPICS = [
  'the deploy window',
  'the invoice from the plumber',
  'tomorrow’s standup',
  'a pasta recipe with lemon',
  'the flaky integration test',
  'the dentist on Thursday',
  'the roadmap draft',
  'the train times to Braga',
  'migrating the cron jobs',
  'the birthday gift idea',
  'index bloat on events',
  'the quarterly review',
  'the API rate limits',
  'a weekend hike',
  'renewing the passport',
  'the on-call handover',
  'the new laptop',
  'the customer escalation',
  'a bread starter',
  'the conference budget',
  'the staging database',
  'the gym',
  'the holiday rota',
]
const TAILS = ['', ' please', ' — no rush', ' before Friday', ' 🙂']

function phrase(a: number, b: number, c: number): string {
  return `${OPENERS[a % OPENERS.length]} ${TOPICS[b % TOPICS.length]}${TAILS[c % TAILS.length]}`
}

function bulkMessage(
  id: string,
  index: number,
  chatIndex: number,
  atMs: number,
  content: string,
): NewMessage {
  const isBot = index % 2 === 1
  const who = isBot ? ASSISTANT : USER
  return {
    id,
    chatJid: CHATS[chatIndex % CHATS.length]?.jid ?? CHATS[0].jid,
    sender: who.sender,
    senderName: who.senderName,
    content: isBot ? `Noted: ${content}` : content,
    timestamp: new Date(atMs).toISOString(),
    isBotMessage: isBot,
  }
}

/** History before the window, evenly spaced; bursts of 8 messages stay in one chat. */
function* historyMessages(count: number, fromMs: number, toMs: number): Generator<NewMessage> {
  const stepMs = (toMs - fromMs) / count
  for (let j = 0; j < count; j++) {
    const content = phrase(j, j * 7 + 3, j >> 1)
    yield bulkMessage(
      `h${String(j).padStart(9, '0')}`,
      j,
      j >> 3,
      Math.floor(fromMs + (j + 0.5) * stepMs),
      content,
    )
  }
}

/** The window's messages depend only on the window and the seed, never on `total`. */
function* windowMessages(count: number, fromMs: number, toMs: number, seed: number): Generator<NewMessage> {
  const prng = new Prng(seed)
  const stepMs = (toMs - fromMs) / count
  let chat = 0
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0 && prng.chance(0.2)) chat = prng.int(0, CHATS.length - 1)
    const content = phrase(prng.int(0, 99), prng.int(0, 99), prng.int(0, 99))
    const atMs = Math.floor(fromMs + (i + prng.next()) * stepMs)
    yield bulkMessage(`w${String(i).padStart(9, '0')}`, i, chat, atMs, content)
  }
}

function checkBulkInput(input: BulkInput): void {
  const whole = (value: number): boolean => Number.isInteger(value) && value >= 0
  if (!whole(input.total) || !whole(input.windowMessages) || input.windowMessages > input.total) {
    throw new UsageError(
      `bulk sample needs whole counts with windowMessages ≤ total (got ${input.windowMessages}, ${input.total})`,
    )
  }
  if (!Number.isInteger(input.windowDays) || input.windowDays < 1)
    throw new UsageError('windowDays must be at least 1')
  if (!isValidTimeZone(input.timeZone)) throw new UsageError(`unknown time zone "${input.timeZone}"`)
}

/**
 * Writes `total` messages: `windowMessages` inside the last `windowDays` days (before `now`) and the rest
 * spread over `historyDays` before that. One transaction, rows streamed from generators, so 1M rows stay flat
 * in memory.
 */
export async function generateBulkMessages(input: BulkInput): Promise<BulkResult> {
  checkBulkInput(input)
  const window = dayWindow(input.now, input.windowDays, input.timeZone)
  const windowStartMs = window.start.getTime()
  const windowEndMs = Math.min(input.now.getTime(), window.end.getTime())
  const historyStartMs = windowStartMs - (input.historyDays ?? 730) * 86_400_000
  const history = historyMessages(input.total - input.windowMessages, historyStartMs, windowStartMs)
  const recent = windowMessages(input.windowMessages, windowStartMs, windowEndMs, input.seed ?? 1)
  const db = await openFreshMessagesDb(input.file, input.overwrite ?? false)
  try {
    db.db.transaction(() => {
      for (const chat of CHATS) db.upsertChat(chat.jid, chat.name)
      db.upsertBranch(BRANCH)
      db.insertMessages(history)
      db.insertMessages(recent)
    })()
  } finally {
    db.close()
  }
  return { total: input.total, windowMessages: input.windowMessages, window }
}
