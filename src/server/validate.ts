// Request input checked with zod: JSON bodies, form bodies, params and queries — a failure is a 400 with the reason.
import type { Context } from 'hono'
import { z } from 'zod'
import { MAX_JID_CHARS, MAX_MESSAGE_CHARS } from '../chat/assistant.js'
import { DREAM_CHANNEL_PREFIX } from '../db/messages.js'
import { DreamlaneError } from '../errors.js'

/** Bodies larger than this are refused before parsing (enforced by the app's body limit). */
export const MAX_BODY_BYTES = 64 * 1024

export const jidSchema = z
  .string()
  .trim()
  .min(1, 'chat id is empty')
  .max(MAX_JID_CHARS, `chat id is longer than ${MAX_JID_CHARS} characters`)
  .refine(
    (jid) => !jid.startsWith(DREAM_CHANNEL_PREFIX),
    `chat ids starting with "${DREAM_CHANNEL_PREFIX}" are reserved for dream channels`,
  )

export const messageText = z
  .string()
  .refine((text) => text.trim() !== '', 'text is empty')
  .refine((text) => text.length <= MAX_MESSAGE_CHARS, `text is longer than ${MAX_MESSAGE_CHARS} characters`)

/** Ids of runs and backups: short, printable, no path separators (they name rows and files). */
export const idSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:@-]+$/, 'not a valid id')

export const limitQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).optional() })

/** `schema.parse` that fails as REQUEST_INVALID naming `what` and every problem. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new DreamlaneError('REQUEST_INVALID', `invalid ${what}: ${describeIssues(parsed.error)}`)
}

/** The JSON body, checked; an empty body counts as `{}`. Size is capped by the app's body limit. */
export async function readJson<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  const text = await c.req.text()
  let value: unknown = {}
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new DreamlaneError('REQUEST_INVALID', 'the request body is not valid JSON', { cause: error })
    }
  }
  return parseInput(schema, value, 'request body')
}

/** A urlencoded or multipart form body (the pages without JS), checked. */
export async function readForm<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  return parseInput(schema, await c.req.parseBody(), 'form')
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ')
}
