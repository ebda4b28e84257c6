// Expands a directory glob (`/srv/assistants/*`, `/data/*/ws`): `*` and `?` within one path segment, no `**`.
import { readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve, sep } from 'node:path'

const WILDCARD = /[*?]/

/** The directories matching `pattern` (relative to `baseDir`), sorted; dot-directories only when named. */
export function expandDirectoryGlob(pattern: string, baseDir: string): string[] {
  const absolute = isAbsolute(pattern) ? pattern : resolve(baseDir, pattern)
  const segments = absolute.split(sep).filter((segment) => segment !== '')
  let matches: string[] = [sep]
  for (const segment of segments) {
    matches = WILDCARD.test(segment)
      ? matches.flatMap((dir) =>
          childDirectories(dir)
            .filter((name) => segmentRegex(segment).test(name))
            .map((name) => join(dir, name)),
        )
      : matches.map((dir) => join(dir, segment))
  }
  return matches.filter(isDirectory).sort()
}

function segmentRegex(segment: string): RegExp {
  const body = segment
    .split('')
    .map((char) =>
      char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  // A leading wildcard does not match hidden directories, as in a shell.
  return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}${body}$`)
}

function childDirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    // An unreadable or missing parent simply matches nothing, as a shell glob would.
    return []
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
