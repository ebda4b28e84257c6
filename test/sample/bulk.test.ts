import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openMessagesDb } from '../../src/db/messages.js'
import { DreamlaneError } from '../../src/errors.js'
import { generateBulkMessages, type BulkInput } from '../../src/sample/bulk.js'
import { makeTempDir } from '../helpers/workspace.js'
import { hashRows, readMessageRows } from '../helpers/message-rows.js'

const NOW = new Date('2026-11-21T18:30:00Z')

function bulkInput(overrides: Partial<BulkInput> = {}): BulkInput {
  return {
    file: join(makeTempDir(), 'bulk.db'),
    now: NOW,
    timeZone: 'America/New_York',
    total: 3_000,
    windowDays: 7,
    windowMessages: 1_000,
    ...overrides,
  }
}

describe('generateBulkMessages', () => {
  it('puts exactly windowMessages in the window, with the same window rows whatever the total', async () => {
    const windowHashes: string[] = []
    for (const total of [3_000, 12_000]) {
      const input = bulkInput({ total })
      const { window } = await generateBulkMessages(input)
      const db = openMessagesDb(input.file, { readonly: true })
      try {
        expect(db.countWindow(window.start, window.end)).toBe(1_000)
        expect(db.countWindow(new Date(0), new Date('2100-01-01T00:00:00Z'))).toBe(total)
      } finally {
        db.close()
      }
      const inWindow = readMessageRows(input.file, window)
      expect(inWindow).toHaveLength(1_000)
      windowHashes.push(hashRows(inWindow))
    }
    expect(windowHashes[1]).toBe(windowHashes[0])
  })

  it('keeps history before the window and nothing after now', async () => {
    const input = bulkInput({ historyDays: 30 })
    const { window } = await generateBulkMessages(input)
    const rows = readMessageRows(input.file)
    const history = rows.filter((row) => row.id.startsWith('h'))
    expect(history).toHaveLength(2_000)
    const earliest = window.start.getTime() - 30 * 86_400_000
    for (const row of history) {
      const at = Date.parse(row.timestamp)
      expect(at >= earliest && at < window.start.getTime()).toBe(true)
    }
    expect(rows.every((row) => Date.parse(row.timestamp) < NOW.getTime())).toBe(true)
    expect(new Set(rows.map((row) => row.is_bot_message))).toEqual(new Set([0, 1]))
  })

  it('changes the window rows with the seed', async () => {
    const a = bulkInput()
    const b = bulkInput({ seed: 7 })
    const { window } = await generateBulkMessages(a)
    await generateBulkMessages(b)
    expect(hashRows(readMessageRows(b.file, window))).not.toBe(hashRows(readMessageRows(a.file, window)))
  })

  it('rejects a window larger than the total and refuses to overwrite data', async () => {
    await expect(generateBulkMessages(bulkInput({ total: 10, windowMessages: 11 }))).rejects.toBeInstanceOf(
      DreamlaneError,
    )
    const input = bulkInput({ total: 100, windowMessages: 10 })
    await generateBulkMessages(input)
    await expect(generateBulkMessages(input)).rejects.toMatchObject({ code: 'USAGE' })
    await expect(generateBulkMessages({ ...input, overwrite: true })).resolves.toMatchObject({ total: 100 })
  })
})
