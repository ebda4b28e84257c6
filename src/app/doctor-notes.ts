// `doctor`'s look at the workspace: folders that must be folders and writable, memory files, encodings, leftovers.
import type { Dirent } from 'node:fs'
import { readFile, readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { isReadOnly } from '../notes/atomic-write.js'
import { CORE_MEMORY_FILES, type WorkspacePaths } from '../notes/paths.js'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** One thing `doctor` found. */
export interface Finding {
  severity: 'ok' | 'warning' | 'problem'
  message: string
  /** What to do about it (absent for `ok`). */
  fix?: string
}

/** Findings about the workspace folder and notes/; problems first in the order a user would fix them. */
export async function checkWorkspace(paths: WorkspacePaths): Promise<Finding[]> {
  const kind = await kindOf(paths.workspace)
  if (kind !== 'folder')
    return [
      problem(
        `the workspace ${paths.workspace} ${kind === 'missing' ? 'does not exist' : 'is a file, not a folder'}`,
        `create it with \`dreamlane --workspace ${paths.workspace} init\`, or fix --workspace / DREAMLANE_WORKSPACE`,
      ),
    ]
  const findings: Finding[] = []
  for (const dir of [paths.notes, paths.daily, paths.memory])
    findings.push(...(await checkFolder(paths, dir)))
  if (findings.length > 0) return findings
  const missing = []
  for (const name of CORE_MEMORY_FILES)
    if ((await kindOf(join(paths.memory, name))) === 'missing') missing.push(name)
  if (missing.length > 0)
    findings.push(
      warning(
        `core memory file(s) missing: ${missing.join(', ')}`,
        '`dreamlane init` adds them from the templates',
      ),
    )
  findings.push(...(await checkNoteFiles(paths)))
  if (findings.length === 0) findings.push(ok(`notes/ at ${paths.notes} is readable and writable`))
  return findings
}

async function checkFolder(paths: WorkspacePaths, dir: string): Promise<Finding[]> {
  const rel = relative(paths.workspace, dir)
  let info
  try {
    info = await stat(dir)
  } catch {
    return [problem(`${rel}/ is missing`, `\`dreamlane --workspace ${paths.workspace} init\` creates it`)]
  }
  if (!info.isDirectory())
    return [
      problem(`${rel} is a file, not a folder`, `move it aside, then \`dreamlane init\` creates the folder`),
    ]
  if (isReadOnly(info.mode))
    return [problem(`${rel}/ is read-only, so dreams cannot update notes in it`, `chmod u+w ${dir}`)]
  return []
}

/** Every note under notes/daily and notes/memory: read-only, not UTF-8, or a temp file an interrupted write left. */
async function checkNoteFiles(paths: WorkspacePaths): Promise<Finding[]> {
  const findings: Finding[] = []
  for (const root of [paths.daily, paths.memory]) {
    for (const file of await walk(root)) {
      const rel = relative(paths.workspace, file)
      const name = file.slice(file.lastIndexOf('/') + 1)
      if (name.endsWith('.tmp')) {
        findings.push(
          warning(
            `${rel} is a temp file left by an interrupted write (a crash or kill mid-write)`,
            `rm ${file}`,
          ),
        )
        continue
      }
      if (name.startsWith('.') || !name.endsWith('.md')) continue
      if (isReadOnly((await stat(file)).mode))
        findings.push(
          warning(`${rel} is read-only: dreams leave it alone`, `chmod u+w ${file} to let them update it`),
        )
      try {
        strictUtf8.decode(await readFile(file))
      } catch {
        findings.push(
          problem(
            `${rel} is not valid UTF-8: dreams leave it byte-for-byte alone`,
            `iconv -f latin1 -t utf-8 …`,
          ),
        )
      }
    }
  }
  return findings
}

async function walk(dir: string): Promise<string[]> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const files: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...(await walk(path)))
    else if (entry.isFile()) files.push(path)
  }
  return files
}

async function kindOf(path: string): Promise<'missing' | 'folder' | 'file'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file'
  } catch {
    return 'missing'
  }
}

export function problem(message: string, fix: string): Finding {
  return { severity: 'problem', message, fix }
}

export function warning(message: string, fix: string): Finding {
  return { severity: 'warning', message, fix }
}

export function ok(message: string): Finding {
  return { severity: 'ok', message }
}
