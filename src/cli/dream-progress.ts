// Prints a dream's steps as they happen (stderr), for `dreamlane dream` and `dreamlane demo`.
import type { DreamEvent } from '../dream/deps.js'

const STEP_WORDS: Record<string, string> = {
  lock: 'lock workspace',
  backup: 'back up notes',
  seed: 'seed daily notes',
  channel: 'open dream channel',
  model: 'model turn',
  fallback: 'offline fallback',
  index: 'index pass',
  review: 'ledger + loss guard',
  fts: 'refresh search index',
  cleanup: 'remove dream channel',
}

export function dreamProgressPrinter(write: (line: string) => void): (event: DreamEvent) => void {
  let tools = 0
  return (event) => {
    switch (event.type) {
      case 'queued':
        write(`dream ${event.run.id} queued (${event.run.mode}, last ${event.run.days} day(s))`)
        break
      case 'step':
        if (event.phase === 'start') {
          if (event.step === 'model' || event.step === 'fallback') tools = 0
          return
        }
        write(
          `  ${event.ok ? '✓' : '✗'} ${(STEP_WORDS[event.step] ?? event.step).padEnd(22)} ${String(event.durationMs ?? 0).padStart(6)} ms  ${event.detail ?? ''}`,
        )
        break
      case 'tool':
        tools += 1
        break
      case 'finished':
        write(
          `dream ${event.run.id} ${event.run.status}${tools ? ` after ${tools} tool call(s)` : ''}` +
            (event.run.status === 'succeeded' || !event.run.reason ? '' : `: ${event.run.reason}`),
        )
        break
    }
  }
}
