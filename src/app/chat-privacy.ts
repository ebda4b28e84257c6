// Use cases: private chats. `/private on|off` opens and closes a stretch of a chat in state.db; with
// `memory.excludeChats` it is what the dashboard lists as kept out of memory.
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import { PrivacyStore } from '../db/privacy-store.js'
import type { StateDb } from '../db/state.js'
import { compilePrivacy, type PrivateSpan } from '../privacy/rules.js'

export interface ChatPrivacyDeps {
  state: StateDb
  config: Pick<ResolvedConfig, 'memory'>
  clock: Clock
}

/** Whether a chat is kept out of memory: whole (config), or from `privateSince` on (`/private on`). */
export interface ChatPrivacy {
  excluded: boolean
  privateSince: string | null
}

/** What the dashboard shows: the configured patterns and every private stretch, open ones first. */
export interface ExcludedChats {
  patterns: string[]
  spans: PrivateSpan[]
}

export function chatPrivacyOf(deps: ChatPrivacyDeps, chatJid: string): ChatPrivacy {
  const excluded = compilePrivacy({
    excludeChats: deps.config.memory.excludeChats,
    privateSpans: [],
    forgotten: [],
  })
  return {
    excluded: excluded.isChatExcluded(chatJid),
    privateSince: new PrivacyStore(deps.state).openSpan(chatJid)?.from ?? null,
  }
}

/** Opens (`on`) or closes `chatJid`'s private stretch at the clock's now; false when nothing changed. */
export function setChatPrivate(deps: ChatPrivacyDeps, chatJid: string, on: boolean): boolean {
  const store = new PrivacyStore(deps.state)
  const now = deps.clock.now()
  return on ? store.startPrivate(chatJid, now) : store.endPrivate(chatJid, now)
}

export function listExcludedChats(deps: Pick<ChatPrivacyDeps, 'state' | 'config'>): ExcludedChats {
  const spans = new PrivacyStore(deps.state).listSpans()
  return {
    patterns: [...deps.config.memory.excludeChats],
    spans: [
      ...spans.filter((span) => span.until === null),
      ...spans.filter((span) => span.until !== null).reverse(),
    ],
  }
}
