// A provider whose implementation is imported on its first turn, so a command that never dreams never loads it.
import { traitsOf, type ModelProvider, type ProviderTraits } from './provider.js'

/**
 * `name` and `model` are known without the import (status and chat read them); `load` runs once, on the
 * first `runTurn`, and a failed load is retried on the next turn instead of being cached.
 */
export function lazyProvider(
  name: string,
  model: string | undefined,
  load: () => Promise<ModelProvider>,
  traits: ProviderTraits = {},
): ModelProvider {
  let loading: Promise<ModelProvider> | undefined
  const provider = (): Promise<ModelProvider> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
  return {
    name,
    ...(model !== undefined ? { model } : {}),
    // Read by the lifecycle before the first turn (it sizes the message tools' pages), so known without the import.
    ...traitsOf(traits),
    runTurn: async (input, tools, signal) => (await provider()).runTurn(input, tools, signal),
  }
}
