// The dream channel: a courtesy copy of the turn in the messages DB, written in batches and removed at the end.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { CHANNEL_FLUSH_MS, openDreamChannel } from '../../src/dream/channel.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

const AT = new Date('2026-11-21T10:00:00.000Z')

function channelWorld() {
  const ws = makeWorkspace()
  const messages = makeMessagesDb(ws.paths, [])
  const rows = (jid: string) =>
    messages.db
      .prepare('SELECT id, sender, content, timestamp FROM messages WHERE chat_jid = ? ORDER BY id')
      .all(jid) as { id: string; sender: string; content: string; timestamp: string }[]
  return { messages, rows }
}

describe('openDreamChannel', () => {
  it('writes appended entries together, in order, within CHANNEL_FLUSH_MS', async () => {
    const { messages, rows } = channelWorld()
    const channel = openDreamChannel(messages, 'manual', 'web:main', AT)
    expect(messages.listDreamChannels()).toEqual([channel.jid])
    channel.append({ kind: 'tool_call', name: 'read_file', input: { path: 'notes/a.md' } }, AT)
    channel.append({ kind: 'tool_result', name: 'read_file', ok: true, content: 'x'.repeat(9000) }, AT)
    channel.append({ kind: 'text', role: 'assistant', text: 'done' }, new Date(AT.getTime() + 1000))
    expect(rows(channel.jid)).toEqual([])
    await sleep(CHANNEL_FLUSH_MS + 100)
    expect(rows(channel.jid)).toEqual([
      {
        id: `${channel.jid}:000001`,
        sender: 'dream',
        content: '[tool_call read_file] {"path":"notes/a.md"}',
        timestamp: AT.toISOString(),
      },
      {
        id: `${channel.jid}:000002`,
        sender: 'tools',
        content: `[tool_result read_file ok] ${'x'.repeat(8000 - 27)}…`,
        timestamp: AT.toISOString(),
      },
      {
        id: `${channel.jid}:000003`,
        sender: 'dream',
        content: 'done',
        timestamp: '2026-11-21T10:00:01.000Z',
      },
    ])
  })

  it('writes what is still pending when removed, and counts it among the removed', () => {
    const { messages, rows } = channelWorld()
    const channel = openDreamChannel(messages, 'auto', 'web:main', AT)
    channel.append({ kind: 'text', role: 'assistant', text: 'one' }, AT)
    channel.append({ kind: 'text', role: 'user', text: 'two' }, AT)
    expect(channel.remove()).toBe(2)
    expect(rows(channel.jid)).toEqual([])
    expect(messages.listDreamChannels()).toEqual([])
  })

  it('reports the first failed write and skips the rest, and the removal still runs', async () => {
    const { messages } = channelWorld()
    const errors: unknown[] = []
    const channel = openDreamChannel(messages, 'manual', 'web:main', AT, (error) => errors.push(error))
    messages.db.exec(
      'CREATE TRIGGER no_rows BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, "refused"); END',
    )
    channel.append({ kind: 'text', role: 'assistant', text: 'lost' }, AT)
    await sleep(CHANNEL_FLUSH_MS + 100)
    channel.append({ kind: 'text', role: 'assistant', text: 'skipped' }, AT)
    await sleep(CHANNEL_FLUSH_MS + 100)
    expect(errors).toHaveLength(1)
    expect(String(errors[0])).toContain('refused')
    expect(channel.remove()).toBe(0)
    expect(messages.listDreamChannels()).toEqual([])
  })
})
