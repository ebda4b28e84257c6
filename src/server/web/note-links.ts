// Where the links inside a note lead on the web pages: to the note's section on the Memory page, or its own page.
import { posix } from 'node:path'
import type { NoteLinks } from './markdown.js'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A stable fragment id for a note path on the Memory page. */
export function anchorOf(path: string): string {
  return `file-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`
}

/** The page that shows one note by its workspace path. */
export function notePageHref(path: string): string {
  return `/note?path=${encodeURIComponent(path)}`
}

/**
 * Links for the note at `notePath`: a relative `user.md` or `days/2026-11-21.md` resolves against the note's
 * folder; one shown on this page (`onPage`) becomes its anchor, any other note under notes/ its own page.
 * `[[2026-11-21]]` is that day's page in notes/memory/days when shown here, else the daily note.
 */
export function noteLinks(notePath: string, onPage: ReadonlySet<string>): NoteLinks {
  const target = (path: string) => (onPage.has(path) ? `#${anchorOf(path)}` : notePageHref(path))
  return {
    href(href) {
      const [file = ''] = href.split('#')
      const path = posix.normalize(posix.join(posix.dirname(notePath), file))
      if (!path.startsWith('notes/') || !path.endsWith('.md')) return null
      return target(path)
    },
    wiki(name) {
      if (!DAY.test(name.trim())) return null
      const day = name.trim()
      const page = `notes/memory/days/${day}.md`
      return onPage.has(page) ? `#${anchorOf(page)}` : target(`notes/daily/${day}.md`)
    },
  }
}
