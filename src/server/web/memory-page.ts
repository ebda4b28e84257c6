// The Memory view: each memory file and the newest day pages, rendered, with a table of contents.
import type { ExcludedChats } from '../../app/chat-privacy.js'
import type { MemoryFileView } from '../memory-files.js'
import { html } from './html.js'
import { renderPage } from './layout.js'
import { renderMarkdown } from './markdown.js'
import { anchorOf, noteLinks } from './note-links.js'

export { anchorOf }

export function renderMemoryPage(
  files: MemoryFileView[],
  missing: string[],
  excluded: ExcludedChats = { patterns: [], spans: [] },
): string {
  const toc = files.map(
    (file) =>
      html`<li>
        <a href="#${anchorOf(file.path)}">${file.path}</a>
        <span class="muted">${(file.bytes / 1024).toFixed(1)} KB</span>
      </li>`,
  )
  const onPage = new Set(files.map((file) => file.path))
  const articles = files.map(
    (file) =>
      html`<article class="note" id="${anchorOf(file.path)}" aria-labelledby="${anchorOf(file.path)}-title">
        <h2 id="${anchorOf(file.path)}-title"><code>${file.path}</code></h2>
        <div class="markdown">${renderMarkdown(file.text, noteLinks(file.path, onPage))}</div>
      </article>`,
  )
  const body = html`<h1>Memory</h1>
    <p class="muted">
      What the assistant remembers, as the notes say it now. Dreams keep these files up to date.
    </p>
    ${missing.length ? html`<p class="warning">Missing memory files: ${missing.join(', ')} (the next dream creates them).</p>` : ''}
    ${renderExcluded(excluded)}
    <nav aria-labelledby="toc-title" class="toc">
      <h2 id="toc-title">Files</h2>
      <ul>
        ${toc}
      </ul>
    </nav>
    ${articles}`
  return renderPage({ title: 'Memory', page: 'memory', body })
}

/** One note under notes/ on its own page (where links from the Memory page lead). */
export function renderNotePage(path: string, text: string): string {
  const body = html`<h1><code>${path}</code></h1>
    <p class="muted"><a href="/memory">← Memory</a></p>
    <article class="note">
      <div class="markdown">${renderMarkdown(text, noteLinks(path, new Set()))}</div>
    </article>`
  return renderPage({ title: path, page: 'memory', body })
}

/** The chats memory never sees: `memory.excludeChats` patterns and `/private` stretches. */
function renderExcluded(excluded: ExcludedChats) {
  if (excluded.patterns.length === 0 && excluded.spans.length === 0) return ''
  const patterns = excluded.patterns.map(
    (pattern) => html`<li><code>${pattern}</code> (memory.excludeChats)</li>`,
  )
  const spans = excluded.spans.map(
    (span) =>
      html`<li>
        <code>${span.chatJid}</code> private
        ${span.until === null ? html`since ${span.from}` : html`from ${span.from} to ${span.until}`}
      </li>`,
  )
  return html`<section class="excluded-chats" aria-labelledby="excluded-title">
    <h2 id="excluded-title">Kept out of memory</h2>
    <p class="muted">Dreams, cues and the search index never see these chats (or these stretches of them).</p>
    <ul>
      ${patterns}${spans}
    </ul>
  </section>`
}
