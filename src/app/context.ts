// What the use cases run on: the dream deps plus the workspace's one dream queue.
import type { DreamDeps } from '../dream/deps.js'
import type { DreamQueue } from '../dream/queue.js'
import type { ReviewDeps } from '../review/deps.js'

/** A workspace opened in this process: everything a dream needs, and the queue its dreams run on. */
export interface AppContext extends DreamDeps {
  dreams: DreamQueue
}

/**
 * What a review action needs. `dreams` is present when this process may be dreaming: the action then waits
 * for that dream instead of failing on its lock (a dream in another process still makes it fail, LOCK_HELD).
 */
export interface ReviewContext extends ReviewDeps {
  dreams?: Pick<DreamQueue, 'idle'>
}
