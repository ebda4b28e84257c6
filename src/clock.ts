// The injected source of "now": nothing below cli/, server/ and create.ts calls Date.now() directly.

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock frozen at `iso`, or one you can move by hand (tests, the demo). */
export function fixedClock(iso: string): Clock & { set(iso: string): void; advanceMs(ms: number): void } {
  let current = new Date(iso)
  return {
    now: () => new Date(current.getTime()),
    set: (next) => {
      current = new Date(next)
    },
    advanceMs: (ms) => {
      current = new Date(current.getTime() + ms)
    },
  }
}
