// The only place errors become HTTP statuses: DreamlaneError codes map to 4xx; anything else is a 500 with a logged stack.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Logger } from 'pino'
import { DreamlaneError, type ErrorCode } from '../errors.js'
import { html } from './web/html.js'
import { renderPage } from './web/layout.js'

const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  REQUEST_INVALID: 400,
  USAGE: 400,
  TOOL_INPUT_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  BACKUP_NOT_FOUND: 404,
  // A restore refused because a note's folder is a symlink or a file is in the way: the workspace conflicts.
  PATH_OUT_OF_SCOPE: 409,
  // A run in the wrong state for what was asked (e.g. applying one that is not held).
  RUN_CONFLICT: 409,
  RUN_NOT_REVIEWABLE: 409,
  FORGET_INVALID: 400,
  FORGET_NOT_UNDOABLE: 409,
  CONTENT_TOO_LARGE: 413,
  BACKUP_CORRUPT: 422,
  LOCK_HELD: 423,
  // A note the user protected (read-only) or cannot be read faithfully (not UTF-8): the workspace conflicts.
  NOTE_READ_ONLY: 409,
  NOTE_NOT_UTF8: 409,
  NOTE_MALFORMED: 422,
  PROVIDER_FAILED: 502,
  MESSAGES_DB_MISSING: 503,
  MESSAGES_DB_INVALID: 503,
  // Another process holds the messages DB: try again shortly.
  MESSAGES_DB_BUSY: 503,
  STATE_DB_INVALID: 503,
  REDIS_UNAVAILABLE: 503,
  // The disk refused (full, read-only filesystem).
  WRITE_FAILED: 507,
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string }
}

/** The status for an error: its code's, or 500 for anything that is not a DreamlaneError (a bug). */
export function statusOf(error: unknown): ContentfulStatusCode {
  return error instanceof DreamlaneError ? (STATUS_BY_CODE[error.code] ?? 500) : 500
}

/**
 * Answers with JSON under /api and with an HTML page elsewhere. Known errors keep their message; a bug's
 * message stays in the log (with its stack) and the client gets a generic one.
 */
export function errorResponse(error: unknown, c: Context, log: Logger): Response {
  const status = statusOf(error)
  const known = error instanceof DreamlaneError && status !== 500
  if (!known) log.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed')
  const body: ErrorBody = known
    ? { error: { code: error.code, message: error.message } }
    : { error: { code: 'INTERNAL', message: 'internal error (logged on the server)' } }
  if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="dreamlane"')
  if (c.req.path.startsWith('/api/')) return c.json(body, status)
  const page = renderPage({
    title: `Error ${status}`,
    page: 'error',
    body: html`<h1>Error ${status}</h1>
      <p class="error-message">${body.error.message}</p>
      <p><a href="/dreams">Back to Dreams</a> · <a href="/chat">Chat</a></p>`,
  })
  return c.html(page, status)
}
