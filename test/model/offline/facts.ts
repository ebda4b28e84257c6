// Fact and message literals for the offline engine's pure tests.
import type { Fact, WindowMessage } from '../../../src/model/offline/types.js'

/** A user.city fact (Porto, stated 2026-11-18) with `overrides`. */
export function fact(overrides: Partial<Fact> = {}): Fact {
  return {
    kind: 'identity',
    file: 'user.md',
    section: 'Identity',
    key: 'user.city',
    value: 'Porto',
    isSingle: true,
    headline: 'City: Porto',
    text: 'we moved to Porto',
    previous: null,
    isCorrection: false,
    day: '2026-11-18',
    ts: '2026-11-18T20:00:00.000Z',
    messageId: 'm1',
    chat: 'web:main',
    ...overrides,
  }
}

/**
 * A window message of the main chat (the user Li's at 2026-11-20 10:00 UTC unless `overrides` say otherwise); its
 * local day is the UTC day of its time, and an assistant's reply is sent by "Assistant".
 */
export function windowMessage(overrides: Partial<WindowMessage> & { content: string }): WindowMessage {
  const ts = overrides.ts ?? '2026-11-20T10:00:00.000Z'
  const chat = overrides.chat ?? 'web:main'
  return {
    ...{ id: 'm1', chat, root: chat, chatName: 'Main', role: 'user', ts, day: ts.slice(0, 10) },
    sender: overrides.role === 'assistant' ? 'Assistant' : 'Li',
    ...overrides,
  }
}
