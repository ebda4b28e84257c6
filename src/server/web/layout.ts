// The page shell every view shares: skip link, navigation, one <main>, the stylesheet and the small script.
import { html, type SafeHtml } from './html.js'

export type PageName = 'chat' | 'dreams' | 'run' | 'memory' | 'error'

export interface PageOptions {
  title: string
  page: PageName
  body: SafeHtml
  /** data-* attributes on <body> the script reads (e.g. the chat jid, the run id). */
  data?: Record<string, string>
  /** A notice shown at the top of <main> (the result of a form post), announced politely. */
  notice?: string | null
}

const NAV: readonly { href: string; label: string; pages: readonly PageName[] }[] = [
  { href: '/chat', label: 'Chat', pages: ['chat'] },
  { href: '/dreams', label: 'Dreams', pages: ['dreams', 'run'] },
  { href: '/memory', label: 'Memory', pages: ['memory'] },
]

export function renderPage(options: PageOptions): string {
  const data = Object.entries(options.data ?? {}).map(([key, value]) => html` data-${key}="${value}"`)
  const nav = NAV.map((item) =>
    item.pages.includes(options.page)
      ? html`<li><a href="${item.href}" aria-current="page">${item.label}</a></li>`
      : html`<li><a href="${item.href}">${item.label}</a></li>`,
  )
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · dreamlane</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/app.css" />
        <script src="/assets/app.js" defer></script>
      </head>
      <body data-page="${options.page}" ${data}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <p class="brand"><a href="/">dreamlane</a></p>
          <nav aria-label="Main">
            <ul>
              ${nav}
            </ul>
          </nav>
        </header>
        <main id="main" tabindex="-1">
          <p class="notice" role="status" aria-live="polite" ${options.notice ? '' : ' hidden'}>
            ${options.notice ?? ''}
          </p>
          ${options.body}
        </main>
      </body>
    </html> `.value
}

/** "1.2 s", "350 ms", or "—". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—'
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`
}

/** "2026-11-21 20:00:05 UTC" from an ISO instant — the server's rendering is the no-JS fallback. */
export function formatInstant(iso: string | null): string {
  if (!iso) return '—'
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`
}
