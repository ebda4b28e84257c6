// Path policy for the model's file tools: what may be read or written, checked on the text and again on disk.
import type { Stats } from 'node:fs'
import { lstat, realpath, stat } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import type { ResolvedConfig } from '../config/schema.js'
import { PathOutOfScopeError, ToolRefusal } from '../errors.js'
import { MEMORY_FILES, type WorkspacePaths } from '../notes/paths.js'
import type { DayWindow } from '../time/local-day.js'

/** A path that passed the policy: workspace-relative ('/'-separated), absolute, and what is on disk there. */
export interface ScopedPath {
  rel: string
  abs: string
  /** Stats of the (real) file or folder, or null when nothing is there yet. */
  stats: Stats | null
}

/** The three kinds of note a tool may write. */
export type WriteKind = 'daily' | 'memory' | 'day-page'

export interface WriteTarget extends ScopedPath {
  kind: WriteKind
  /** The note's day for daily notes and day pages. */
  day?: string
}

const DAY_NAME = /^(\d{4}-\d{2}-\d{2})\.md$/
const EXAMPLE = 'use a workspace-relative path such as notes/memory/user.md'

/**
 * Checks the text of a model-supplied path and returns it normalised ('/'-separated, no '.' or empty parts).
 * Refuses NUL and control characters, absolute paths, `..` parts, backslashes and hidden names.
 */
export function normalizeToolPath(raw: string): string {
  if (raw.includes('\0')) throw new PathOutOfScopeError(printable(raw), 'the path contains a NUL byte')
  if (/[\u0001-\u001f\u007f]/.test(raw)) {
    throw new PathOutOfScopeError(printable(raw), 'the path contains control characters')
  }
  if (raw.trim() === '') throw new PathOutOfScopeError(raw, `the path is empty; ${EXAMPLE}`)
  if (raw.startsWith('/') || raw.startsWith('\\') || raw.startsWith('~') || /^[A-Za-z]:/.test(raw)) {
    throw new PathOutOfScopeError(raw, `absolute paths are not allowed; ${EXAMPLE}`)
  }
  if (raw.includes('\\')) throw new PathOutOfScopeError(raw, `use '/' as the separator; ${EXAMPLE}`)
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.')
  if (parts.includes('..')) throw new PathOutOfScopeError(raw, `'..' escapes are not allowed; ${EXAMPLE}`)
  if (parts.some((part) => part.startsWith('.'))) {
    throw new PathOutOfScopeError(raw, 'hidden files and folders (names starting with ".") are off limits')
  }
  return parts.join('/')
}

/** The configured search roots as normalised workspace-relative paths ('' means the whole workspace). */
export function readRoots(paths: WorkspacePaths, config: ResolvedConfig): string[] {
  const roots: string[] = []
  for (const root of config.search.roots) {
    const candidate = isAbsolute(root) ? relative(paths.workspace, root).split(sep).join('/') : root
    try {
      roots.push(normalizeToolPath(candidate === '' ? '.' : candidate))
    } catch {
      // A root outside the workspace (or hidden) is simply not readable through tools.
    }
  }
  return roots
}

function isUnder(rel: string, root: string): boolean {
  return root === '' || rel === root || rel.startsWith(`${root}/`)
}

/** Why `rel` may not be read, or null: folders must lie under a root, files also need a text extension. */
function readRefusal(
  rel: string,
  kind: 'file' | 'dir',
  paths: WorkspacePaths,
  config: ResolvedConfig,
): string | null {
  const roots = readRoots(paths, config)
  if (!roots.some((root) => isUnder(rel, root))) {
    return `outside the readable folders (${roots.join(', ') || 'none configured'})`
  }
  if (kind === 'dir') return null
  const lower = rel.toLowerCase()
  if (!config.search.extensions.some((ext) => lower.endsWith(ext.toLowerCase()))) {
    return `not a text note (readable: ${config.search.extensions.join(', ')})`
  }
  return null
}

/** Resolves a path the model wants to read (a file) or list/grep (a folder). */
export async function resolveReadTarget(
  raw: string,
  kind: 'file' | 'dir',
  paths: WorkspacePaths,
  config: ResolvedConfig,
): Promise<ScopedPath> {
  const rel = normalizeToolPath(raw)
  const why = readRefusal(rel, kind, paths, config)
  if (why) throw new PathOutOfScopeError(raw, why)
  const { realRel, stats } = await resolveOnDisk(paths.workspace, rel, raw)
  if (realRel !== rel) {
    // A link to another readable note inside the workspace is harmless; anywhere else is not.
    const hidden = realRel.split('/').some((part) => part.startsWith('.'))
    if (hidden || readRefusal(realRel, kind, paths, config)) {
      throw new PathOutOfScopeError(raw, `a symlink in the path leads to a forbidden file (${realRel})`)
    }
  }
  if (!stats) {
    const hint = kind === 'file' ? 'list_files' : 'list_files on a parent folder'
    throw new ToolRefusal('NOT_FOUND', `${rel} does not exist; ${hint} shows what exists`)
  }
  if (kind === 'file' && !stats.isFile()) {
    throw new PathOutOfScopeError(raw, 'is a folder, not a file; use list_files')
  }
  if (kind === 'dir' && !stats.isDirectory()) throw new PathOutOfScopeError(raw, 'is a file, not a folder')
  return { rel, abs: join(paths.workspace, rel), stats }
}

/** Resolves a path the model wants to write: one of the allowed notes, reached without any symlink. */
export async function resolveWriteTarget(
  raw: string,
  paths: WorkspacePaths,
  window: DayWindow,
): Promise<WriteTarget> {
  const rel = normalizeToolPath(raw)
  const target = classifyWrite(rel, raw, paths, window)
  const { realRel, stats } = await resolveOnDisk(paths.workspace, rel, raw)
  if (realRel !== rel) {
    throw new PathOutOfScopeError(
      raw,
      `a symlink in the path leads to ${realRel}; writing through symlinks is refused`,
    )
  }
  if (stats && !stats.isFile()) throw new PathOutOfScopeError(raw, 'is not a regular file')
  return { rel, abs: join(paths.workspace, rel), stats, ...target }
}

function classifyWrite(
  rel: string,
  raw: string,
  paths: WorkspacePaths,
  window: DayWindow,
): Pick<WriteTarget, 'kind' | 'day'> {
  if (!rel.endsWith('.md')) {
    throw new PathOutOfScopeError(
      raw,
      'not .md: only markdown notes can be written (no JSON sidecars or other files)',
    )
  }
  const folder = dirname(rel)
  const name = basename(rel)
  const day = DAY_NAME.exec(name)?.[1]
  const windowText = `${window.firstDay} … ${window.lastDay}`
  if (folder === relativeTo(paths, paths.daily)) {
    if (!day || !isRealDay(day)) {
      throw new PathOutOfScopeError(raw, 'daily notes are named notes/daily/YYYY-MM-DD.md')
    }
    if (!window.days.includes(day)) {
      throw new PathOutOfScopeError(
        raw,
        `outside the window: only daily notes of ${windowText} may be written`,
      )
    }
    return { kind: 'daily', day }
  }
  if (folder === relativeTo(paths, paths.memory)) {
    if ((MEMORY_FILES as readonly string[]).includes(name)) return { kind: 'memory' }
    throw new PathOutOfScopeError(
      raw,
      `not a memory file: notes/memory/ holds only ${MEMORY_FILES.join(', ')}`,
    )
  }
  if (folder === relativeTo(paths, paths.days)) {
    if (day && isRealDay(day)) return { kind: 'day-page', day }
    throw new PathOutOfScopeError(raw, 'day pages are named notes/memory/days/YYYY-MM-DD.md')
  }
  throw new PathOutOfScopeError(
    raw,
    `not a writable note: writes go only to notes/daily/<day in ${windowText}>.md, ` +
      'notes/memory/<memory file> and notes/memory/days/YYYY-MM-DD.md',
  )
}

function relativeTo(paths: WorkspacePaths, abs: string): string {
  return relative(paths.workspace, abs).split(sep).join('/')
}

function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day)
}

/**
 * Where `rel` really is: the realpath of its deepest existing ancestor plus the rest, relative to the real
 * workspace. A differing answer means a symlink somewhere in the chain.
 */
async function resolveOnDisk(
  workspace: string,
  rel: string,
  raw: string,
): Promise<{ realRel: string; stats: Stats | null }> {
  const realWorkspace = await realpath(workspace)
  const rest: string[] = []
  let current = join(workspace, rel)
  for (;;) {
    try {
      const real = join(await realpath(current), ...rest.reverse())
      const realRel = relative(realWorkspace, real)
      if (realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel)) {
        throw new PathOutOfScopeError(raw, 'a symlink in the path leads outside the workspace')
      }
      return { realRel: realRel.split(sep).join('/'), stats: rest.length === 0 ? await stat(real) : null }
    } catch (error) {
      if (error instanceof PathOutOfScopeError) throw error
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ELOOP') throw new PathOutOfScopeError(raw, 'a symlink in the path loops')
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      // The entry exists but cannot be resolved: a symlink pointing at nothing.
      if (await lstat(current).catch(() => null)) {
        throw new PathOutOfScopeError(raw, 'a symlink in the path points nowhere')
      }
      const parent = dirname(current)
      if (parent === current) throw error
      rest.push(basename(current))
      current = parent
    }
  }
}

/** Control characters shown escaped so an error message stays one readable line. */
function printable(raw: string): string {
  return JSON.stringify(raw).slice(1, -1)
}
