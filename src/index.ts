// The library surface: what a host assistant imports to embed dreamlane.
export { createDreamlane, type Dreamlane, type DreamlaneOptions } from './create.js'
export type { DreamlaneStatus } from './app/status.js'
export type { ErrorCode } from './errors.js'
export { describeStatus } from './chat/describe-status.js'
export type { ModelProvider, TurnInput, TurnResult, TurnUsage, TurnContext } from './model/provider.js'
export type { RunRecord, RunStatus, GateOutcome, DreamRequest, DreamMode } from './dream/types.js'
export type { PostedSummary } from './dream/types.js'
export type { DreamEvent } from './dream/deps.js'
export { createScriptedProvider, type ScriptStep } from './model/scripted.js'
export { resolveConfig } from './config/resolve.js'
export type { ResolvedConfig } from './config/schema.js'
export { fixedClock, systemClock, type Clock } from './clock.js'
export {
  DreamlaneError,
  ConfigError,
  LockHeldError,
  PathOutOfScopeError,
  BackupCorruptError,
  MessagesDbMissingError,
} from './errors.js'
export { recordRecall, recallRecorder } from './recall/events.js'
export { scoreCandidates } from './recall/score.js'
export { memoryCounts, describeMemoryCounts, type MemoryCounts } from './recall/status.js'
export type { FileChange, ChangeTotals, LossFlag } from './ledger/types.js'
