// Writes large synthetic JSONL exports for the streaming test and the bench, without holding them in memory.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

const WORDS = [
  'porto',
  'lisbon',
  'meeting',
  'sister',
  'birthday',
  'climbing',
  'project',
  'deadline',
  'coffee',
  'train',
  'budget',
  'garden',
]

/** Writes about `megabytes` MB of JSONL (20 interleaved chats, no ids, so every id is derived); returns the line count. */
export async function writeLargeJsonl(file: string, megabytes: number): Promise<number> {
  const out = createWriteStream(file)
  const target = megabytes * 1024 * 1024
  let written = 0
  let lines = 0
  const start = Date.UTC(2025, 0, 1)
  while (written < target) {
    let chunk = ''
    for (let i = 0; i < 1000; i++, lines++) {
      const words = Array.from({ length: 16 }, (_, k) => WORDS[(lines * 7 + k * 3) % WORDS.length]).join(' ')
      chunk +=
        JSON.stringify({
          chat: `bulk:${lines % 20}`,
          sender: lines % 2 ? 'bot' : 'alex',
          role: lines % 2 ? 'assistant' : 'user',
          content: `message ${lines}: ${words}`,
          timestamp: new Date(start + lines * 1000).toISOString(),
        }) + '\n'
    }
    written += Buffer.byteLength(chunk)
    if (!out.write(chunk)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return lines
}
