// The message reader's thread (see message-reader.ts): its own read-only connection answers the tools' resolved
// queries with the JSON the tools return.
import { openMessagesDb } from '../db/messages.js'
import { serveThreadRequests } from '../threads/thread-service.js'
import { readChatsJson, readPageJson } from './message-json.js'
import type { ReaderRequest } from './message-reader.js'

serveThreadRequests((file) => {
  const messages = openMessagesDb(file as string, { readonly: true })
  return (value) => {
    const request = value as ReaderRequest
    return request.kind === 'page'
      ? readPageJson(messages, request.query, request.notes)
      : readChatsJson(messages, request.start, request.end)
  }
})
