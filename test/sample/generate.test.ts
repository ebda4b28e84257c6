import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { openMessagesDb, type MessageRow } from '../../src/db/messages.js'
import { DreamlaneError } from '../../src/errors.js'
import { generateSample } from '../../src/sample/generate.js'
import type { FactKind, GenerateSampleInput } from '../../src/sample/types.js'
import { dayWindow, localDayOf, localTimeOf } from '../../src/time/local-day.js'
import { makeTempDir } from '../helpers/workspace.js'
import { hashDb, readMessageRows } from '../helpers/message-rows.js'

const NOW = new Date('2026-11-21T18:30:00Z')
const ZONE = 'Europe/Lisbon'
const TRIP = 'web:madeira'

async function sample(overrides: Partial<GenerateSampleInput> = {}) {
  const file = overrides.file ?? join(makeTempDir(), 'messages.db')
  const result = await generateSample({ file, now: NOW, timeZone: ZONE, ...overrides })
  return { file, result }
}

function allMessages(file: string): MessageRow[] {
  const db = openMessagesDb(file, { readonly: true })
  onTestFinished(() => db.close())
  return [...db.iterateWindow(new Date(0), new Date('2100-01-01T00:00:00Z'))]
}

async function rejection(promise: Promise<unknown>): Promise<DreamlaneError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(DreamlaneError)
  return error as DreamlaneError
}

describe('generateSample', () => {
  it('writes identical rows for the same input and different rows for another seed', async () => {
    const first = await sample()
    const again = await sample()
    const otherSeed = await sample({ seed: 2 })
    expect(hashDb(again.file)).toBe(hashDb(first.file))
    expect(again.result).toEqual(first.result)
    expect(hashDb(otherSeed.file)).not.toBe(hashDb(first.file))
  })

  it('creates the story chats, a conversation regenerated twice as branches, and no dream channel', async () => {
    const { file, result } = await sample()
    const db = openMessagesDb(file, { readonly: true })
    onTestFinished(() => db.close())
    const jids = db.listChats().map((chat) => chat.jid)
    expect(jids).toHaveLength(result.chats)
    expect(jids).toContain(result.mainChat)
    expect(db.rootOf('web:madeira/fork-1')).toBe(TRIP)
    expect(db.rootOf('web:madeira/fork-2')).toBe(TRIP)
    expect(db.rootOf(result.mainChat)).toBe(result.mainChat)
    const branches = db.db.prepare('SELECT * FROM chat_branches ORDER BY branch_id').all() as {
      chat_jid: string
      parent_branch_id: string | null
      created_at: string | null
    }[]
    expect(branches).toHaveLength(result.branches)
    expect(branches[1]?.parent_branch_id).toBe('branch-madeira-1')
    for (const branch of branches) {
      const messages = db.listChatMessages(branch.chat_jid)
      expect(messages.length).toBeGreaterThan(0)
      expect(branch.created_at).toBe(messages[0]?.timestamp)
    }
    expect(db.listDreamChannels()).toEqual([])
    expect(jids.filter((jid) => jid.startsWith('dream:'))).toEqual([])
    expect(new Set(allMessages(file).map((message) => message.rootJid)).size).toBe(5)
  })

  it.each(['Europe/Lisbon', 'America/Los_Angeles', 'Asia/Kolkata'])(
    'plants every fact in a user message with its exact text, on its local day in %s',
    async (timeZone) => {
      const { file, result } = await sample({ timeZone })
      const byId = new Map(allMessages(file).map((message) => [message.id, message]))
      expect(new Set(result.planted.map((fact) => fact.id)).size).toBe(result.planted.length)
      for (const fact of result.planted) {
        const message = byId.get(fact.messageId)
        expect(message, fact.id).toBeDefined()
        expect(message?.content).toBe(fact.text)
        expect(message).toMatchObject({ sender: 'user:maya', isBotMessage: false, isFromMe: false })
        expect(localDayOf(new Date(message?.timestamp ?? ''), timeZone)).toBe(fact.day)
        for (const needle of [...fact.mustContain, ...(fact.supersedes?.mustContain ?? [])]) {
          expect(fact.text.toLowerCase(), fact.id).toContain(needle.toLowerCase())
        }
      }
    },
  )

  it('plants every kind asked for, most within the last week and some before it', async () => {
    const { result } = await sample()
    const count = (kind: FactKind) => result.planted.filter((fact) => fact.kind === kind).length
    expect(count('preference')).toBeGreaterThanOrEqual(2)
    expect(count('identity')).toBeGreaterThanOrEqual(1)
    expect(count('relation')).toBeGreaterThanOrEqual(2)
    expect(count('decision')).toBeGreaterThanOrEqual(2)
    expect(count('plan')).toBeGreaterThanOrEqual(2)
    expect(count('feedback')).toBeGreaterThanOrEqual(2)
    expect(count('reference')).toBeGreaterThanOrEqual(1)
    const corrections = result.planted.filter((fact) => fact.kind === 'correction')
    expect(corrections).toHaveLength(1)
    expect(corrections[0]?.supersedes?.mustContain.length).toBeGreaterThan(0)
    const week = new Set(dayWindow(NOW, 7, ZONE).days)
    const recent = result.planted.filter((fact) => week.has(fact.day)).length
    expect(recent).toBeGreaterThan(result.planted.length / 2)
    expect(result.planted.length - recent).toBeGreaterThanOrEqual(3)
  })

  it('keeps the older statement a correction replaces earlier in the history', async () => {
    const { file, result } = await sample()
    const correction = result.planted.find((fact) => fact.kind === 'correction')
    const older = (correction?.supersedes?.mustContain ?? []).map((needle) => needle.toLowerCase())
    const earlier = allMessages(file).filter(
      (message) =>
        !message.isBotMessage &&
        localDayOf(new Date(message.timestamp), ZONE) < (correction?.day ?? '') &&
        older.every((needle) => message.content.toLowerCase().includes(needle)),
    )
    expect(earlier.length).toBeGreaterThan(0)
  })

  it('puts messages in waking hours before now, on most days and every recent one', async () => {
    const { file, result } = await sample()
    const messages = allMessages(file)
    expect(messages).toHaveLength(result.messages)
    for (const message of messages) {
      const at = new Date(message.timestamp)
      expect(at.getTime()).toBeLessThan(NOW.getTime())
      expect(localTimeOf(at, ZONE) >= '08:00').toBe(true)
    }
    const days = new Set(messages.map((message) => localDayOf(new Date(message.timestamp), ZONE)))
    const history = dayWindow(NOW, 21, ZONE).days
    expect(result.firstDay >= history[0]!).toBe(true)
    expect(result.lastDay).toBe(localDayOf(NOW, ZONE))
    expect(history.filter((day) => !days.has(day)).length).toBeGreaterThan(0)
    expect(days.size).toBeGreaterThanOrEqual(history.length * 0.75)
    expect(dayWindow(NOW, 7, ZONE).days.filter((day) => days.has(day)).length).toBeGreaterThanOrEqual(6)
  })

  it('has busy days with over 50 messages across more than 2 session trees, one in the last week', async () => {
    const { file, result } = await sample()
    const byDay = new Map<string, { count: number; trees: Set<string> }>()
    for (const message of allMessages(file)) {
      const day = localDayOf(new Date(message.timestamp), ZONE)
      const entry = byDay.get(day) ?? { count: 0, trees: new Set<string>() }
      entry.count++
      entry.trees.add(message.rootJid)
      byDay.set(day, entry)
    }
    const busy = [...byDay]
      .filter(([, entry]) => entry.count > 50 && entry.trees.size > 2)
      .map(([day]) => day)
    expect(busy.length).toBeGreaterThanOrEqual(1)
    expect(result.busyDays).toEqual(busy)
    const week = new Set(dayWindow(NOW, 7, ZONE).days)
    expect(busy.some((day) => week.has(day))).toBe(true)
  })

  it('includes content that could close an HTML comment, and emoji and accented text', async () => {
    const { file } = await sample()
    const contents = allMessages(file).map((message) => message.content)
    expect(contents.some((text) => text.includes('-->') && text.includes('--'))).toBe(true)
    expect(contents.some((text) => /\p{Extended_Pictographic}/u.test(text))).toBe(true)
    expect(contents.some((text) => /[À-ž]/u.test(text))).toBe(true)
  })

  it('marks assistant replies as bot messages from the assistant and user messages as not from me', async () => {
    const { file } = await sample()
    const rows = readMessageRows(file)
    const bot = rows.filter((row) => row.is_bot_message === 1)
    const human = rows.filter((row) => row.is_bot_message === 0)
    expect(bot.length).toBeGreaterThan(100)
    expect(human.length).toBeGreaterThan(100)
    expect(new Set(bot.map((row) => row.sender))).toEqual(new Set(['assistant']))
    expect(new Set(human.map((row) => `${row.sender}|${row.is_from_me}`))).toEqual(new Set(['user:maya|0']))
  })

  it('refuses to overwrite a DB that holds data unless asked, then replaces it', async () => {
    const { file } = await sample()
    const before = hashDb(file)
    const error = await rejection(sample({ file, seed: 2 }))
    expect(error.code).toBe('USAGE')
    expect(hashDb(file)).toBe(before)
    await sample({ file, seed: 2, overwrite: true })
    expect(hashDb(file)).not.toBe(before)
  })

  it('refuses a non-database file but fills an empty one', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'notes.txt'), 'not sqlite')
    await rejection(sample({ file: join(dir, 'notes.txt') }))
    writeFileSync(join(dir, 'empty.db'), '')
    const { result } = await sample({ file: join(dir, 'empty.db') })
    expect(result.messages).toBeGreaterThan(0)
  })

  it('rejects histories shorter than 10 days and unknown time zones', async () => {
    expect((await rejection(sample({ days: 9 }))).code).toBe('USAGE')
    expect((await rejection(sample({ timeZone: 'Mars/Olympus_Mons' }))).code).toBe('USAGE')
  })

  it.each([10, 45])('keeps the last week and every planted fact in a %i-day history', async (days) => {
    const standard = await sample()
    const { file, result } = await sample({ days })
    const history = new Set(dayWindow(NOW, days, ZONE).days)
    expect(result.planted.map((fact) => fact.id)).toEqual(standard.result.planted.map((fact) => fact.id))
    for (const fact of result.planted) expect(history.has(fact.day)).toBe(true)
    const week = new Set(dayWindow(NOW, 7, ZONE).days)
    const recentDays = (planted: typeof result.planted) =>
      planted.filter((fact) => week.has(fact.day)).map((fact) => `${fact.id}@${fact.day}`)
    expect(recentDays(result.planted)).toEqual(recentDays(standard.result.planted))
    expect(result.busyDays.length).toBeGreaterThanOrEqual(1)
    expect(
      allMessages(file).every((message) => history.has(localDayOf(new Date(message.timestamp), ZONE))),
    ).toBe(true)
  })
})
