import { readFileSync } from 'node:fs'

/** The calling thread's nice value from /proc (field 19 of its stat line, after the command name). */
export function niceOfThisThread(): number {
  return niceFromStat(readFileSync('/proc/thread-self/stat', 'utf8'))
}

/** Another thread of this process's nice value. */
export function niceOfThread(tid: number): number {
  return niceFromStat(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'))
}

function niceFromStat(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
}
