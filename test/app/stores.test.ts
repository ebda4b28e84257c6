// A Dreamlane's stores: which reader its dreams' message tools and seeding read through.
import { describe, expect, it } from 'vitest'
import { openWorkspaceStores } from '../../src/app/stores.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

const MESSAGE = {
  chatJid: 'chat:a',
  content: 'Booked the Lisbon flat',
  timestamp: '2026-11-22T08:00:00.000Z',
}

describe('openWorkspaceStores', () => {
  it.each([
    [{}, true],
    [{ messagesOnThread: true }, true],
    [{ messagesOnThread: false }, false], // a fleet worker: no chat to keep responsive, no thread to start
  ])('with %j reads a WAL messages DB on a reader thread: %s', async (options, onThread) => {
    const ws = makeWorkspace()
    makeMessagesDb(ws.paths, [MESSAGE]).close()
    const stores = openWorkspaceStores(ws.paths, options)
    try {
      expect(stores.messageReader.onThread).toBe(onThread)
      const chats = JSON.parse(
        await stores.messageReader.chats(new Date('2026-11-22T00:00:00Z'), new Date('2026-11-23T00:00:00Z')),
      ) as unknown
      expect(JSON.stringify(chats)).toContain('chat:a')
    } finally {
      await stores.close()
    }
  })
})
