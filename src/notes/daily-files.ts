// Reading daily note files from notes/daily: which days have one, and a note's text as strict UTF-8.
import { readFileSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { NoteMalformedError } from '../errors.js'
import { isTempOrHidden } from './atomic-write.js'
import { isCalendarDay } from './front-matter.js'
import type { WorkspacePaths } from './paths.js'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The note's text, or null when there is no file. A file that is not valid UTF-8 throws NoteMalformedError:
 * decoding it lossily and writing it back would destroy bytes someone wrote.
 */
export async function readDailyNoteFile(file: string): Promise<string | null> {
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (error) {
    if (isNoFile(error)) return null
    throw error
  }
  return decodeNote(file, bytes)
}

/**
 * readDailyNoteFile in one step, for reads that must not wait on a busy event loop: `status` reads the window's
 * notes while a dream may hold the loop for a slice at a time, and each of an async read's four file
 * operations waits for its own turn (a small note reads in well under a millisecond).
 */
export function readDailyNoteFileNow(file: string): string | null {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    if (isNoFile(error)) return null
    throw error
  }
  return decodeNote(file, bytes)
}

function decodeNote(file: string, bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes)
  } catch (error) {
    throw new NoteMalformedError(file, 'the file is not valid UTF-8', { cause: error })
  }
}

/** Days (`YYYY-MM-DD`) that have a note in notes/daily, oldest first; [] when the folder is missing. */
export async function listDailyNoteDays(paths: Pick<WorkspacePaths, 'daily'>): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(paths.daily)
  } catch (error) {
    if (isNoFile(error)) return []
    throw error
  }
  return names
    .filter((name) => !isTempOrHidden(name) && name.endsWith('.md'))
    .map((name) => name.slice(0, -3))
    .filter(isCalendarDay)
    .sort()
}

/** Nothing there, or a file where notes/daily should be a folder (`dreamlane doctor` names that). */
function isNoFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
