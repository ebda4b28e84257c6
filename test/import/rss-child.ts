// Child process of the streaming test: imports one file and prints its RSS before and its peak after (honest: own process).
import { importHistory } from '../../src/import/import-history.js'

const [source, messagesDb, tempDir] = process.argv.slice(2) as [string, string, string]
const before = process.memoryUsage().rss
const result = await importHistory({ source, messagesDb, tempDir, timeZone: 'UTC' })
const peak = process.resourceUsage().maxRSS * 1024
console.log(
  JSON.stringify({
    before,
    peak,
    growth: peak - before,
    messages: result.messages,
    chats: result.chats,
    invalid: result.invalid,
  }),
)
