// A thread task for the thread-priority test: lowers its own priority, then reports its nice value as Linux sees it.
import { lowerThreadPriority } from '../../src/threads/thread-priority.js'
import { serveThreadTask } from '../../src/threads/thread-task.js'
import { niceOfThisThread } from './nice.js'

serveThreadTask(() => ({ isLowered: lowerThreadPriority(), nice: niceOfThisThread() }))
