// Shared fixtures for backup tests: a typical notes tree and a byte-level snapshot of a whole directory.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'

/** A notes tree with non-ASCII text, an empty file, nested day pages and a file bigger than one read. */
export const NOTES: Record<string, string> = {
  'notes/daily/2026-11-19.md': '---\ndate: 2026-11-19\n---\n# Thursday\n\nCafé with Zoë — 東京 trip 🚀\n',
  'notes/daily/2026-11-20.md': '---\ndate: 2026-11-20\n---\n# Friday\n\n- shipped v2\n',
  'notes/memory/MEMORY.md': '# Memory\n\n- [user](user.md)\n- [[2026-11-19]]\n',
  'notes/memory/user.md': 'Name: Zoë Ångström\nPrefers: ☕ black\n',
  'notes/memory/feedback.md': '',
  'notes/memory/days/2026-11-19.md': '# Distilled\n\nTokyo trip: 2027-03-02 → 2027-03-09\n',
  'notes/memory/project.md': `# Projects\n\n${'- launch checklist item with numbers 12345\n'.repeat(3000)}`,
}

/** Every file under `dir` (hidden ones included) as bytes; symlinks as `-> target`. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (folder: string, prefix: string): void => {
    for (const name of readdirSync(folder).sort()) {
      // notes/DREAMS.md is the dreams' append-only log (run ids, times): outside backups, undo and restore by design.
      if (prefix === '' && name === 'DREAMS.md') continue
      const full = join(folder, name)
      const path = prefix ? `${prefix}/${name}` : name
      const info = lstatSync(full)
      if (info.isSymbolicLink()) out[path] = `-> ${readlinkSync(full)}`
      else if (info.isDirectory()) walk(full, path)
      else out[path] = readFileSync(full).toString('base64')
    }
  }
  walk(dir, '')
  return out
}
