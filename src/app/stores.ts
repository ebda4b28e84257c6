// The databases a Dreamlane keeps open: state.db, the messages DB, and the reader thread its dreams' message tools
// read pages on (so chat turns never wait behind one); closed together.
import { openMessagesDb, type MessagesDb } from '../db/messages.js'
import { openStateDb, type StateDb } from '../db/state.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { openMessageReader, readOnThisThread, type MessageReader } from '../tools/message-reader.js'
import type { DreamlaneOptions } from './dreamlane.js'

export interface WorkspaceStores {
  state: StateDb
  messages: MessagesDb
  messageReader: MessageReader
  close(): Promise<void>
}

export function openWorkspaceStores(
  paths: WorkspacePaths,
  options: Pick<DreamlaneOptions, 'messagesDbWait' | 'createMessagesDb' | 'messagesOnThread'>,
): WorkspaceStores {
  const state = openStateDb(paths.stateDb)
  const messages = openMessagesDb(paths.messagesDb, {
    ...options.messagesDbWait,
    create: options.createMessagesDb ?? false,
  })
  const messageReader =
    options.messagesOnThread === false ? readOnThisThread(messages) : openMessageReader(messages)
  return {
    state,
    messages,
    messageReader,
    async close() {
      await messageReader.close()
      if (messages.db.open) messages.close()
      if (state.open) state.close()
    },
  }
}
