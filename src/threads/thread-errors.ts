// An error crossing a thread boundary as plain data, and back: a DreamlaneError keeps its code (so the same exit
// code or HTTP status follows), a library's error its own code (say SQLite's SQLITE_BUSY), both name and stack.
import { DreamlaneError, type ErrorCode } from '../errors.js'

export interface SentError {
  name: string
  message: string
  stack?: string
  /** A DreamlaneError's code, or a library's (say SQLite's SQLITE_BUSY). */
  code?: string
  isDreamlane: boolean
}

export function sentError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), isDreamlane: false }
  const code = (error as { code?: unknown }).code
  return {
    name: error.name,
    message: error.message,
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    isDreamlane: error instanceof DreamlaneError,
  }
}

/** The thread's error as this side can act on it: the same code, name and stack. */
export function receivedError(sent: SentError): Error {
  const error = sent.isDreamlane
    ? new DreamlaneError(sent.code as ErrorCode, sent.message)
    : Object.assign(new Error(sent.message), sent.code === undefined ? {} : { code: sent.code })
  error.name = sent.name
  if (sent.stack !== undefined) error.stack = sent.stack
  return error
}
