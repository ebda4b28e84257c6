// The import progress bar: a redrawn line on a terminal, a line per 10% step in logs; throttled, so it costs nothing.
import type { ImportProgress } from './types.js'

/** Where the bar goes (stderr) and how time is read (injected: nothing below cli/ reads the clock itself). */
export interface ProgressOutput {
  write(text: string): void
  isTTY: boolean
  nowMs(): number
}

export interface ProgressBar {
  update(progress: ImportProgress): void
  /** Ends the bar's line (call once, before printing the result). */
  finish(): void
}

const REDRAW_MS = 100

function amount(value: number, unit: ImportProgress['unit']): string {
  if (unit !== 'bytes') return value.toLocaleString('en-US')
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(0)} KB`
  return `${(value / (1024 * 1024)).toFixed(1)} MB`
}

/** `reading  [#########---------------]  38%  12.0/31.5 MB · 40,112 messages` */
export function renderProgress(progress: ImportProgress, width = 24): string {
  const share = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 1
  const filled = Math.round(share * width)
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`
  const label = progress.phase === 'read' ? 'reading' : 'writing'
  const counts = `${amount(progress.done, progress.unit)}/${amount(progress.total, progress.unit)}${progress.unit === 'chats' ? ' chats' : ''}`
  return `${label}  ${bar} ${String(Math.floor(share * 100)).padStart(3)}%  ${counts} · ${progress.messages.toLocaleString('en-US')} messages`
}

/** A bar that redraws at most every 100 ms on a TTY, and logs each 10% step of each phase elsewhere. */
export function createProgressBar(output: ProgressOutput): ProgressBar {
  let lastDrawMs = -Infinity
  let lastPhase: ImportProgress['phase'] | null = null
  let lastStep = -1
  let isLineOpen = false
  let latest: ImportProgress | null = null
  const draw = (progress: ImportProgress) => {
    output.write(`\r${renderProgress(progress)}\u001b[K`)
    isLineOpen = true
  }
  return {
    update(progress) {
      latest = progress
      const isNewPhase = progress.phase !== lastPhase
      if (output.isTTY) {
        if (isNewPhase && isLineOpen && lastPhase !== null) output.write('\n')
        const now = output.nowMs()
        if (isNewPhase || now - lastDrawMs >= REDRAW_MS) {
          draw(progress)
          lastDrawMs = now
        }
      } else {
        const step = progress.total > 0 ? Math.floor((progress.done / progress.total) * 10) : 10
        if (isNewPhase || step > lastStep) output.write(`${renderProgress(progress)}\n`)
        lastStep = isNewPhase || step > lastStep ? step : lastStep
      }
      lastPhase = progress.phase
    },
    finish() {
      if (output.isTTY && latest) draw(latest)
      if (isLineOpen) output.write('\n')
      isLineOpen = false
    },
  }
}
