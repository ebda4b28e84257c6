// The model's note tools (read_file, write_file, edit_file, list_files, grep_notes) behind the path policy.
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { PathOutOfScopeError, ToolRefusal } from '../errors.js'
import { decodeNoteText } from '../notes/note-text.js'
import { finishDayTool } from './finish-day.js'
import { normalizeToolPath, readRoots, resolveReadTarget, resolveWriteTarget } from './scope.js'
import type { ToolContext, ToolDefinition } from './types.js'
import { walkTextFiles } from './walk.js'
import { writeNote } from './write-note.js'

/** list_files shows at most this many paths; the walk stops later on, so a huge tree stays cheap. */
export const LIST_MAX_FILES = 1000
const LIST_SCAN_MAX = 20_000
/** grep_notes shows at most this many characters of a matching line. */
const GREP_LINE_MAX_CHARS = 240

const notePath = z.string().describe('Workspace-relative path with "/" separators, e.g. notes/memory/user.md')
const noteText = z.string().refine((text) => !text.includes('\0'), 'must be text (no NUL bytes)')

const readInput = z.strictObject({ path: notePath })

export const readFileTool: ToolDefinition<z.infer<typeof readInput>> = {
  name: 'read_file',
  description:
    'Read a text note under the searchable folders (notes/, skills/). Returns the raw file text; ' +
    'very large files are cut off with a note at the end.',
  input: readInput,
  async run(input, context) {
    const target = await resolveReadTarget(input.path, 'file', context.paths, context.config)
    // Anything the tools may write fits whole, so a note can always be read back in full before editing it.
    const maxBytes = context.config.tools.maxWriteBytes
    const size = target.stats?.size ?? 0
    const text =
      size > maxBytes
        ? await readHead(target.abs, maxBytes)
        : decodeNoteText(await readFile(target.abs), target.rel)
    if (text.includes('\0')) {
      throw new PathOutOfScopeError(input.path, 'not a text file (it contains NUL bytes)')
    }
    if (size <= maxBytes) return text
    const shown = text.slice(0, text.lastIndexOf('\n') + 1 || text.length)
    const bytes = Buffer.byteLength(shown)
    return (
      `${shown}\n[truncated: showing the first ${bytes} of ${size} bytes of ${target.rel}; ` +
      'use grep_notes to find specific lines]'
    )
  },
}

async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await handle.close()
  }
}

const writeInput = z.strictObject({
  path: notePath,
  content: noteText.describe('The whole new file content'),
})

export const writeFileTool: ToolDefinition<z.infer<typeof writeInput>> = {
  name: 'write_file',
  description:
    'Create or replace a note. Allowed targets only: notes/daily/YYYY-MM-DD.md for days in this ' +
    "run's window (front matter keys must stay intact), the memory files notes/memory/{MEMORY," +
    'current-state,recent-context,user,feedback,project,reference}.md, and notes/memory/days/' +
    'YYYY-MM-DD.md pages.',
  input: writeInput,
  async run(input, context, signal) {
    const target = await resolveWriteTarget(input.path, context.paths, context.window)
    return writeNote(target, input.content, context, signal)
  },
}

const editInput = z.strictObject({
  path: notePath,
  old_string: z.string().min(1).describe('Exact text to find (copy it from read_file, including whitespace)'),
  new_string: noteText.describe('Replacement text'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence instead of exactly one'),
})

export const editFileTool: ToolDefinition<z.infer<typeof editInput>> = {
  name: 'edit_file',
  description:
    'Replace an exact string in an existing writable note (same targets as write_file). ' +
    'old_string must occur exactly once unless replace_all is true.',
  input: editInput,
  async run(input, context, signal) {
    const target = await resolveWriteTarget(input.path, context.paths, context.window)
    if (!target.stats) {
      throw new ToolRefusal('NOT_FOUND', `${target.rel} does not exist; use write_file to create it`)
    }
    if (input.old_string === input.new_string) {
      throw new ToolRefusal('TOOL_INPUT_INVALID', 'old_string and new_string are identical: nothing to do')
    }
    const text = decodeNoteText(await readFile(target.abs), target.rel)
    const parts = text.split(input.old_string)
    const count = parts.length - 1
    if (count === 0) {
      throw new ToolRefusal(
        'EDIT_NO_MATCH',
        `old_string was not found in ${target.rel}; ` +
          'read_file it and copy the exact text, including whitespace',
      )
    }
    if (count > 1 && !input.replace_all) {
      throw new ToolRefusal(
        'EDIT_AMBIGUOUS',
        `old_string occurs ${count} times in ${target.rel}; ` +
          'include more surrounding text, or set replace_all',
      )
    }
    // split/join rather than String.replace: `$&` and friends in new_string must stay literal.
    return writeNote(target, parts.join(input.new_string), context, signal)
  },
}

const listInput = z.strictObject({
  path: notePath.default('notes').describe('Folder to list recursively, e.g. notes/memory (default notes)'),
})

export const listFilesTool: ToolDefinition<z.infer<typeof listInput>> = {
  name: 'list_files',
  description:
    'List the text notes under a folder, recursively: one workspace-relative path per line, sorted.',
  input: listInput,
  async run(input, context) {
    const folder = await resolveReadTarget(input.path, 'dir', context.paths, context.config)
    const found: string[] = []
    let isScanCapped = false
    const extensions = context.config.search.extensions
    for await (const rel of walkTextFiles(context.paths.workspace, folder.rel, extensions)) {
      if (found.length === LIST_SCAN_MAX) {
        isScanCapped = true
        break
      }
      found.push(rel)
    }
    if (found.length === 0) return `[no text notes under ${folder.rel}]`
    found.sort()
    const lines = found.slice(0, LIST_MAX_FILES)
    if (found.length > LIST_MAX_FILES || isScanCapped) {
      const total = isScanCapped ? `${found.length}+` : String(found.length)
      lines.push(`[capped: showing ${LIST_MAX_FILES} of ${total} files; list a subfolder to see the rest]`)
    }
    return lines.join('\n')
  },
}

const grepInput = z.strictObject({
  pattern: z.string().min(1).max(500).describe('Plain text to look for (not a regular expression)'),
  path: notePath.optional().describe('Folder or file to search (default: every searchable folder)'),
  ignore_case: z.boolean().default(true),
})

export const grepNotesTool: ToolDefinition<z.infer<typeof grepInput>> = {
  name: 'grep_notes',
  description:
    'Find lines containing a plain substring in the notes. Returns "path:line: text" lines, capped; ' +
    'use search_workspace for ranked full-text search.',
  input: grepInput,
  async run(input, context) {
    const maxHits = context.config.tools.maxResults
    const needle = input.ignore_case ? input.pattern.toLowerCase() : input.pattern
    const hits: string[] = []
    // Overlapping roots (notes and notes/memory) must not report a line twice.
    const seen = new Set<string>()
    for await (const rel of grepFiles(input.path, context)) {
      if (seen.has(rel)) continue
      seen.add(rel)
      const text = await readFile(join(context.paths.workspace, rel), 'utf8')
      if (text.includes('\0')) continue
      const lines = text.split('\n')
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index] ?? ''
        if (!(input.ignore_case ? line.toLowerCase() : line).includes(needle)) continue
        if (hits.length === maxHits) {
          return [...hits, `[capped at ${maxHits} matches; narrow the pattern or the path]`].join('\n')
        }
        hits.push(`${rel}:${index + 1}: ${line.trim().slice(0, GREP_LINE_MAX_CHARS)}`)
      }
    }
    if (hits.length === 0) return `[no matches for ${JSON.stringify(input.pattern)} in ${seen.size} files]`
    return hits.join('\n')
  },
}

/** The files grep_notes looks at: one file, one folder, or every existing search root. */
async function* grepFiles(path: string | undefined, context: ToolContext): AsyncGenerator<string> {
  const { paths, config } = context
  if (path !== undefined) {
    const rel = normalizeToolPath(path)
    const isFile = config.search.extensions.some((ext) => rel.toLowerCase().endsWith(ext.toLowerCase()))
    const target = await resolveReadTarget(path, isFile ? 'file' : 'dir', paths, config)
    if (isFile) yield target.rel
    else yield* walkTextFiles(paths.workspace, target.rel, config.search.extensions)
    return
  }
  for (const root of readRoots(paths, config)) {
    const target = await resolveReadTarget(root === '' ? '.' : root, 'dir', paths, config).catch(
      (error: unknown) => {
        // A configured root that does not exist (no skills/ yet) is just empty.
        if (error instanceof ToolRefusal && error.code === 'NOT_FOUND') return null
        throw error
      },
    )
    if (target) yield* walkTextFiles(paths.workspace, target.rel, config.search.extensions)
  }
}

/** Every note tool, in the order they are offered. */
export const NOTE_TOOLS = [
  readFileTool,
  writeFileTool,
  editFileTool,
  finishDayTool,
  listFilesTool,
  grepNotesTool,
] as const
