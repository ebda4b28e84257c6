// Injected timers, so schedules are tested by moving a clock instead of sleeping.

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemTimers: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms)
    handle.unref?.()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** setTimeout cannot wait longer than ~24.8 days; longer waits re-arm. */
export const MAX_TIMER_MS = 2 ** 31 - 1
