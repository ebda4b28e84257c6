// The one zod schema of dreamlane's settings, defaults included; config.json's shape and ResolvedConfig derive from it.
import { z } from 'zod'
import { SECRET_KINDS } from '../secrets/types.js'
import { isValidTimeZone } from '../time/local-day.js'
import { DREAMING_MODES, PROVIDER_CHOICES, REVIEW_MODES } from './choices.js'
import { RECALL_PRESET_NAMES, RECALL_SIGNALS, type RecallSignal } from './recall-names.js'

const positiveInt = z.number().int().positive()
const nonNegativeInt = z.number().int().min(0, 'expected an integer ≥ 0')

export {
  RECALL_PRESET_NAMES,
  RECALL_SIGNALS,
  type RecallPresetName,
  type RecallSignal,
} from './recall-names.js'

export {
  DREAMING_MODES,
  PROVIDER_CHOICES,
  REVIEW_MODES,
  type DreamingMode,
  type ProviderChoice,
  type ReviewMode,
} from './choices.js'

/** One sweep's cadence: a croner pattern in `timezone`. */
function sweepCadence(cron: string) {
  return z
    .object({
      /** croner pattern, evaluated in `timezone`. */
      cron: z.string().min(9, 'expected a cron pattern such as "0 3 * * *"').default(cron),
    })
    .strict()
    .prefault({})
}

const RECALL_WEIGHTS: Record<RecallSignal, number> = {
  frequency: 0.24,
  relevance: 0.3,
  diversity: 0.15,
  recency: 0.15,
  consolidation: 0.1,
  richness: 0.06,
}

/** How one provider talks to its API: per-request timeout, output cap and retries. */
function requestSettings(defaults: { requestTimeoutMs: number; maxRetries: number }) {
  return {
    /** One HTTP request's timeout, headers and body (no shorter wait of Node's fetch applies). @default 120000 (anthropic), 300000 (openai-compatible) */
    requestTimeoutMs: positiveInt.default(defaults.requestTimeoutMs),
    /** max_tokens of each request. @default 4096 */
    maxTokensPerRequest: positiveInt.default(4_096),
    /** Retries on 429/5xx/529 (honouring retry-after). @default 4 (anthropic), 2 (openai-compatible) */
    maxRetries: nonNegativeInt.default(defaults.maxRetries),
  }
}

/** Every setting but where things live, with its default; config.json, env and flags may set any of them. */
const settings = {
  /**
   * IANA zone for local days, windows and the AutoDream schedule.
   * @default `TZ`, else the system zone (filled in by resolveConfig)
   */
  timezone: z
    .string()
    .refine(isValidTimeZone, { message: 'expected an IANA time zone such as "Europe/Berlin" or "UTC"' })
    .optional(),
  backups: z
    .object({
      /** Pre-dream backups kept, newest first. @default 10 */
      keep: z.number().int().min(1, 'expected an integer ≥ 1').default(10),
    })
    .strict()
    .prefault({}),
  search: z
    .object({
      /** Folders (workspace-relative) the full-text index covers. @default ['notes', 'skills'] */
      roots: z
        .array(z.string().min(1))
        .min(1)
        .default(() => ['notes', 'skills']),
      /** File extensions indexed. @default ['.md', '.txt'] */
      extensions: z
        .array(z.string().regex(/^\.[A-Za-z0-9]+$/, 'expected extensions like ".md"'))
        .min(1)
        .default(() => ['.md', '.txt']),
    })
    .strict()
    .prefault({}),
  seeding: z
    .object({
      /** A day whose slice fits both bounds gets every message as a cue. @default 50 */
      wholeSliceMaxMessages: positiveInt.default(50),
      /** @default 2 */
      wholeSliceMaxTrees: positiveInt.default(2),
      /** Trees up to this many messages are shown whole; larger ones as head + tail. @default 10 */
      smallTreeMaxMessages: positiveInt.default(10),
      /** Messages shown from each end of a large tree. @default 5 */
      headTail: positiveInt.default(5),
      /** Above the global snippet budget, large trees fall back to this head + tail. @default 2 */
      fallbackHeadTail: positiveInt.default(2),
      /** Snippets per daily note. @default 120 */
      snippetBudget: positiveInt.default(120),
      /** `cue_terms` per daily note. @default 16 */
      cueTermsMax: z.number().int().min(0).default(16),
      /** Characters of message content per snippet: most chat messages whole, a pasted page cut. @default 300 */
      snippetMaxChars: z.number().int().min(20).default(300),
    })
    .strict()
    .prefault({}),
  privacy: z
    .object({
      /**
       * Secret kinds memory keeps on purpose (e.g. ["wifi-password"]); every other secret the detector finds is
       * withheld from notes, the index and run records. @default []
       */
      keepSecretKinds: z.array(z.enum(SECRET_KINDS)).default(() => []),
    })
    .strict()
    .prefault({}),
  memory: z
    .object({
      /** MEMORY.md size budget in bytes. @default 6000 */
      indexBudgetBytes: z.number().int().min(500).default(6000),
      /** notes/DREAMS.md size budget in bytes; older months are rolled up past it. @default 16000 */
      diaryBudgetBytes: z.number().int().min(1000).default(16_000),
      /**
       * Chats kept out of every dream, cue and the search index: jids or glob patterns (`*`, `?`), matched
       * against a chat and the root of its session tree. @default []
       */
      excludeChats: z
        .array(z.string().trim().min(1, 'expected a chat jid or a pattern such as "*@g.us"'))
        .default(() => []),
      /** How keyed facts fade when nobody states them again (RockBot's defaults); see README "Fact freshness". */
      freshness: z
        .object({
          /** Days after a fact was last stated before its importance starts to decay. @default 30 */
          graceDays: z.number().min(0).default(30),
          /** Past the grace, importance halves every this many days; 0 turns decay (and archiving) off. @default 45 */
          halfLifeDays: z.number().min(0).default(45),
          /** Facts whose importance falls below this move to `## Archive` in their file. @default 0.1 */
          floor: z.number().min(0).max(1).default(0.1),
          /** Importance each day the fact was stated again adds to the base of 0.5 (capped at 1). @default 0.1 */
          reinforcementBoost: z.number().min(0).max(0.5).default(0.1),
        })
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({}),
  recall: z
    .object({
      /** Gate thresholds come from the preset unless minScore / minRecallCount / minUniqueQueries are set. @default 'core' */
      preset: z.enum(RECALL_PRESET_NAMES).default('core'),
      /** Overrides the preset's minimum score. @default the preset's */
      minScore: z.number().min(0).max(1).optional(),
      /** Overrides the preset's minimum recall count. @default the preset's */
      minRecallCount: positiveInt.optional(),
      /** Overrides the preset's minimum of distinct queries. @default the preset's */
      minUniqueQueries: positiveInt.optional(),
      /** The `max-age` gate: a chunk last recalled longer ago than this is not promoted. @default 30 */
      maxAgeDays: z.number().positive().default(30),
      /** Recency halves every this many calendar days since the last recall. @default 14 */
      halfLifeDays: z.number().positive().default(14),
      /** Events older than this are folded into per-chunk totals (signals kept, rows dropped). @default 30 */
      compactAfterDays: positiveInt.default(30),
      /** Most promotions one `memory promote --apply` writes, unless --limit says otherwise. @default 10 */
      maxPromotions: positiveInt.default(10),
      /**
       * Raw signal weights, normalised to sum 1 before use (only their ratios matter).
       * @default { frequency: 0.24, relevance: 0.3, diversity: 0.15, recency: 0.15, consolidation: 0.1, richness: 0.06 }
       */
      weights: z
        .object(
          Object.fromEntries(
            RECALL_SIGNALS.map((name) => [
              name,
              z.number().min(0, 'expected a weight ≥ 0').default(RECALL_WEIGHTS[name]),
            ]),
          ) as Record<RecallSignal, z.ZodDefault<z.ZodNumber>>,
        )
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({}),
  dream: z
    .object({
      /** Window of `/dream` and `dreamlane dream`, in local days. @default 7 */
      defaultDays: positiveInt.default(7),
      /** Largest window a request may ask for. @default 365 */
      maxDays: positiveInt.default(365),
      /** Window of AutoDream runs. @default 2 */
      autoDays: positiveInt.default(2),
      /** Window of the first-boot bootstrap dream. @default 7 */
      bootstrapDays: positiveInt.default(7),
      /** One model turn's time limit. @default 600000 (10 min) */
      turnTimeoutMs: positiveInt.default(10 * 60_000),
      /** A lock (or queued run) older than this is stale. @default 1800000 (30 min) */
      runTimeoutMs: positiveInt.default(30 * 60_000),
      /** Tool calls per turn, plus three per window day (a note read and written, a page of messages). @default 400 */
      maxToolCalls: positiveInt.default(400),
      /** Input + output tokens per turn. @default 400000 */
      maxTotalTokens: positiveInt.default(400_000),
      /** Output tokens per turn. @default 32000 */
      maxOutputTokens: positiveInt.default(32_000),
      /** Which engine dreams. @default 'auto' */
      provider: z.enum(PROVIDER_CHOICES).default('auto'),
      /** The model dreams ask for. @default the provider's own (anthropic: providers.anthropic.model) */
      model: z.string().min(1).optional(),
      /** Whether a dream's changes are held for a person to apply or discard. @default 'on-risk' */
      review: z.enum(REVIEW_MODES).default('on-risk'),
      lossGuard: z
        .object({
          /** Hold when more than this share of notes/memory/ bytes would be removed (0..1). @default 0.2 */
          maxRemovedShare: z.number().min(0).max(1).default(0.2),
          /** Hold when more names, numbers or dates than this would vanish from memory. @default 0 */
          maxFlaggedItems: nonNegativeInt.default(0),
        })
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({}),
  tools: z
    .object({
      /** Largest content one write_file / edit_file may leave. @default 262144 (256 KiB) */
      maxWriteBytes: positiveInt.default(256 * 1024),
      /** Results per search or list call. @default 50 */
      maxResults: positiveInt.default(50),
    })
    .strict()
    .prefault({}),
  autoDream: z
    .object({
      /** Whether the nightly schedule runs (`/dreaming on|off` overrides it at runtime). @default true */
      enabled: z.boolean().default(true),
      /** croner pattern, evaluated in `timezone`. @default '0 1 * * *' */
      cron: z.string().min(9, 'expected a cron pattern such as "0 1 * * *"').default('0 1 * * *'),
      /** The `time` gate: hours since the last successful auto dream. @default 20 */
      minHoursSinceSuccess: z.number().min(0).default(20),
      /** The `sessions` gate: session trees since the last consolidation (AGH uses 3). @default 1 */
      minSessions: positiveInt.default(1),
      /** The `signal` gate for AutoDream: new recall events since the last auto dream (0: off). @default 0 */
      minNewRecalls: nonNegativeInt.default(0),
      /** Session-idle trigger: an AutoDream-mode run after this many quiet minutes in a chat. @default off */
      idleMinutes: z.number().positive().optional(),
      /** A failed or degraded auto run is retried after these delays, then left. @default [5, 10, 20, 40, 60] */
      retryDelaysMinutes: z
        .array(z.number().positive())
        .max(20)
        .default(() => [5, 10, 20, 40, 60]),
    })
    .strict()
    .prefault({}),
  sweeps: z
    .object({
      /** Which preset deep sweeps promote with, or `off` (`/dreaming core|deep|rem|off` overrides it). @default 'core' */
      mode: z.enum(DREAMING_MODES).default('core'),
      /** The `signal` gate for sweeps: new recall events since the last sweep of that phase. @default 1 */
      minNewRecalls: nonNegativeInt.default(1),
      /** Light sweep (collect, dedupe). @default every 6 hours, on the hour */
      light: sweepCadence('0 */6 * * *'),
      /** Deep sweep (score, gate, promote into MEMORY.md). @default { cron: '0 3 * * *' } */
      deep: sweepCadence('0 3 * * *'),
      /** REM sweep (themes across days, for the diary). @default { cron: '0 5 * * 0' } */
      rem: sweepCadence('0 5 * * 0'),
    })
    .strict()
    .prefault({}),
  providers: z
    .object({
      anthropic: z
        .object({
          /** @default ANTHROPIC_BASE_URL, then the public API */
          baseUrl: z.url().optional(),
          /** Used when neither dream.model nor DREAMLANE_DREAM_MODEL names one. @default 'claude-sonnet-4-6' */
          model: z.string().min(1).default('claude-sonnet-4-6'),
          ...requestSettings({ requestTimeoutMs: 120_000, maxRetries: 4 }),
        })
        .strict()
        .prefault({}),
      /** Local servers are slower per token and rarely overloaded: longer timeout, fewer retries. */
      openaiCompatible: z
        .object({
          /** e.g. http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:11434/v1 (Ollama). @default none */
          baseUrl: z.url().optional(),
          /** @default none (required when this provider is chosen) */
          model: z.string().min(1).optional(),
          /** @default none */
          apiKey: z.string().min(1).optional(),
          ...requestSettings({ requestTimeoutMs: 300_000, maxRetries: 2 }),
        })
        .strict()
        .prefault({}),
    })
    .strict()
    .prefault({}),
}

/** config.json, one env layer or the flags: where things live (optional) plus any settings. */
export const configFileSchema = z
  .object({
    /** The assistant's workspace. @default the current directory */
    workspace: z.string().min(1).optional(),
    /** dreamlane's own files. @default `<workspace>/.dreamlane` */
    dataDir: z.string().min(1).optional(),
    /** The messages DB, absolute or relative to the data dir. @default `<dataDir>/messages.db` */
    messagesDb: z.string().min(1).optional(),
    ...settings,
  })
  .strict()

/** Every setting decided: absolute paths and the zone filled in by resolveConfig, defaults by the schema. */
export const resolvedConfigSchema = z
  .object({
    ...settings,
    workspace: z.string().min(1),
    dataDir: z.string().min(1),
    messagesDb: z.string().min(1),
    timezone: settings.timezone.unwrap(),
  })
  .strict()

/** What config.json (or a layer of env vars or flags) may hold; everything optional. */
export type ConfigFile = z.input<typeof configFileSchema>

/** Every setting decided: absolute paths, defaults filled in. Resolved once, then passed down. */
export type ResolvedConfig = z.output<typeof resolvedConfigSchema>

/** How one provider talks to its API: per-request timeout, output cap and retries. */
export type ProviderRequestSettings = Pick<
  ResolvedConfig['providers']['anthropic'],
  'requestTimeoutMs' | 'maxTokensPerRequest' | 'maxRetries'
>
