// A streamed thread task for the thread-task tests: sums the numbers it is sent, posting each running total,
// and fails on a value that is not a number.
import { serveThreadStream } from '../../src/threads/thread-task.js'

serveThreadStream(async (values, post) => {
  let total = 0
  for await (const value of values) {
    if (typeof value !== 'number') throw new Error(`not a number: ${JSON.stringify(value)}`)
    total += value
    post(total)
  }
  return total
})
