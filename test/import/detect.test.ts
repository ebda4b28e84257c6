import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openImportSource } from '../../src/import/detect.js'
import { makeTempDir } from '../helpers/workspace.js'
import { fixture, writeExportZip } from './world.js'

async function formatOf(
  path: string,
  format: Parameters<typeof openImportSource>[1] = 'auto',
): Promise<string> {
  const opened = await openImportSource(path, format)
  opened.close()
  return opened.format
}

describe('openImportSource', () => {
  it('tells formats apart by extension, then by content when the name says nothing', async () => {
    const dir = makeTempDir()
    const copy = (from: string, name: string) => {
      copyFileSync(from, join(dir, name))
      return join(dir, name)
    }
    expect(await formatOf(fixture('conversations.json'))).toBe('chatgpt')
    expect(await formatOf(fixture('history.jsonl'))).toBe('jsonl')
    expect(await formatOf(fixture('WhatsApp Chat mit Lena.txt'))).toBe('whatsapp')
    expect(await formatOf(copy(fixture('conversations.json'), 'export-no-extension'))).toBe('chatgpt')
    expect(await formatOf(copy(fixture('history.jsonl'), 'lines.log'))).toBe('jsonl')
    expect(await formatOf(copy(fixture('whatsapp-ios/_chat.txt'), 'chat.export'))).toBe('whatsapp')
    const db = new Database(join(dir, 'messages.bin'))
    db.exec('CREATE TABLE t (x)')
    db.close()
    expect(await formatOf(join(dir, 'messages.bin'))).toBe('piclaw')
  })

  it('looks inside zips for conversations.json or a chat .txt', async () => {
    const dir = makeTempDir()
    const chatgpt = await writeExportZip(join(dir, 'a.zip'), { 'conversations.json': '[]', 'chat.html': '' })
    const whatsapp = await writeExportZip(join(dir, 'b.zip'), {
      'WhatsApp Chat with Kim.txt': readFileSync(fixture('WhatsApp Chat mit Lena.txt')),
      'IMG-1.jpg': 'x',
    })
    const other = await writeExportZip(join(dir, 'c.zip'), { 'notes.md': '# hi', 'a.txt': 'x', 'b.txt': 'y' })
    expect(await formatOf(chatgpt)).toBe('chatgpt')
    expect(await formatOf(whatsapp)).toBe('whatsapp')
    await expect(formatOf(other)).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/holds no conversations\.json/),
    })
    await expect(formatOf(chatgpt, 'whatsapp')).rejects.toMatchObject({ code: 'USAGE' })
  })

  it('names a missing source (exit 4 in the CLI) and asks for --format when it cannot tell', async () => {
    const dir = makeTempDir()
    await expect(formatOf(join(dir, 'nope.zip'))).rejects.toMatchObject({
      code: 'IMPORT_SOURCE_MISSING',
      message: expect.stringMatching(/import source not found: .*nope\.zip/),
    })
    writeFileSync(join(dir, 'mystery'), 'just some words\nnothing to see\n')
    await expect(formatOf(join(dir, 'mystery'))).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/pass --format/),
    })
    mkdirSync(join(dir, 'empty-folder'))
    await expect(formatOf(join(dir, 'empty-folder'))).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/without conversations\.json/),
    })
  })
})
