// A small, escaping markdown renderer for notes: headings, lists, quotes, code, front matter, ~~struck~~, [[wikilinks]].
import { escapeHtml, raw, type SafeHtml } from './html.js'

/** Where a note's relative links and [[wikilinks]] point on the page that shows it (null: leave as written). */
export interface NoteLinks {
  href(target: string): string | null
  wiki(name: string): string | null
}

/**
 * Renders the subset of markdown the notes use. Every piece of text is escaped before any markup is added,
 * so a note can never inject HTML; links keep only relative and http(s) targets, relative ones mapped by `links`.
 */
export function renderMarkdown(source: string, links?: NoteLinks): SafeHtml {
  const out: string[] = []
  let text = source.replace(/\r\n?/g, '\n')
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text)
  if (front) {
    out.push(`<pre class="front-matter" aria-label="front matter">${escapeHtml(front[1] ?? '')}</pre>`)
    text = text.slice(front[0].length)
  }
  // Hidden blocks (DREAM_CUES, NEEDS_SUMMARY markers) are for the model; the reader sees that they exist.
  text = text.replace(
    /<!--([\s\S]*?)-->/g,
    (_match, body: string) => `\u0000hidden:${/^\s*(\w+)/.exec(body)?.[1] ?? 'note'}\u0000`,
  )
  const lines = text.split('\n')
  let list: 'ul' | 'ol' | null = null
  let paragraph: string[] = []
  const closeParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map((line) => inline(links, line)).join('<br>')}</p>`)
    paragraph = []
  }
  const closeList = () => {
    if (list) out.push(`</${list}>`)
    list = null
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    const fence = /^```/.test(line)
    if (fence) {
      closeParagraph()
      closeList()
      const code: string[] = []
      while (++index < lines.length && !/^```/.test(lines[index] ?? '')) code.push(lines[index] ?? '')
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`)
      continue
    }
    const hidden = /^\u0000hidden:(\w+)\u0000$/.exec(line.trim())
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line)
    const quote = /^>\s?(.*)$/.exec(line)
    if (line.trim() === '') {
      closeParagraph()
      closeList()
    } else if (hidden) {
      closeParagraph()
      closeList()
      out.push(`<p class="hidden-block">(hidden ${escapeHtml(hidden[1] ?? '')} block)</p>`)
    } else if (heading) {
      closeParagraph()
      closeList()
      // Note headings sit under the page's own h2 per file.
      const level = Math.min(6, (heading[1]?.length ?? 1) + 2)
      out.push(`<h${level}>${inline(links, heading[2] ?? '')}</h${level}>`)
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      closeParagraph()
      closeList()
      out.push('<hr>')
    } else if (item) {
      closeParagraph()
      const kind = /\d/.test(item[1] ?? '') ? 'ol' : 'ul'
      if (list !== kind) {
        closeList()
        out.push(`<${kind}>`)
        list = kind
      }
      out.push(`<li>${inline(links, item[2] ?? '')}</li>`)
    } else if (quote) {
      closeParagraph()
      closeList()
      out.push(`<blockquote><p>${inline(links, quote[1] ?? '')}</p></blockquote>`)
    } else {
      closeList()
      paragraph.push(line)
    }
  }
  closeParagraph()
  closeList()
  return raw(out.join('\n'))
}

/** Inline markup on escaped text: `code`, **bold**, *em*, ~~struck~~, [text](link), [[wikilink]]. */
function inline(links: NoteLinks | undefined, text: string): string {
  const codes: string[] = []
  let html = escapeHtml(text.replace(/\u0000hidden:(\w+)\u0000/g, '')).replace(
    /`([^`]+)`/g,
    (_m, code: string) => {
      codes.push(`<code>${code}</code>`)
      return `\u0001${codes.length - 1}\u0001`
    },
  )
  html = html
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/~~([^~]+)~~/g, '<del>$1</del>')
    .replace(/\[\[([^\]]+)\]\]/g, (_m, name: string) => {
      const href = links?.wiki(name)
      return href
        ? `<a class="wikilink" href="${escapeHtml(href)}">[[${name}]]</a>`
        : `<span class="wikilink">[[${name}]]</span>`
    })
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) => {
      if (!isSafeHref(href)) return `${label} (${href})`
      const mapped = /^https?:/i.test(href) ? null : links?.href(decodeEntities(href))
      return `<a href="${mapped ? escapeHtml(mapped) : href}">${label}</a>`
    })
  return html.replace(/\u0001(\d+)\u0001/g, (_m, index: string) => codes[Number(index)] ?? '')
}

/** The escaped href back to what the note says (escapeHtml ran over the whole line first). */
function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** http(s) links and relative note links only: no javascript:, data: or protocol-relative targets. */
function isSafeHref(href: string): boolean {
  if (/^https?:\/\//i.test(href)) return true
  return !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//')
}
