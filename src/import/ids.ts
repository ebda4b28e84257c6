// Stable ids for sources that have none, so a re-import (or a later, longer export) adds no duplicates.
import { createHash } from 'node:crypto'

/**
 * `<prefix>-<time>-<20 hex>` from the parts that identify a message in its source. Callers pass the
 * source's own wording (wall-clock time as written, not the converted UTC), so re-importing with another
 * --tz keeps ids. The leading digits of `time` make ids of a chat roughly time-ordered, so a big import
 * appends to the messages primary-key index instead of writing all over it (measured: ~3x faster).
 */
export function deriveId(prefix: string, time: string, parts: readonly (string | number)[]): string {
  const hash = createHash('sha256')
  hash.update(time).update('\u0000')
  for (const part of parts) hash.update(String(part)).update('\u0000')
  const digits = time.replace(/\D/g, '').slice(0, 14)
  return `${prefix}-${digits ? `${digits}-` : ''}${hash.digest('hex').slice(0, 20)}`
}

/** A jid-safe slug of a chat name; names with no letters or digits fall back to a hash. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return slug || deriveId('chat', '', [name]).slice(5)
}

/**
 * Numbers identical messages that share a chat and a timestamp ("ok", "ok" in the same minute), so each
 * keeps its own id. Only the current timestamp of each chat is remembered: memory stays flat for
 * time-ordered sources.
 */
export class OccurrenceCounter {
  readonly #byChat = new Map<string, { timestamp: string; seen: Map<string, number> }>()

  /** 0 for the first occurrence of `key` at `timestamp` in `chat`, 1 for the next, and so on. */
  next(chat: string, timestamp: string, key: string): number {
    let current = this.#byChat.get(chat)
    if (!current || current.timestamp !== timestamp) {
      current = { timestamp, seen: new Map() }
      this.#byChat.set(chat, current)
    }
    const count = current.seen.get(key) ?? 0
    current.seen.set(key, count + 1)
    return count
  }
}
