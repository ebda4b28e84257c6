import { readFileSync } from 'node:fs'

/** The calling thread's nice value from /proc (field 19 of its stat line, after the command name). */
export function niceOfThisThread(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
}
