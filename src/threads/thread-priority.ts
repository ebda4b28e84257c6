// Lowers the calling thread's CPU priority (Linux): a thread that reads for seconds then yields the cores to the
// event loop's thread, so timers and chat turns run on time even when other work fills both cores.
import { readdirSync, readlinkSync } from 'node:fs'
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
    const tid = thisThreadId()
    if (tid === null) return false
    if (getPriority(tid) < nice) setPriority(tid, nice)
    return true
  } catch {
    return false // no /proc, or not allowed: the thread keeps the default priority
  }
}

/**
 * Lowers every other thread of this process to at least `nice` (Linux) and returns how many it lowered. V8's
 * garbage-collection helpers and libuv's file pool serve all of a process's threads and start at the main
 * thread's priority: a dream's collections and file calls ran there as the event loop's equals, and held its core
 * when it woke. Threads started later start at the caller's priority again, so a host calls this before each dream.
 */
export function lowerOtherThreads(nice = BACKGROUND_NICE): number {
  if (process.platform !== 'linux') return 0
  let lowered = 0
  try {
    const self = thisThreadId()
    for (const entry of readdirSync('/proc/self/task')) {
      const tid = Number(entry)
      if (tid === self) continue
      try {
        if (getPriority(tid) < nice) (setPriority(tid, nice), lowered++)
      } catch {
        // the thread ended meanwhile, or may not be changed: it keeps its priority
      }
    }
  } catch {
    // no /proc: nothing to lower
  }
  return lowered
}

/** This thread's id: "/proc/thread-self" links to "<pid>/task/<tid>"; setpriority on a tid sets that thread alone. */
function thisThreadId(): number | null {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1))
  return Number.isInteger(tid) && tid > 0 ? tid : null
}
