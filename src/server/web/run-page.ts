// One dream run: its facts, live steps, summary, the diff of memory files, and its tool calls.
import type { RunRecord } from '../../dream/types.js'
import type { RunDiff } from '../run-diff.js'
import { isRunActive, type RunDetail } from '../run-view.js'
import { renderDiff } from './diff-view.js'
import { html, segment, type SafeHtml } from './html.js'
import { formatDuration, formatInstant, renderPage } from './layout.js'

/** Tool calls listed on the page; the API has them all. */
const MAX_TOOL_ROWS = 200

export interface RunPageInput {
  run: RunDetail
  /** The stored record: review state, loss flags, undo links. */
  record: RunRecord
  diff: RunDiff
  afterEventId: number
  notice?: string | null
}

function fact(label: string, value: SafeHtml | string): SafeHtml {
  return html`<div>
    <dt>${label}</dt>
    <dd>${value}</dd>
  </div>`
}

function renderFacts(run: RunDetail): SafeHtml {
  const tokens = run.tokens
  return html`<dl class="facts">
    ${fact('Status', html`<span class="status status-${run.status}" id="run-status">${run.status}</span>`)}
    ${fact('Mode', run.mode)} ${fact('Gate', run.gate ?? '—')} ${run.reason ? fact('Reason', run.reason) : ''}
    ${fact('Window', run.firstDay && run.lastDay ? `${run.firstDay} → ${run.lastDay} (${run.days} day(s))` : `${run.days} day(s)`)}
    ${fact('Chat', html`<a href="/chat/${segment(run.chatJid)}">${run.chatJid}</a>`)}
    ${fact('Created', formatInstant(run.createdAt))} ${fact('Duration', formatDuration(run.durationMs))}
    ${fact('Engine', `${run.provider ?? '—'}${run.model ? ` (${run.model})` : ''}`)}
    ${fact('Tokens', `${tokens.input.toLocaleString('en')} fresh input, ${tokens.output.toLocaleString('en')} out, ${tokens.cacheRead.toLocaleString('en')} cache read, ${tokens.cacheWrite.toLocaleString('en')} cache write`)}
    ${fact('Backup before', run.backupId ? html`<code>${run.backupId}</code>` : '—')}
    ${run.retryOf ? fact('Retry of', html`<a href="/dreams/${segment(run.retryOf)}">${run.retryOf}</a> (attempt ${run.attempt})`) : ''}
  </dl>`
}

function renderSteps(run: RunDetail): SafeHtml {
  return html`<ol class="steps" id="steps">
    ${run.steps.map(
      (step) =>
        html`<li class="${step.ok ? 'ok' : 'failed'}" data-step="${step.name}">
          <span class="step-name">${step.name}</span>
          <span class="step-result">${step.ok ? '✓' : '✗'} ${formatDuration(step.durationMs)}</span
          >${step.detail ? html` <span class="step-detail">${step.detail}</span>` : ''}
        </li>`,
    )}
  </ol>`
}

function renderToolCalls(run: RunDetail): SafeHtml {
  if (run.toolCalls.length === 0) return html`<p class="muted">No tool calls.</p>`
  const rows = run.toolCalls.slice(0, MAX_TOOL_ROWS).map(
    (call, index) =>
      html`<tr class="${call.ok ? 'ok' : 'failed'}">
        <td>${index + 1}</td>
        <td><code>${call.name}</code></td>
        <td>${call.ok ? 'ok' : (call.code ?? 'refused')}</td>
        <td>${formatDuration(call.durationMs)}</td>
        <td class="preview">${call.preview}</td>
      </tr>`,
  )
  const more =
    run.toolCalls.length > MAX_TOOL_ROWS
      ? html`<p class="muted">…and ${run.toolCalls.length - MAX_TOOL_ROWS} more (see the API).</p>`
      : ''
  return html`<table class="tool-calls">
      <caption>
        Tool calls in order
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Tool</th>
          <th scope="col">Result</th>
          <th scope="col">Time</th>
          <th scope="col">Preview</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    ${more}`
}

function actionForm(id: string, action: 'apply' | 'discard' | 'undo', label: string): SafeHtml {
  return html`<form method="post" action="/dreams/${segment(id)}/${action}" class="review-form">
    <button type="submit" data-action="${action}">${label}</button>
  </form>`
}

/** Why a run was held, what the loss guard flagged, and the one-step actions: apply/discard, or undo. */
function renderReview(record: RunRecord): SafeHtml {
  const flags = record.lossFlags.length
    ? html`<ul class="loss-flags">
        ${record.lossFlags.map((flag) => html`<li><strong>${flag.term}</strong> (${flag.kind}) vanished from <code>${flag.path}</code>: “${flag.line}”</li>`)}
      </ul>`
    : ''
  const totals = record.changes
    ? html`<p>
        ${record.changes.files} file(s) changed, +${record.changes.linesAdded}
        −${record.changes.linesRemoved}.
      </p>`
    : ''
  const unresolved = record.unresolvedDays.length
    ? html`<p class="unresolved">
        Still unresolved after the model pass:
        ${record.unresolvedDays.map((d) => `${d.day} (${d.state})`).join(', ')}.
      </p>`
    : ''
  let actions: SafeHtml | string = ''
  if (record.status === 'held') {
    actions = html`<p>
        <strong>Held for review</strong>: the workspace is as it was before this dream.
        ${record.holdReasons.join('; ')}
      </p>
      <div class="actions">
        ${actionForm(record.id, 'apply', 'Apply these changes')}
        ${actionForm(record.id, 'discard', 'Discard them')}
      </div>`
  } else if (record.undoneBy) {
    actions = html`<p>Undone by <a href="/dreams/${segment(record.undoneBy)}">${record.undoneBy}</a>.</p>`
  } else if (
    record.kind === 'dream' &&
    (record.status === 'succeeded' || record.status === 'degraded') &&
    record.changes &&
    record.changes.files > 0
  ) {
    actions = html`<div class="actions">${actionForm(record.id, 'undo', 'Undo this dream')}</div>`
  }
  if (!flags && !totals && !actions && !unresolved) return html``
  return html`<section aria-labelledby="review-title" id="review">
    <h2 id="review-title">Review</h2>
    ${totals}${unresolved}${flags}${actions}
  </section>`
}

export function renderRunPage(input: RunPageInput): string {
  const { run } = input
  const active = isRunActive(run)
  const retry = active
    ? ''
    : html`<form method="post" action="/dreams/${segment(run.id)}/retry" class="retry-form">
        <button type="submit">Retry this dream</button>
      </form>`
  const body = html`<p class="breadcrumb"><a href="/dreams">Dreams</a> › run</p>
    <h1>Dream <code>${run.id}</code></h1>
    ${renderFacts(run)} ${retry} ${renderReview(input.record)}
    <section aria-labelledby="steps-title">
      <h2 id="steps-title">Steps</h2>
      <p id="run-live" class="muted" aria-live="polite">
        ${active ? 'Running — steps appear as they finish.' : ''}
      </p>
      ${renderSteps(run)}
    </section>
    ${
      run.summary
        ? html`<section aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <div class="summary-text">${run.summary}</div>
          </section>`
        : ''
    }
    <section aria-labelledby="diff-title" id="diff">
      <h2 id="diff-title">Changes to memory files</h2>
      ${renderDiff(input.diff)}
    </section>
    <section aria-labelledby="tools-title">
      <h2 id="tools-title">Tool calls (${run.toolCalls.length})</h2>
      ${renderToolCalls(run)}
    </section>`
  return renderPage({
    title: `Dream ${run.id}`,
    page: 'run',
    body,
    notice: input.notice ?? null,
    data: { 'run-id': run.id, 'run-active': active ? 'yes' : 'no', after: String(input.afterEventId) },
  })
}
