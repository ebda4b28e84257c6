// Lowers the calling thread's CPU priority (Linux): a thread that reads for seconds then yields the cores to the
// event loop's thread, so timers and chat turns run on time even when other work fills both cores.
import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** Nice value for background threads: a third of the main thread's CPU weight when the two compete. */
export const BACKGROUND_NICE = 5

/**
 * Sets this thread's nice value to at least `nice` (on Linux, where threads have their own; a process already run
 * nicer keeps its value); elsewhere it does nothing.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): boolean {
  if (process.platform !== 'linux') return false
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>"; setpriority on a tid sets that thread alone.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1))
    if (!Number.isInteger(tid) || tid <= 0) return false
    if (getPriority(tid) < nice) setPriority(tid, nice)
    return true
  } catch {
    return false // no /proc, or not allowed: the thread keeps the default priority
  }
}
