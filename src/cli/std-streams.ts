// stdout and stderr for a CLI run: a reader that went away never crashes it, and a run whose stdout is only its
// result can write it without creating process.stdout (on a pipe that stream loads net and the stream modules,
// about 5 ms of `dreamlane status`).
import { writeSync } from 'node:fs'

let guarded = false

/**
 * From now on EPIPE on stdout or stderr is ignored: a reader that went away (`dreamlane dream | head -3`) must not
 * kill a dream half-way; the rest of the output is dropped and the run still closes and releases its lock.
 */
export function ignoreClosedReaders(): void {
  if (guarded) return
  guarded = true
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
    })
  }
}

/** `text` and a newline on stdout, written to its file descriptor; dropped if the reader went away. */
export function printLine(text: string): void {
  writeLine(1, text)
}

/**
 * `text` and a newline on stderr (progress, notices): to the file descriptor while no stream exists (creating
 * process.stderr on a pipe was ~4 ms of `backups create`), else through the stream, so lines keep their order.
 */
export function printErrorLine(text: string): void {
  if (guarded) process.stderr.write(`${text}\n`)
  else writeLine(2, text)
}

function writeLine(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(`${text}\n`)
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EPIPE') return
      if (code !== 'EAGAIN') throw error
      // A full pipe someone made non-blocking: the stream waits for the reader and keeps the process alive.
      ignoreClosedReaders()
      ;(fd === 1 ? process.stdout : process.stderr).write(rest)
      return
    }
  }
}
