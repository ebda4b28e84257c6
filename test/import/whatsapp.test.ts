import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import { fixture, readDb, runImport, writeExportZip } from './world.js'

const US = fixture('WhatsApp Chat with Sam Lee.txt')
const DE = fixture('WhatsApp Chat mit Lena.txt')
const IOS = fixture('whatsapp-ios/_chat.txt')

describe('WhatsApp import', () => {
  it('reads an Android US export: 12-hour times, multi-line messages, media, system and deleted lines', async () => {
    const ws = makeWorkspace()
    const result = await runImport(ws, US, { timeZone: 'America/New_York', me: 'Alex Doe' })
    expect(result).toMatchObject({
      format: 'whatsapp',
      chats: 1,
      messages: 6,
      skipped: 3,
      duplicates: 0,
      invalid: 0,
    })
    const { messages, chats } = readDb(ws.paths.messagesDb)
    expect(chats).toEqual([
      { jid: 'whatsapp:sam-lee', name: 'Sam Lee', last_message_time: '2026-01-13T13:15:00.000Z' },
    ])
    expect(messages.map((m) => [m.timestamp, m.sender, m.content, m.is_from_me])).toEqual([
      ['2026-01-01T02:05:00.000Z', 'Alex Doe', 'Are we still on for the party tonight?', 1],
      [
        '2026-01-01T02:06:00.000Z',
        'Sam Lee',
        "Yes! Bring the playlist.\nAlso, Mia is coming at 10.\nAnd she's bringing the cake",
        0,
      ],
      ['2026-01-01T02:07:00.000Z', 'Sam Lee', '[media omitted]', 0],
      ['2026-01-01T02:07:00.000Z', 'Alex Doe', 'ok', 1],
      ['2026-01-01T02:07:00.000Z', 'Alex Doe', 'ok', 1],
      ['2026-01-13T13:15:00.000Z', 'Mia', 'Happy new year everyone 🎉', 0],
    ])
    // The two identical "ok" in the same minute are two messages with two ids.
    expect(new Set(messages.map((m) => m.id)).size).toBe(6)
    expect(messages.every((m) => m.is_bot_message === 0)).toBe(true)
  })

  it('reads a German export (D.M.YY, 24-hour) in the given zone', async () => {
    const ws = makeWorkspace()
    const result = await runImport(ws, DE, { timeZone: 'Europe/Berlin' })
    expect(result).toMatchObject({ chats: 1, messages: 4, skipped: 1, invalid: 0 })
    const { messages, chats } = readDb(ws.paths.messagesDb)
    expect(chats[0]).toMatchObject({ jid: 'whatsapp:lena', name: 'Lena' })
    expect(messages.map((m) => [m.timestamp, m.sender, m.content])).toEqual([
      ['2025-12-31T20:05:00.000Z', 'Jonas', 'Kommst du heute Abend?'],
      ['2025-12-31T20:06:00.000Z', 'Lena', 'Ja, ich bringe Sekt mit.\nUnd den Kuchen von Oma.'],
      ['2025-12-31T23:01:00.000Z', 'Jonas', 'Frohes neues Jahr!'],
      ['2025-12-31T23:02:00.000Z', 'Lena', '[media omitted]'],
    ])
  })

  it('reads the bracketed iOS form from a zip with media; the chat is named after the zip', async () => {
    const dir = makeTempDir()
    const zip = await writeExportZip(join(dir, 'WhatsApp Chat - Family.zip'), {
      '_chat.txt': readFileSync(IOS),
      '00000012-PHOTO-2025-12-31-21-08-00.jpg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
    })
    const ws = makeWorkspace()
    const result = await runImport(ws, zip, { timeZone: 'Europe/Berlin', me: 'Anna' })
    expect(result).toMatchObject({ format: 'whatsapp', chats: 1, messages: 5, skipped: 1, invalid: 0 })
    const { messages, chats } = readDb(ws.paths.messagesDb)
    expect(chats[0]).toMatchObject({ jid: 'whatsapp:family', name: 'Family' })
    expect(messages.map((m) => [m.timestamp, m.sender, m.content, m.is_from_me])).toEqual([
      ['2025-12-31T20:05:09.000Z', 'Anna', "Happy new year's eve!", 1],
      ['2025-12-31T20:06:10.000Z', 'Ben', 'Same to you.\nSee you at midnight.', 0],
      ['2025-12-31T20:07:00.000Z', 'Ben', '[media omitted]', 0],
      ['2025-12-31T20:08:00.000Z', 'Anna', '[attached: 00000012-PHOTO-2025-12-31-21-08-00.jpg]', 1],
      ['2025-12-31T23:00:30.000Z', 'Anna', '🎆', 1],
    ])
  })

  it('reports lines before the first message and impossible dates by line number, and imports the rest', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'WhatsApp Chat with Kim.txt')
    writeFileSync(
      file,
      [
        'exported by a tool that adds a banner',
        '[31/12/2025, 21:05:09] Kim: first',
        '[31/02/2025, 21:06:00] Kim: the 31st of February',
        'its continuation is dropped with it',
        '[01/01/2026, 09:00:00] Kim: second',
        'and a second line',
      ].join('\r\n'),
    )
    const ws = makeWorkspace()
    const result = await runImport(ws, file)
    expect(result).toMatchObject({ messages: 2, invalid: 2 })
    expect(result.problems).toEqual([
      { line: 1, reason: 'not a WhatsApp message line (no date/time header)' },
      { line: 3, reason: 'not a valid DMY date/time' },
    ])
    expect(readDb(ws.paths.messagesDb).messages.map((m) => m.content)).toEqual([
      'first',
      'second\nand a second line',
    ])
  })

  it('guesses day/month order when no date decides it, and --date-order overrides the guess', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'chat.txt')
    writeFileSync(file, '03/04/25, 10:00 - Kim: which month?\n')
    const ws = makeWorkspace()
    await runImport(ws, file)
    expect(readDb(ws.paths.messagesDb).messages[0]?.timestamp).toBe('2025-04-03T10:00:00.000Z')
    const other = makeWorkspace()
    await runImport(other, file, { dateOrder: 'mdy' })
    expect(readDb(other.paths.messagesDb).messages[0]?.timestamp).toBe('2025-03-04T10:00:00.000Z')
  })

  it('warns when --me matches nobody', async () => {
    const result = await runImport(makeWorkspace(), DE, { me: 'Lenaa' })
    expect(result.warnings).toEqual(['--me "Lenaa" matched no sender (senders: Jonas, Lena)'])
  })

  it('re-importing adds nothing, even a longer re-export or one read with another --tz', async () => {
    const ws = makeWorkspace()
    await runImport(ws, US, { timeZone: 'America/New_York' })
    const again = await runImport(ws, US, { timeZone: 'America/New_York' })
    expect(again).toMatchObject({ messages: 0, duplicates: 6 })
    const otherZone = await runImport(ws, US, { timeZone: 'Asia/Tokyo' })
    expect(otherZone).toMatchObject({ messages: 0, duplicates: 6 })

    const dir = makeTempDir()
    const longer = join(dir, 'WhatsApp Chat with Sam Lee.txt')
    writeFileSync(
      longer,
      `${readFileSync(US, 'utf8')}1/14/26, 7:00 AM - Sam Lee: new since the last export\n`,
    )
    const grown = await runImport(ws, longer, { timeZone: 'America/New_York' })
    expect(grown).toMatchObject({ messages: 1, duplicates: 6 })
    expect(readDb(ws.paths.messagesDb).messages).toHaveLength(7)
  })
})
