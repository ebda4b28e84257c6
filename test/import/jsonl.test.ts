import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import { fixture, readDb, runImport } from './world.js'

const HISTORY = fixture('history.jsonl')

describe('JSONL import', () => {
  it('imports valid lines and reports the invalid ones by line number', async () => {
    const ws = makeWorkspace()
    const result = await runImport(ws, HISTORY, { timeZone: 'Europe/Berlin' })
    expect(result).toMatchObject({
      format: 'jsonl',
      chats: 2,
      messages: 4,
      skipped: 1,
      duplicates: 0,
      invalid: 3,
    })
    expect(result.problems).toEqual([
      { line: 4, reason: expect.stringMatching(/^not valid JSON/) },
      { line: 5, reason: 'role: expected "user" or "assistant"' },
      {
        line: 6,
        reason: 'timestamp: expected ISO 8601 (with or without offset) or epoch seconds/milliseconds',
      },
    ])
    const { messages, chats } = readDb(ws.paths.messagesDb)
    expect(messages.map((m) => [m.chat_jid, m.sender, m.sender_name, m.timestamp, m.is_bot_message])).toEqual(
      [
        ['slack:team', 'kim', 'kim', '2025-11-04T08:00:00.000Z', 0], // epoch seconds
        ['telegram:42', 'alex', 'Alex', '2025-11-02T09:00:00.000Z', 0],
        ['telegram:42', 'bot', 'bot', '2025-11-02T09:00:05.000Z', 1],
        ['telegram:42', 'alex', 'alex', '2025-11-03T17:30:00.000Z', 0], // zone-less, read in Europe/Berlin
      ],
    )
    expect(
      messages
        .filter((m) => m.chat_jid === 'telegram:42')
        .map((m) => m.id)
        .slice(0, 2),
    ).toEqual(['t1', 't2'])
    expect(chats.map((c) => [c.jid, c.name])).toEqual([
      ['slack:team', null],
      ['telegram:42', 'Old assistant'],
    ])
  })

  it('derives the same ids on every run for lines without one, so a re-import adds nothing', async () => {
    const ws = makeWorkspace()
    await runImport(ws, HISTORY)
    const first = readDb(ws.paths.messagesDb).messages.map((m) => m.id)
    expect(first.filter((id) => id.startsWith('jl-'))).toHaveLength(2)
    const again = await runImport(ws, HISTORY)
    expect(again).toMatchObject({ messages: 0, duplicates: 4, invalid: 3 })
    expect(readDb(ws.paths.messagesDb).messages.map((m) => m.id)).toEqual(first)
  })

  it('survives a BOM, CRLF line ends and bytes that are not UTF-8', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'export.jsonl')
    const line = (content: string, second: number) =>
      JSON.stringify({
        chat: 'c',
        sender: 'u',
        role: 'user',
        content,
        timestamp: `2025-01-01T00:00:0${second}Z`,
      })
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(`${line('first', 1)}\r\n`),
        Buffer.from('{"chat":"c","sender":"u","role":"user","content":"caf'),
        Buffer.from([0xe9, 0xff]), // Latin-1 é and a stray byte inside a string
        Buffer.from('","timestamp":"2025-01-01T00:00:02Z"}\r\n'),
        Buffer.from(`${line('third', 3)}\r\n`),
      ]),
    )
    const ws = makeWorkspace()
    const result = await runImport(ws, file)
    expect(result).toMatchObject({ messages: 3, invalid: 0 })
    expect(readDb(ws.paths.messagesDb).messages.map((m) => m.content)).toEqual([
      'first',
      'caf\ufffd\ufffd',
      'third',
    ])
  })

  it('puts lines without "chat" into the --chat-name chat, and refuses dream: chats', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'single.jsonl')
    writeFileSync(
      file,
      [
        '{"sender":"me","role":"user","content":"hello","timestamp":"2025-01-01T10:00:00Z"}',
        '{"chat":"dream:manual:x","sender":"me","role":"user","content":"sneaky","timestamp":"2025-01-01T10:00:00Z"}',
      ].join('\n'),
    )
    const ws = makeWorkspace()
    const result = await runImport(ws, file, { chatName: 'Old Bot' })
    expect(result.problems).toEqual([
      { line: 2, reason: 'chat: "dream:" chats are dreamlane\'s own channels' },
    ])
    expect(readDb(ws.paths.messagesDb).chats).toEqual([
      { jid: 'import:old-bot', name: 'Old Bot', last_message_time: '2025-01-01T10:00:00.000Z' },
    ])
    const without = await runImport(makeWorkspace(), file)
    expect(without.problems[0]).toEqual({
      line: 1,
      reason: 'chat: expected a non-empty string (or pass --chat-name)',
    })
  })

  it('--dry-run counts what would be new and writes nothing, not even the DB file', async () => {
    const ws = makeWorkspace()
    const dry = await runImport(ws, HISTORY, { dryRun: true })
    expect(dry).toMatchObject({ dryRun: true, chats: 2, messages: 4, duplicates: 0, invalid: 3 })
    expect(existsSync(ws.paths.messagesDb)).toBe(false)

    await runImport(ws, HISTORY)
    const dir = makeTempDir()
    const more = join(dir, 'more.jsonl')
    writeFileSync(
      more,
      `${readFileSync(HISTORY, 'utf8')}{"chat":"c2","sender":"x","role":"user","content":"new","timestamp":"2025-12-01T00:00:00Z"}\n`,
    )
    const before = readFileSync(ws.paths.messagesDb)
    const dryAgain = await runImport(ws, more, { dryRun: true })
    expect(dryAgain).toMatchObject({ chats: 3, messages: 1, duplicates: 4 })
    expect(readDb(ws.paths.messagesDb).messages).toHaveLength(4)
    expect(readFileSync(ws.paths.messagesDb).equals(before)).toBe(true)
  })

  it('counts a message repeated with the same id inside the source as a duplicate', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'dupes.jsonl')
    const line =
      '{"chat":"c","id":"same","sender":"u","role":"user","content":"once","timestamp":"2025-01-01T00:00:00Z"}'
    writeFileSync(file, `${line}\n${line}\n`)
    expect(await runImport(makeWorkspace(), file)).toMatchObject({ messages: 1, duplicates: 1 })
  })
})
