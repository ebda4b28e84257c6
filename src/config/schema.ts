// The zod schema of config.json (all optional) and the shape of a fully resolved config.
import { z } from 'zod'
import { isValidTimeZone } from '../time/local-day.js'

const positiveInt = z.number().int().positive()

/** Gate-threshold presets for recall promotion, named after the anchors' dreaming modes. */
export const RECALL_PRESET_NAMES = ['core', 'deep', 'rem', 'light'] as const
export type RecallPresetName = (typeof RECALL_PRESET_NAMES)[number]

/** The scoring signals of a recall candidate, each in [0, 1]. */
export const RECALL_SIGNALS = [
  'frequency',
  'relevance',
  'diversity',
  'recency',
  'consolidation',
  'richness',
] as const
export type RecallSignal = (typeof RECALL_SIGNALS)[number]

/** When a dream's changes wait for a person: every time, only when the loss guard objects, or never. */
export const REVIEW_MODES = ['always', 'on-risk', 'never'] as const
export type ReviewMode = (typeof REVIEW_MODES)[number]

/** Request-level settings shared by the model providers. */
const providerLimits = {
  requestTimeoutMs: positiveInt,
  maxTokensPerRequest: positiveInt,
  maxRetries: z.number().int().min(0, 'expected an integer ≥ 0'),
}

export const configFileSchema = z
  .object({
    workspace: z.string().min(1).optional(),
    dataDir: z.string().min(1).optional(),
    messagesDb: z.string().min(1).optional(),
    timezone: z
      .string()
      .refine(isValidTimeZone, { message: 'expected an IANA time zone such as "Europe/Berlin" or "UTC"' })
      .optional(),
    backups: z
      .object({ keep: z.number().int().min(1, 'expected an integer ≥ 1') })
      .strict()
      .partial()
      .optional(),
    search: z
      .object({
        roots: z.array(z.string().min(1)).min(1),
        extensions: z.array(z.string().regex(/^\.[A-Za-z0-9]+$/, 'expected extensions like ".md"')).min(1),
      })
      .strict()
      .partial()
      .optional(),
    seeding: z
      .object({
        wholeSliceMaxMessages: positiveInt,
        wholeSliceMaxTrees: positiveInt,
        smallTreeMaxMessages: positiveInt,
        headTail: positiveInt,
        fallbackHeadTail: positiveInt,
        snippetBudget: positiveInt,
        cueTermsMax: z.number().int().min(0),
        snippetMaxChars: z.number().int().min(20),
      })
      .strict()
      .partial()
      .optional(),
    memory: z
      .object({ indexBudgetBytes: z.number().int().min(500) })
      .strict()
      .partial()
      .optional(),
    recall: z
      .object({
        preset: z.enum(RECALL_PRESET_NAMES),
        minScore: z.number().min(0).max(1),
        minRecallCount: positiveInt,
        minUniqueQueries: positiveInt,
        maxAgeDays: z.number().positive(),
        halfLifeDays: z.number().positive(),
        compactAfterDays: positiveInt,
        maxPromotions: positiveInt,
        weights: z
          .object(
            Object.fromEntries(
              RECALL_SIGNALS.map((name) => [name, z.number().min(0, 'expected a weight ≥ 0')]),
            ) as Record<RecallSignal, z.ZodNumber>,
          )
          .strict()
          .partial(),
      })
      .strict()
      .partial()
      .optional(),
    dream: z
      .object({
        defaultDays: positiveInt,
        maxDays: positiveInt,
        autoDays: positiveInt,
        bootstrapDays: positiveInt,
        turnTimeoutMs: positiveInt,
        runTimeoutMs: positiveInt,
        maxToolCalls: positiveInt,
        maxTotalTokens: positiveInt,
        maxOutputTokens: positiveInt,
        provider: z.enum(['auto', 'offline', 'anthropic', 'openai-compatible']),
        model: z.string().min(1),
        review: z.enum(REVIEW_MODES),
        lossGuard: z
          .object({
            maxRemovedShare: z.number().min(0).max(1),
            maxFlaggedItems: z.number().int().min(0, 'expected an integer ≥ 0'),
          })
          .strict()
          .partial(),
      })
      .strict()
      .partial()
      .optional(),
    tools: z.object({ maxWriteBytes: positiveInt, maxResults: positiveInt }).strict().partial().optional(),
    autoDream: z
      .object({
        enabled: z.boolean(),
        cron: z.string().min(9, 'expected a cron pattern such as "0 1 * * *"'),
        minHoursSinceSuccess: z.number().min(0),
        retryDelaysMinutes: z.array(z.number().positive()).max(20),
      })
      .strict()
      .partial()
      .optional(),
    providers: z
      .object({
        anthropic: z
          .object({ baseUrl: z.url(), model: z.string().min(1), ...providerLimits })
          .strict()
          .partial(),
        openaiCompatible: z
          .object({
            baseUrl: z.url(),
            model: z.string().min(1),
            apiKey: z.string().min(1),
            ...providerLimits,
          })
          .strict()
          .partial(),
      })
      .strict()
      .partial()
      .optional(),
  })
  .strict()

export type ConfigFile = z.infer<typeof configFileSchema>

export type ProviderChoice = 'auto' | 'offline' | 'anthropic' | 'openai-compatible'

/** Every setting decided: absolute paths, defaults filled in. Resolved once, then passed down. */
export interface ResolvedConfig {
  workspace: string
  dataDir: string
  messagesDb: string
  timezone: string
  backups: { keep: number }
  search: { roots: string[]; extensions: string[] }
  seeding: {
    wholeSliceMaxMessages: number
    wholeSliceMaxTrees: number
    smallTreeMaxMessages: number
    headTail: number
    fallbackHeadTail: number
    snippetBudget: number
    cueTermsMax: number
    snippetMaxChars: number
  }
  memory: { indexBudgetBytes: number }
  recall: {
    preset: RecallPresetName
    /** Overrides of the preset's thresholds. */
    minScore?: number
    minRecallCount?: number
    minUniqueQueries?: number
    maxAgeDays: number
    halfLifeDays: number
    compactAfterDays: number
    maxPromotions: number
    /** Raw weights; normalised to sum 1 where used. */
    weights: Record<RecallSignal, number>
  }
  dream: {
    defaultDays: number
    maxDays: number
    autoDays: number
    bootstrapDays: number
    turnTimeoutMs: number
    runTimeoutMs: number
    maxToolCalls: number
    maxTotalTokens: number
    maxOutputTokens: number
    provider: ProviderChoice
    model?: string
    /** Whether a dream's changes are held for a person to apply or discard. */
    review: ReviewMode
    lossGuard: {
      /** Hold when more than this share of notes/memory/ bytes would be removed (0..1). */
      maxRemovedShare: number
      /** Hold when more names, numbers or dates than this would vanish from memory. */
      maxFlaggedItems: number
    }
  }
  tools: { maxWriteBytes: number; maxResults: number }
  autoDream: { enabled: boolean; cron: string; minHoursSinceSuccess: number; retryDelaysMinutes: number[] }
  providers: {
    anthropic: ProviderRequestSettings & {
      /** Defaults to ANTHROPIC_BASE_URL, then the public API. */
      baseUrl?: string
      model: string
    }
    openaiCompatible: ProviderRequestSettings & {
      /** e.g. http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:11434/v1 (Ollama). */
      baseUrl?: string
      model?: string
      apiKey?: string
    }
  }
}

/** How one provider talks to its API: per-request timeout, output cap and retries. */
export interface ProviderRequestSettings {
  requestTimeoutMs: number
  maxTokensPerRequest: number
  maxRetries: number
}
