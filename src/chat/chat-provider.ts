// The model for chat replies: the configured provider, holding a `chat` slot of the model-call cap per request.
import type { Logger } from 'pino'
import type { Dreamlane } from '../create.js'
import type { ModelProvider } from '../model/provider.js'
import { selectProvider } from '../model/select.js'

/**
 * Same choice as dreams (config, DREAMLANE_PROVIDER, ANTHROPIC_API_KEY, else offline — which quotes notes).
 * Each HTTP attempt takes a slot on the `chat` side of the global cap, which jumps ahead of queued dream calls;
 * slots are per request, never per turn, so two concurrent turns can never hold every slot and wait on each other.
 */
export function selectChatProvider(
  lane: Pick<Dreamlane, 'config' | 'lanes'>,
  env: Record<string, string | undefined>,
  log?: Logger,
): ModelProvider {
  return selectProvider(lane.config, env, {
    modelSlot: (call) => lane.lanes.withModelSlot('chat', call),
    ...(log ? { onRetry: (attempt) => log.warn(attempt, 'chat model request retry') } : {}),
  }).provider
}
