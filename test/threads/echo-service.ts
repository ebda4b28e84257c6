// A thread service for the thread-service tests: answers, waits, fails the ways a real one can, or dies.
import { threadId } from 'node:worker_threads'
import { DreamlaneError } from '../../src/errors.js'
import { serveThreadRequests } from '../../src/threads/thread-service.js'
import { niceOfThisThread } from './nice.js'

export type EchoServiceRequest =
  | { kind: 'echo'; value: unknown; delayMs?: number }
  | { kind: 'thread' }
  | { kind: 'coded' }
  | { kind: 'library' }
  | { kind: 'exit' }
  | { kind: 'nice' }

/** `failOpens`: how many times opening fails (with a coded error) before it succeeds. */
export interface EchoServiceData {
  failOpens: number
  /** A file counting open attempts across threads (each new thread starts from the data again). */
  opensFile?: string
}

let opens = 0

serveThreadRequests((data) => {
  const { failOpens } = data as EchoServiceData
  opens += 1
  if (opens <= failOpens) throw new DreamlaneError('MESSAGES_DB_BUSY', `open ${opens} failed on purpose`)
  const openedAt = opens
  return async (value) => {
    const request = value as EchoServiceRequest
    if (request.kind === 'echo') {
      await new Promise((resolve) => setTimeout(resolve, request.delayMs ?? 0))
      return { echoed: request.value, openedAt }
    }
    if (request.kind === 'thread') return threadId
    if (request.kind === 'nice') return niceOfThisThread()
    if (request.kind === 'coded') throw new DreamlaneError('MESSAGES_DB_BUSY', 'the DB is locked by pid 1')
    if (request.kind === 'library')
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    process.exit(3)
  }
})
