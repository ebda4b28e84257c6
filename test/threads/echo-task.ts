// A thread task for the thread-task tests: echoes, posts on the way, or fails the ways a real task can.
import { DreamlaneError } from '../../src/errors.js'
import { serveThreadTask } from '../../src/threads/thread-task.js'

export type EchoRequest =
  | { kind: 'echo'; value: unknown; posts: number }
  | { kind: 'coded' }
  | { kind: 'library' }
  | { kind: 'exit' }
  | { kind: 'hang' }

serveThreadTask(async (data, post) => {
  const request = data as EchoRequest
  if (request.kind === 'echo') {
    for (let i = 0; i < request.posts; i++) post({ step: i })
    await new Promise((resolve) => setTimeout(resolve, 5))
    return { echoed: request.value }
  }
  if (request.kind === 'coded') throw new DreamlaneError('MESSAGES_DB_BUSY', 'the DB is locked by pid 1')
  if (request.kind === 'library')
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  if (request.kind === 'exit') process.exit(3)
  return new Promise(() => setInterval(() => {}, 1000))
})
