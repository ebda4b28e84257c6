// A note's bytes as text, strictly: a file that is not valid UTF-8 is refused, never decoded lossily.
import { readFile } from 'node:fs/promises'
import { NoteNotUtf8Error } from '../errors.js'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** `bytes` as UTF-8 text; NoteNotUtf8Error naming `file` when they are not valid UTF-8. */
export function decodeNoteText(bytes: Uint8Array, file: string): string {
  try {
    return strictUtf8.decode(bytes)
  } catch (error) {
    throw new NoteNotUtf8Error(file, { cause: error })
  }
}

/** The note's text, or null when there is no file; NoteNotUtf8Error for bytes that are not UTF-8. */
export async function readNoteText(file: string): Promise<string | null> {
  try {
    return decodeNoteText(await readFile(file), file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
