// Which notes mention what the user asked to forget, and what each would hold without it: the preview and the
// plan a confirmed forget writes, the same in both.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compileForgetMatcher } from '../privacy/forget-match.js'
import { isTempOrHidden } from './atomic-write.js'
import { forgetInText, valuesOfFact, type Removal } from './forget-text.js'
import type { WorkspacePaths } from './paths.js'

export interface ForgetFilePlan {
  /** Workspace-relative, `/`-separated. */
  rel: string
  abs: string
  before: string
  after: string
  removals: Removal[]
}

export interface ForgetPlan {
  /** Every phrase matched: the request's, then names taken from the facts it removes. */
  phrases: string[]
  /** Names added because a removed fact held them (`Dr Sousa`, from `Dentist: Dr Sousa`). */
  expanded: string[]
  files: ForgetFilePlan[]
}

const TEXT_EXTENSIONS = ['.md', '.txt']

/**
 * Plans forgetting `phrases` across every note under notes/. A fact that goes takes its name-like value with it
 * (one round: the names it adds are matched too, but bring in no further names).
 */
export async function planForget(
  paths: Pick<WorkspacePaths, 'workspace' | 'notes'>,
  phrases: readonly string[],
): Promise<ForgetPlan> {
  return planForgetIn(await readNotes(paths), phrases)
}

/**
 * The same plan over notes given as text (a backup's, say): `rel` names each as `notes/…`, `abs` is where it would
 * be written. The names a removed fact holds are those of these notes, so a backup written before an earlier
 * forget took the fact out of the live notes still loses the names that fact held.
 */
export function planForgetIn(notes: readonly NoteText[], phrases: readonly string[]): ForgetPlan {
  const first = planOver(notes, phrases)
  const known = new Set(first.matcherPhrases)
  const expanded: string[] = []
  for (const file of first.files)
    for (const removal of file.removals)
      for (const value of removal.kind === 'fact' ? valuesOfFact(removal.text) : []) {
        const phrase = compileForgetMatcher([value]).phrases[0]
        if (phrase === undefined || known.has(phrase)) continue
        known.add(phrase)
        expanded.push(value)
      }
  if (expanded.length === 0) return { phrases: first.matcherPhrases, expanded: [], files: first.files }
  const second = planOver(notes, [...phrases, ...expanded])
  return { phrases: second.matcherPhrases, expanded, files: second.files }
}

export interface NoteText {
  rel: string
  abs: string
  text: string
}

function planOver(notes: readonly NoteText[], phrases: readonly string[]) {
  const matcher = compileForgetMatcher(phrases)
  const files: ForgetFilePlan[] = []
  for (const note of notes) {
    const edit = forgetInText(note.rel, note.text, matcher)
    if (edit.removals.length === 0) continue
    files.push({ rel: note.rel, abs: note.abs, before: note.text, after: edit.text, removals: edit.removals })
  }
  return { matcherPhrases: [...matcher.phrases], files }
}

/** Every text note under notes/ in path order; a note that is not UTF-8 is skipped (it was never indexed either). */
async function readNotes(paths: Pick<WorkspacePaths, 'workspace' | 'notes'>): Promise<NoteText[]> {
  const found: NoteText[] = []
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for (const rel of await listNotes(paths.notes, 'notes')) {
    const abs = join(paths.workspace, ...rel.split('/'))
    try {
      found.push({ rel, abs, text: decoder.decode(await readFile(abs)) })
    } catch (error) {
      if (error instanceof TypeError) continue
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
  }
  return found
}

async function listNotes(dir: string, rel: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const out: string[] = []
  for (const entry of entries) {
    if (isTempOrHidden(entry.name) || entry.isSymbolicLink()) continue
    const child = `${rel}/${entry.name}`
    if (entry.isDirectory()) out.push(...(await listNotes(join(dir, entry.name), child)))
    else if (entry.isFile() && TEXT_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext)))
      out.push(child)
  }
  return out
}
