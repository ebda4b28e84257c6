// Lays the story out in time: which days get which bursts, at what local times, as rows ready to insert.
import type { NewMessage } from '../db/messages.js'
import { addDays, localDayOf, localTimeOf, startOfLocalDay, type LocalDay } from '../time/local-day.js'
import { FILLER, FILLER_WEIGHTS } from './filler.js'
import { ASSISTANT, CHAT_KEYS, SAMPLE_BRANCHES, SAMPLE_CHATS, USER } from './persona.js'
import { Deck, Prng } from './prng.js'
import { buildScenes, storyDates } from './scenes.js'
import type { ChatKey, Exchange, Line, PlantedFact, Scene } from './types.js'

/** The story spans 21 days; shorter or longer histories squeeze or stretch everything older than a week. */
const STORY_DAYS = 21
const RECENT_DAYS = 7
/** Busy days (in story days ago): enough filler to pass 50 messages across several session trees. */
const BUSY_DAYS_AGO = [2, 12]
const BUSY_FILLER_PAIRS = 30
const FIRST_HOUR = 8
const LAST_START_HOUR = 21.5
/** Nothing later than 23:45 on the clock. */
const LAST_WALL_MS = 23.75 * 3_600_000

export interface LayoutInput {
  now: Date
  timeZone: string
  days: number
  seed: number
}

export interface SampleLayout {
  /** Oldest first. */
  messages: NewMessage[]
  planted: PlantedFact[]
  /** Each chat's first message (ISO UTC), for branch created_at. */
  firstMessageAt: Partial<Record<ChatKey, string>>
}

interface Burst {
  chat: ChatKey
  hour: number
  lines: Line[]
}

export function layOutSample(input: LayoutInput): SampleLayout {
  const prng = new Prng(input.seed)
  const today = localDayOf(input.now, input.timeZone)
  const scale = (daysAgo: number): number => scaleDaysAgo(daysAgo, input.days)
  const scenes = buildScenes(storyDates(today))
  const busy = new Set(BUSY_DAYS_AGO.map(scale))
  const empty = pickEmptyDays(
    scenes.map((scene) => scale(scene.daysAgo)),
    busy,
    input.days,
    prng,
  )
  const decks = makeDecks(prng)
  const layout: SampleLayout = { messages: [], planted: [], firstMessageAt: {} }

  for (let daysAgo = input.days - 1; daysAgo >= 0; daysAgo--) {
    if (empty.has(daysAgo)) continue
    const open = CHAT_KEYS.filter((key) => {
      const filler = SAMPLE_CHATS[key].filler
      return filler === 'always' || (filler !== 'never' && scale(filler.afterDaysAgo) > daysAgo)
    })
    const bursts = sceneBursts(
      scenes.filter((scene) => scale(scene.daysAgo) === daysAgo),
      prng,
    )
    const day = addDays(today, -daysAgo)
    if (busy.has(daysAgo)) bursts.push(...planBusyFiller(open, decks, prng))
    else bursts.push(...planFiller(open, latestStartHour(day, input), decks, prng))
    placeDay(day, bursts, input, prng, layout)
  }
  return layout
}

/** Story days-ago → days-ago in a history of `days` days: the last week stays put, older days rescale. */
export function scaleDaysAgo(daysAgo: number, days: number): number {
  if (daysAgo <= RECENT_DAYS) return daysAgo
  const olderStory = STORY_DAYS - 1 - (RECENT_DAYS + 1)
  return (
    RECENT_DAYS + 1 + Math.round(((daysAgo - RECENT_DAYS - 1) * (days - 1 - (RECENT_DAYS + 1))) / olderStory)
  )
}

/** Some older quiet days get no messages at all; the last week never goes silent. */
function pickEmptyDays(sceneDays: number[], busy: Set<number>, days: number, prng: Prng): Set<number> {
  const taken = new Set([...sceneDays, ...busy])
  const candidates: number[] = []
  for (let daysAgo = days - 1; daysAgo > RECENT_DAYS; daysAgo--)
    if (!taken.has(daysAgo)) candidates.push(daysAgo)
  const count = Math.min(Math.ceil(candidates.length / 2), Math.ceil(days * 0.15))
  return new Set(prng.shuffle(candidates).slice(0, count))
}

/**
 * Scenes as timed bursts. When a short history squeezes several story days into one, the scenes are
 * spread over the day in story order, so an introduction still comes before what builds on it.
 */
function sceneBursts(scenes: Scene[], prng: Prng): Burst[] {
  const storyDays = new Set(scenes.map((scene) => scene.daysAgo)).size
  const ordered = [...scenes].sort((a, b) => b.daysAgo - a.daysAgo || a.hour - b.hour)
  const slot = (LAST_START_HOUR - FIRST_HOUR) / Math.max(1, ordered.length)
  return ordered.map((scene, index) => ({
    chat: scene.chat,
    hour: (storyDays > 1 ? FIRST_HOUR + index * slot : scene.hour) + prng.between(0, 0.25),
    lines: scene.lines,
  }))
}

function makeDecks(prng: Prng): Map<ChatKey, Deck<Exchange>> {
  const decks = new Map<ChatKey, Deck<Exchange>>()
  for (const key of CHAT_KEYS) {
    const pool = FILLER[key]
    if (pool) decks.set(key, new Deck(pool, prng))
  }
  return decks
}

/** Filler for today starts early enough to have happened by `now`; other days use the whole waking day. */
function latestStartHour(day: LocalDay, input: LayoutInput): number {
  const hoursSoFar = (input.now.getTime() - startOfLocalDay(day, input.timeZone).getTime()) / 3_600_000
  return Math.min(LAST_START_HOUR, hoursSoFar - 1)
}

function fillerBurst(chat: ChatKey, pairs: number, decks: Map<ChatKey, Deck<Exchange>>): Burst {
  const deck = decks.get(chat)
  const lines: Line[] = []
  for (let i = 0; deck && i < pairs; i++) {
    const [question, answer] = deck.draw()
    lines.push({ role: 'user', text: question }, { role: 'assistant', text: answer })
  }
  return { chat, hour: FIRST_HOUR, lines }
}

/** An ordinary day: one to three short bursts in chats weighted by how chatty they are. */
function planFiller(
  open: ChatKey[],
  lastHour: number,
  decks: Map<ChatKey, Deck<Exchange>>,
  prng: Prng,
): Burst[] {
  const bursts: Burst[] = []
  const count = prng.int(1, 3)
  for (let i = 0; i < count && lastHour > FIRST_HOUR; i++) {
    const burst = fillerBurst(pickWeighted(open, prng), prng.int(1, 4), decks)
    burst.hour = prng.between(FIRST_HOUR, lastHour)
    bursts.push(burst)
  }
  return bursts
}

/** A busy day: longer bursts round-robin over every open chat, so the day spans several session trees. */
function planBusyFiller(open: ChatKey[], decks: Map<ChatKey, Deck<Exchange>>, prng: Prng): Burst[] {
  const order = prng.shuffle(open)
  const bursts: Burst[] = []
  let pairs = 0
  for (let i = 0; pairs < BUSY_FILLER_PAIRS; i++) {
    const size = prng.int(3, 6)
    bursts.push(fillerBurst(order[i % order.length] as ChatKey, size, decks))
    pairs += size
  }
  // Spread the bursts over the waking day so a long day still ends before midnight.
  const slot = (LAST_START_HOUR - FIRST_HOUR) / bursts.length
  for (const [index, burst] of bursts.entries()) burst.hour = FIRST_HOUR + (index + prng.next()) * slot
  return bursts
}

function pickWeighted(chats: ChatKey[], prng: Prng): ChatKey {
  const total = chats.reduce((sum, key) => sum + (FILLER_WEIGHTS[key] ?? 0), 0)
  let roll = prng.next() * total
  for (const key of chats) {
    roll -= FILLER_WEIGHTS[key] ?? 0
    if (roll < 0) return key
  }
  return chats[chats.length - 1] ?? 'main'
}

interface TimedLine {
  chat: ChatKey
  line: Line
  /** Local wall-clock time after midnight, in milliseconds. */
  offsetMs: number
}

/**
 * Gives each burst real times: one person chats in one place at a time, so bursts run one after another
 * from their wished-for hour; replies come within a minute, the next question a few minutes later.
 */
function timeBursts(bursts: Burst[], prng: Prng): TimedLine[] {
  const timed: TimedLine[] = []
  let cursorMs = -Infinity
  for (const burst of [...bursts].sort((a, b) => a.hour - b.hour)) {
    let atMs = Math.max(burst.hour * 3_600_000, cursorMs + prng.between(3, 25) * 60_000)
    for (const [index, line] of burst.lines.entries()) {
      if (index > 0) atMs += (line.role === 'assistant' ? prng.between(15, 75) : prng.between(40, 300)) * 1000
      timed.push({ chat: burst.chat, line, offsetMs: atMs })
    }
    cursorMs = atMs
  }
  return timed
}

/** Squeezes a day that ran late (short histories stack many scenes on one day) back before `limitMs`. */
function fitBefore(timed: TimedLine[], limitMs: number): void {
  const first = timed[0]?.offsetMs ?? 0
  const last = timed[timed.length - 1]?.offsetMs ?? 0
  if (last <= limitMs) return
  const factor = (limitMs - first) / (last - first)
  for (const item of timed) item.offsetMs = first + (item.offsetMs - first) * factor
}

/** Writes one day's rows into `layout`, leaving out anything after `now` (today is still going on). */
function placeDay(
  day: LocalDay,
  bursts: Burst[],
  input: LayoutInput,
  prng: Prng,
  layout: SampleLayout,
): void {
  const dayStartMs = startOfLocalDay(day, input.timeZone).getTime()
  const shiftMs = wallShiftMs(dayStartMs, input.timeZone)
  const timed = timeBursts(bursts, prng)
  fitBefore(timed, LAST_WALL_MS)
  const compact = day.replaceAll('-', '')
  for (const [index, { chat, line, offsetMs }] of timed.entries()) {
    const atMs = dayStartMs - shiftMs + Math.round(offsetMs / 1000) * 1000
    if (atMs >= input.now.getTime()) return
    const timestamp = new Date(atMs).toISOString()
    const id = `sm-${compact}-${String(index + 1).padStart(3, '0')}`
    layout.messages.push(toMessage(id, chat, line, timestamp))
    layout.firstMessageAt[chat] ??= timestamp
    if (line.fact) layout.planted.push(plantedFact(line, day, id))
  }
}

/**
 * Local wall time at midday minus the time elapsed since the day began: an hour on DST days (which
 * start an hour off), zero otherwise. Subtracting it keeps "09:00" meaning 09:00 on the clock.
 */
function wallShiftMs(dayStartMs: number, timeZone: string): number {
  const [hours = 12, minutes = 0] = localTimeOf(new Date(dayStartMs + 12 * 3_600_000), timeZone)
    .split(':')
    .map(Number)
  return (hours * 60 + minutes) * 60_000 - 12 * 3_600_000
}

function toMessage(id: string, chat: ChatKey, line: Line, timestamp: string): NewMessage {
  const who = line.role === 'assistant' ? ASSISTANT : USER
  return {
    id,
    chatJid: SAMPLE_CHATS[chat].jid,
    sender: who.sender,
    senderName: who.senderName,
    content: line.text,
    timestamp,
    isFromMe: false,
    isBotMessage: line.role === 'assistant',
  }
}

function plantedFact(line: Line, day: LocalDay, messageId: string): PlantedFact {
  const fact = line.fact as NonNullable<Line['fact']>
  const planted: PlantedFact = {
    id: fact.id,
    kind: fact.kind,
    day,
    messageId,
    text: line.text,
    expectedFile: fact.expectedFile,
    mustContain: [...fact.mustContain],
  }
  if (fact.supersedes) planted.supersedes = { mustContain: [...fact.supersedes.mustContain] }
  return planted
}

/** Days with over 50 messages spread across more than 2 session trees (where per-tree cues kick in). */
export function findBusyDays(messages: readonly NewMessage[], timeZone: string): LocalDay[] {
  const byDay = new Map<LocalDay, { count: number; trees: Set<string> }>()
  for (const message of messages) {
    const day = localDayOf(new Date(message.timestamp), timeZone)
    const entry = byDay.get(day) ?? { count: 0, trees: new Set<string>() }
    entry.count++
    const branch = SAMPLE_BRANCHES.find((candidate) => candidate.chatJid === message.chatJid)
    entry.trees.add(branch?.rootChatJid ?? message.chatJid)
    byDay.set(day, entry)
  }
  return [...byDay].filter(([, entry]) => entry.count > 50 && entry.trees.size > 2).map(([day]) => day)
}
