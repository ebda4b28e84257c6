// What one workspace's dreams run with, wired from its opened stores: the host's (create.ts) and the dream
// thread's (dream-thread-task.ts) alike, so a dream sees the same dependencies wherever it runs.
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { DreamDeps } from '../dream/deps.js'
import { readDreamPrompt } from '../dream/prompt.js'
import { RunStore } from '../dream/runs.js'
import { SettingsStore } from '../dream/settings.js'
import type { ModelProvider } from '../model/provider.js'
import type { ModelSlot, RetryAttempt } from '../model/retry.js'
import { selectDreamProviders, type SelectedProvider } from '../model/select.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { LaneManager } from '../queue/lanes.js'
import type { WorkspaceStores } from './stores.js'

export interface DreamWiring extends Pick<DreamDeps, 'onEvent' | 'onSummary'> {
  config: ResolvedConfig
  paths: WorkspacePaths
  env: Record<string, string | undefined>
  clock: Clock
  log: Logger
  stores: Pick<WorkspaceStores, 'state' | 'messages' | 'messageReader'>
  /** Aborts the running dream (shutdown). */
  signal: AbortSignal
  /** The host's provider; absent, config and env choose (model/select.ts). */
  provider?: ModelProvider | undefined
  /** Wraps each model request inside the model-call cap (a fleet's rate limit). */
  modelGate?: ModelSlot | undefined
  /** @default logged at warn */
  onModelRetry?: ((attempt: RetryAttempt) => void) | undefined
  engineIdleMs?: number | undefined
  /** The offline engine's turns on this thread (the dream thread) rather than a thread of their own. */
  engineHere?: boolean | undefined
}

/** The dream's dependencies, and what provider selection chose (null when the host injected one). */
export function wireDreamDeps(wiring: DreamWiring): { deps: DreamDeps; selected: SelectedProvider | null } {
  const { config, paths, clock, log, stores, signal, modelGate } = wiring
  const lanes = new LaneManager()
  const { provider, fallback, selected } = selectDreamProviders(config, wiring.env, wiring.provider, {
    ...{ clock, engineIdleMs: wiring.engineIdleMs, engineHere: wiring.engineHere },
    onRetry: wiring.onModelRetry ?? ((attempt) => log.warn(attempt, 'model request retry')),
    modelSlot: (call, m) => lanes.withModelSlot('dream', () => modelGate?.(call, m) ?? call()),
  })
  const deps: DreamDeps = {
    ...{ config, paths, clock, lanes, log, provider, fallback, signal },
    ...{ state: stores.state, messages: stores.messages, messageReader: stores.messageReader },
    runs: new RunStore(stores.state, clock, config.timezone),
    settings: new SettingsStore(stores.state),
    systemPrompt: readDreamPrompt(paths),
    ...{ onEvent: wiring.onEvent, onSummary: wiring.onSummary },
  }
  return { deps, selected }
}
