// The message reader's thread (see message-reader.ts): its own read-only connection answers the tools' resolved
// queries with the JSON the tools return, and a dream's seeding with the window's gathered days.
import { openMessagesDb } from '../db/messages.js'
import { gatherHere } from '../notes/seed-gather.js'
import { serveThreadRequests } from '../threads/thread-service.js'
import { readChatsJson, readPageJson } from './message-json.js'
import type { ReaderRequest } from './message-reader.js'

serveThreadRequests((file) => {
  const messages = openMessagesDb(file as string, { readonly: true })
  return (value) => {
    const request = value as ReaderRequest
    if (request.kind === 'page') return readPageJson(messages, request.query, request.notes)
    if (request.kind === 'chats') return readChatsJson(messages, request.start, request.end)
    return gatherHere(messages, request.plan)
  }
})
