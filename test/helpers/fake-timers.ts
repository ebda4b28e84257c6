// Timers driven by a fixed clock: advancing the clock fires what is due, in order, without sleeping.
import { fixedClock } from '../../src/clock.js'
import type { Timers } from '../../src/schedule/timers.js'

export function fakeTimers(startIso: string) {
  const clock = fixedClock(startIso)
  let seq = 0
  const pending = new Map<number, { at: number; callback: () => void }>()
  const timers: Timers = {
    setTimeout(callback, ms) {
      seq += 1
      pending.set(seq, { at: clock.now().getTime() + ms, callback })
      return seq
    },
    clearTimeout(handle) {
      pending.delete(handle as number)
    },
  }
  /** Moves the clock to `iso`, firing every timer due on the way (each at its own time). */
  async function advanceTo(iso: string): Promise<void> {
    const target = new Date(iso).getTime()
    for (;;) {
      const due = [...pending].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      pending.delete(due[0])
      clock.set(new Date(Math.max(due[1].at, clock.now().getTime())).toISOString())
      due[1].callback()
      // Let async callbacks (onFire) settle before the next timer.
      for (let i = 0; i < 20; i++) await Promise.resolve()
      await new Promise((resolve) => setImmediate(resolve))
    }
    clock.set(iso)
  }
  return { clock, timers, advanceTo, pendingCount: () => pending.size }
}
