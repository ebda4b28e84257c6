// The fleet section of the Dreams page (serve --fleet): queue counts and one row per workspace.
import type { FleetSummary } from '../../fleet/summary.js'
import { html, type SafeHtml } from './html.js'
import { formatInstant } from './layout.js'

export function renderFleetSection(summary: FleetSummary): SafeHtml {
  const { counts } = summary
  return html`<section aria-labelledby="fleet-title" id="fleet">
    <h2 id="fleet-title">Fleet</h2>
    <p>
      ${summary.workspaces.length} workspace(s); queue: ${counts.waiting} waiting, ${counts.active} active,
      ${counts.delayed} delayed, ${counts.failed} failed. <a href="/fleet">Jobs (bull-board)</a>
    </p>
    <table class="fleet">
      <caption>
        Each workspace's last dream, daily notes still needing a summary, and failed jobs
      </caption>
      <thead>
        <tr>
          <th scope="col">Workspace</th>
          <th scope="col">Zone</th>
          <th scope="col">Last dream</th>
          <th scope="col">Finished</th>
          <th scope="col">Backlog</th>
          <th scope="col">Failed jobs</th>
        </tr>
      </thead>
      <tbody>
        ${summary.workspaces.map(
          (ws) =>
            html`<tr data-workspace="${ws.id}">
              <th scope="row">${ws.id}</th>
              <td>${ws.timeZone}</td>
              <td>
                ${
                  ws.lastDream
                    ? html`<span class="status status-${ws.lastDream.status}">${ws.lastDream.status}</span>
                        (${ws.lastDream.mode})`
                    : '—'
                }
              </td>
              <td>${formatInstant(ws.lastDream?.finishedAt ?? null)}</td>
              <td>${ws.backlog}</td>
              <td>${ws.failedJobs}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`
}
