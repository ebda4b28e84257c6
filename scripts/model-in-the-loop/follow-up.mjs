#!/usr/bin/env node
// follow-up.mjs WORKSPACE — after a first dream on the sample workspace, adds a later exchange to its main chat that
// restates two facts and changes one, so a second dream shows reinforcement and supersession:
//   the move to Porto and "no meetings before 10" said again, the Atlas launch moved from December 31 to January 8.
// The messages are stamped a few minutes before now, so `dreamlane dream --days 1` covers them.
import { createRequire } from 'node:module'
import { join } from 'node:path'

const workspace = process.argv[2]
if (!workspace) {
  console.error('usage: follow-up.mjs WORKSPACE')
  process.exit(2)
}
const require = createRequire(join(process.cwd(), 'package.json'))
const Database = require('better-sqlite3')
const db = new Database(join(workspace, '.dreamlane', 'messages.db'))
const chat = db
  .prepare(
    "SELECT chat_jid FROM messages WHERE sender = 'user:maya' GROUP BY chat_jid ORDER BY count(*) DESC LIMIT 1",
  )
  .get().chat_jid
const lines = [
  [
    'user',
    'settling in nicely here in Porto, the walk along Foz after work is the best thing about the move',
  ],
  ['assistant', 'Glad Porto is treating you well. Foz at sunset is hard to beat.'],
  ['user', 'and reminder, still no meetings before 10 for me. someone tried 9:30 again today'],
  ['assistant', 'Noted: nothing before 10. Want me to draft a polite decline?'],
  ['user', 'change of plan on Atlas: launch moved from December 31 to January 8, legal needs another week'],
  ['assistant', 'Got it: Atlas launch is now January 8.'],
]
const insert = db.prepare(
  'INSERT INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message) VALUES (?, ?, ?, ?, ?, ?, 0, ?)',
)
const start = Date.now() - 10 * 60_000
lines.forEach(([role, text], index) => {
  const at = new Date(start + index * 60_000).toISOString()
  const isUser = role === 'user'
  insert.run(
    `follow-up-${index + 1}`,
    chat,
    isUser ? 'user:maya' : 'assistant',
    isUser ? 'Maya' : 'Assistant',
    text,
    at,
    isUser ? 0 : 1,
  )
})
console.log(`added ${lines.length} messages to ${chat}`)
