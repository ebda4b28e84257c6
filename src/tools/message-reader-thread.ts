// The message reader's thread (see message-reader.ts): its own read-only connection answers the tools' resolved
// queries with the JSON the tools return, and a dream's seeding with the window's gathered days.
import { openMessagesDb } from '../db/messages.js'
import { gatherHere } from '../notes/seed-gather.js'
import { serveThreadRequests, transferring } from '../threads/thread-service.js'
import { encodeText } from './encoded-text.js'
import { readChatsJson, readPageJson } from './message-json.js'
import type { ReaderRequest } from './message-reader.js'

serveThreadRequests((file) => {
  const messages = openMessagesDb(file as string, { readonly: true })
  return (value) => {
    const request = value as ReaderRequest
    if (request.kind === 'page') {
      // A page is up to ~700 KB of JSON: its bytes are moved, not copied, to the main thread and on from there.
      return readPageJson(messages, request.query, request.notes).then((json) => {
        const encoded = encodeText(json)
        return transferring(encoded, [encoded.utf8.buffer])
      })
    }
    if (request.kind === 'chats') return readChatsJson(messages, request.start, request.end, request.privacy)
    return gatherHere(messages, request.plan)
  }
})
