// The Dreams dashboard: next AutoDream and engine, a "dream now" form, the runs table, backups with restore.
import type { BackupSummary } from '../../backup/list.js'
import type { StatusView } from '../routes/status.js'
import type { RunSummary } from '../run-view.js'
import type { FleetSummary } from '../../fleet/summary.js'
import { renderFleetSection } from './fleet-section.js'
import { html, segment, type SafeHtml } from './html.js'
import { formatDuration, formatInstant, renderPage } from './layout.js'

export interface DreamsPageInput {
  status: StatusView
  runs: RunSummary[]
  backups: BackupSummary[]
  /** The fleet this server shows (serve --fleet). @default none */
  fleet?: FleetSummary | null
  defaultDays: number
  maxDays: number
  afterEventId: number
  notice?: string | null
}

export function renderRunRow(run: RunSummary): SafeHtml {
  const window = run.firstDay && run.lastDay ? `${run.firstDay} → ${run.lastDay}` : `${run.days} day(s)`
  return html`<tr data-run-id="${run.id}">
    <th scope="row"><a href="/dreams/${segment(run.id)}">${run.id}</a></th>
    <td>
      ${run.kind === 'undo' ? html`undo of <a href="/dreams/${segment(run.undoOf ?? '')}">${run.undoOf}</a>` : run.mode}
    </td>
    <td><span class="status status-${run.status}">${run.status}</span> <span class="progress"></span></td>
    <td>${run.kind === 'undo' ? '—' : (run.gate ?? '—')}</td>
    <td>${window}</td>
    <td>${formatInstant(run.startedAt ?? run.createdAt)}</td>
    <td>${formatDuration(run.durationMs)}</td>
    <td>${run.tokens.total.toLocaleString('en')}</td>
    <td>${run.changedFiles.length}</td>
  </tr>`
}

function renderStatus(status: StatusView): SafeHtml {
  const auto = status.autoDream
  const next = auto.enabled ? (auto.nextRunLocal ?? 'not scheduled') : 'off'
  return html`<dl class="facts">
    <div>
      <dt>Next AutoDream</dt>
      <dd id="next-autodream">${next}</dd>
    </div>
    <div>
      <dt>Schedule</dt>
      <dd><code>${auto.cron}</code>${auto.enabled ? '' : ' (off — /dreaming on)'}</dd>
    </div>
    <div>
      <dt>Engine</dt>
      <dd>${status.provider}${status.model ? ` (${status.model})` : ''}</dd>
    </div>
    <div>
      <dt>Last consolidated</dt>
      <dd>${formatInstant(status.lastConsolidated)}</dd>
    </div>
    <div>
      <dt>Daily notes needing a summary</dt>
      <dd>${status.backlog.length}</dd>
    </div>
    <div>
      <dt>Memory</dt>
      <dd>
        ${status.notes.memoryFiles}/7 files, ${(status.notes.memoryBytes / 1024).toFixed(1)} KB,
        ${status.notes.dayPages} day page(s), ${status.notes.dailyNotes} daily note(s)
      </dd>
    </div>
    <div>
      <dt>Recall</dt>
      <dd>
        ${status.memory.shortTerm} short-term (${status.memory.ready} ready), ${status.memory.promoted}
        promoted, ${status.memory.events} event(s)
      </dd>
    </div>
    <div>
      <dt>AutoDream gate now</dt>
      <dd id="gate-now"><code>${status.gate.outcome}</code> — ${status.gate.reason}</dd>
    </div>
    <div>
      <dt>Promotion sweeps</dt>
      <dd id="sweeps">
        ${status.sweeps.mode === 'off' ? 'off (/dreaming core|deep|rem)' : `${status.sweeps.mode} preset, deep next ${status.sweeps.nextLocal.deep ?? 'not scheduled'}`}
        <form method="post" action="/promotions" class="promote-form">
          <button type="submit">Promote now</button>
        </form>
      </dd>
    </div>
  </dl>`
}

function renderBackups(backups: BackupSummary[]): SafeHtml {
  if (backups.length === 0)
    return html`<p class="muted">No backups yet: every dream takes one before it changes anything.</p>`
  const rows = backups.map(
    (backup) =>
      html`<tr data-backup-id="${backup.id}">
        <th scope="row"><code>${backup.id}</code></th>
        <td>${backup.mode}</td>
        <td>${formatInstant(backup.createdAt)}</td>
        <td>${(backup.bytes / 1024).toFixed(1)} KB</td>
        <td>
          <form
            method="post"
            action="/backups/${segment(backup.id)}/restore"
            class="restore-form"
            data-confirm="Restore notes from ${backup.id}? A safety backup of the current notes is taken first."
          >
            <button type="submit">Restore<span class="visually-hidden"> ${backup.id}</span></button>
          </form>
        </td>
      </tr>`,
  )
  return html`<table class="backups">
    <caption>
      Backups of notes/daily and notes/memory, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Backup</th>
        <th scope="col">Taken by</th>
        <th scope="col">Created</th>
        <th scope="col">Size</th>
        <th scope="col">Action</th>
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`
}

export function renderDreamsPage(input: DreamsPageInput): string {
  const runs = input.runs.length
    ? html`<table class="runs" id="runs">
        <caption>
          Recent dream runs, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Mode</th>
            <th scope="col">Status</th>
            <th scope="col">Gate</th>
            <th scope="col">Window</th>
            <th scope="col">Started</th>
            <th scope="col">Duration</th>
            <th scope="col">Tokens</th>
            <th scope="col">Files</th>
          </tr>
        </thead>
        <tbody>
          ${input.runs.map(renderRunRow)}
        </tbody>
      </table>`
    : html`<p class="muted" id="runs">
        No dreams yet. Start one below or type <code>/dream</code> in the chat.
      </p>`
  const body = html`<h1>Dreams</h1>
    <section aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      ${renderStatus(input.status)}
    </section>
    ${input.fleet ? renderFleetSection(input.fleet) : ''}
    <section aria-labelledby="trigger-title">
      <h2 id="trigger-title">Dream now</h2>
      <form method="post" action="/dreams" class="trigger-form">
        <label for="days">Days to consolidate</label>
        <input
          id="days"
          name="days"
          type="number"
          min="1"
          max="${input.maxDays}"
          value="${input.defaultDays}"
          required
        />
        <button type="submit">Start dream</button>
      </form>
    </section>
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      ${runs}
    </section>
    <section aria-labelledby="backups-title" id="backups">
      <h2 id="backups-title">Backups</h2>
      ${renderBackups(input.backups)}
    </section>`
  return renderPage({
    title: 'Dreams',
    page: 'dreams',
    body,
    notice: input.notice ?? null,
    data: { after: String(input.afterEventId) },
  })
}
