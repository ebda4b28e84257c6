// The model for chat replies: the configured provider, holding a `chat` slot of the model-call cap per request.
import type { Logger } from 'pino'
import type { ResolvedConfig } from '../config/schema.js'
import type { ModelProvider } from '../model/provider.js'
import { selectProvider } from '../model/select.js'
import type { LaneManager } from '../queue/lanes.js'

/**
 * Same choice as dreams (config, DREAMLANE_PROVIDER, ANTHROPIC_API_KEY, else offline — which quotes notes).
 * Each HTTP attempt takes a slot on the `chat` side of the global cap, which jumps ahead of queued dream calls;
 * slots are per request, never per turn, so two concurrent turns can never hold every slot and wait on each other.
 */
export function selectChatProvider(
  dreamlane: { config: ResolvedConfig; lanes: Pick<LaneManager, 'withModelSlot'> },
  env: Record<string, string | undefined>,
  log?: Logger,
): ModelProvider {
  return selectProvider(dreamlane.config, env, {
    modelSlot: (call) => dreamlane.lanes.withModelSlot('chat', call),
    ...(log ? { onRetry: (attempt) => log.warn(attempt, 'chat model request retry') } : {}),
  }).provider
}
