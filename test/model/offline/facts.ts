// Fact literals for the offline engine's pure tests.
import type { Fact } from '../../../src/model/offline/types.js'

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
