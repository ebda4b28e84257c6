// Renders a run's diff: what it was compared with, then one collapsible table of changed lines per file.
import type { DiffHunk, FileDiff, RunDiff } from '../run-diff.js'
import { formatInstant } from './layout.js'
import { html, type SafeHtml } from './html.js'

const CHANGE_WORDS: Record<FileDiff['change'], string> = {
  added: 'added',
  removed: 'removed',
  modified: 'modified',
  unchanged: 'unchanged',
}

export function renderDiff(diff: RunDiff): SafeHtml {
  if (!diff.available) return html`<p class="muted">No diff: ${diff.reason ?? 'unavailable'}.</p>`
  const before = diff.before?.backupId ?? ''
  const against =
    diff.after?.kind === 'recorded'
      ? html`the files as this run left them (its change ledger)`
      : diff.after?.kind === 'next-backup'
        ? html`the next backup <code>${diff.after.backupId}</code> (taken
            ${formatInstant(diff.after.createdAt)}, after this run: the state it left)`
        : html`the <strong>current files</strong> (this run's changes plus anything changed since)`
  const intro = html`<p class="diff-basis">
    Before: backup <code>${before}</code> (taken just before the dream). After: ${against}.
  </p>`
  if (diff.files.length === 0)
    return html`${intro}
      <p class="muted">This run changed no memory files.</p>`
  return html`${intro}${diff.files.map(renderFile)}`
}

function renderFile(file: FileDiff): SafeHtml {
  const counts = file.change === 'unchanged' ? 'no difference now' : `+${file.additions} −${file.deletions}`
  const body = file.tooLarge
    ? html`<p class="muted">Too large to show line by line.</p>`
    : file.hunks.length === 0
      ? html`<p class="muted">No line changes.</p>`
      : html`<table class="diff">
          <caption class="visually-hidden">
            Changes to ${file.path}
          </caption>
          <thead>
            <tr>
              <th scope="col">Old</th>
              <th scope="col">New</th>
              <th scope="col">Line</th>
            </tr>
          </thead>
          <tbody>
            ${file.hunks.map(renderHunk)}
          </tbody>
        </table>`
  // Memory files open; seeded daily notes (long, mostly cues for the model) start folded.
  const isOpen = !file.path.startsWith('notes/daily/')
  return html`<details class="diff-file" ${isOpen ? html` open` : ''} data-path="${file.path}">
    <summary>
      <code>${file.path}</code> <span class="change change-${file.change}">${CHANGE_WORDS[file.change]}</span>
      <span class="counts">${counts}</span>
    </summary>
    ${body}
  </details>`
}

function renderHunk(hunk: DiffHunk): SafeHtml {
  let oldLine = hunk.oldStart
  let newLine = hunk.newStart
  const header = html`<tr class="hunk">
    <td colspan="3">@@ −${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</td>
  </tr>`
  const rows = hunk.lines.map((line) => {
    const mark = line[0]
    const text = line.slice(1)
    if (mark === '+')
      return html`<tr class="add">
        <td></td>
        <td>${newLine++}</td>
        <td><ins>${text}</ins></td>
      </tr>`
    if (mark === '-')
      return html`<tr class="del">
        <td>${oldLine++}</td>
        <td></td>
        <td><del>${text}</del></td>
      </tr>`
    if (mark === '\\')
      return html`<tr class="meta">
        <td></td>
        <td></td>
        <td>${text.trim()}</td>
      </tr>`
    return html`<tr class="ctx">
      <td>${oldLine++}</td>
      <td>${newLine++}</td>
      <td>${text}</td>
    </tr>`
  })
  return html`${header}${rows}`
}
