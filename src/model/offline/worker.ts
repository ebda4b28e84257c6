// The offline engine's worker thread (see threaded.ts): its turns run here, its tool calls on the main thread.
import { serveTurnsInWorker } from '../threaded.js'
import { createOfflineProvider, type OfflineProviderOptions } from './engine.js'

serveTurnsInWorker((options) => createOfflineProvider(options as OfflineProviderOptions))
