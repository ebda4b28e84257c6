// finish_day: a day's summary in one call; the runtime fills the pending section and keeps the front matter true.
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { NoteMalformedError, ToolRefusal } from '../errors.js'
import {
  dayStateOf,
  parseDailyNote,
  renderDailyNote,
  withSummary,
  type DailyNote,
} from '../notes/daily-note.js'
import { decodeNoteText } from '../notes/note-text.js'
import { resolveWriteTarget } from './scope.js'
import type { ToolDefinition } from './types.js'
import { writeNote } from './write-note.js'

const finishInput = z.strictObject({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
    .describe('A local day of the window whose daily note still needs its summary'),
  summary: z
    .string()
    .trim()
    .min(1)
    .refine((text) => !text.includes('\0'), 'must be text (no NUL bytes)')
    .describe('The summary markdown (no heading, no front matter): names, numbers, absolute dates'),
  summarised_until: z
    .string()
    .optional()
    .describe("ISO timestamp of the last message the summary covers (default: the day's last message)"),
})

export const finishDayTool: ToolDefinition<z.infer<typeof finishInput>> = {
  name: 'finish_day',
  description:
    "Finish one window day's daily note in one call: writes `summary` under ## Summary (or the pending " +
    '## Summary update), removes the NEEDS_SUMMARY marker, the incomplete-day warning and the DREAM_CUES ' +
    'block, and sets summarised_until. Never retype front matter or cues with write_file/edit_file.',
  input: finishInput,
  async run(input, context, signal) {
    const target = await resolveWriteTarget(`notes/daily/${input.day}.md`, context.paths, context.window)
    if (!target.stats) {
      throw new ToolRefusal(
        'NOT_FOUND',
        `${target.rel} does not exist: ${input.day} has no messages to summarise`,
      )
    }
    const note = readNote(decodeNoteText(await readFile(target.abs), target.rel), target.rel)
    if (dayStateOf(note) === 'complete') {
      throw new ToolRefusal(
        'DAY_COMPLETE',
        `${target.rel} is already complete; change its summary with edit_file if it is wrong`,
      )
    }
    const until = coveredUntil(note, input.summarised_until, target.rel)
    const finished = withSummary(note, input.summary, until)
    const state = dayStateOf(finished)
    const left = state === 'complete' ? 'complete' : `still ${state}: a later part of the day is not covered`
    const detail = `${input.day} is ${left} (summarised_until ${finished.frontMatter.summarised_until})`
    return writeNote(target, renderDailyNote(finished), context, signal, detail)
  },
}

function readNote(text: string, rel: string): DailyNote {
  try {
    return parseDailyNote(text, rel)
  } catch (error) {
    if (!(error instanceof NoteMalformedError)) throw error
    throw new ToolRefusal('DAILY_NOTE_INVALID', `${error.message}; fix it with write_file first`)
  }
}

/** The watermark to set: the day's last message unless the model names an earlier one of that day. */
function coveredUntil(note: DailyNote, requested: string | undefined, rel: string): string {
  const { first_message: first, last_message: last } = note.frontMatter
  if (requested === undefined) {
    if (last === null) throw new ToolRefusal('DAILY_NOTE_INVALID', `${rel} has no last_message to cover`)
    return last
  }
  const ms = Date.parse(requested)
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(requested) || Number.isNaN(ms)) {
    throw new ToolRefusal(
      'TOOL_INPUT_INVALID',
      `summarised_until must be an ISO timestamp, got "${requested}"`,
    )
  }
  if ((first !== null && ms < Date.parse(first)) || (last !== null && ms > Date.parse(last))) {
    throw new ToolRefusal(
      'TOOL_INPUT_INVALID',
      `summarised_until ${requested} is outside the day's messages (${first} .. ${last}); omit it to cover the whole day`,
    )
  }
  return requested
}
