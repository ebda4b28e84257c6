// Default settings; every one can be overridden from <data>/config.json, DREAMLANE_* env vars or flags.

export const DEFAULTS = {
  backups: { keep: 10 },
  search: { roots: ['notes', 'skills'], extensions: ['.md', '.txt'] },
  seeding: {
    /** A day whose slice fits both bounds gets every message as a cue. */
    wholeSliceMaxMessages: 50,
    wholeSliceMaxTrees: 2,
    /** Trees up to this many messages are shown whole; larger ones as head + tail. */
    smallTreeMaxMessages: 10,
    headTail: 5,
    /** Above the global snippet budget, large trees fall back to this head + tail. */
    fallbackHeadTail: 2,
    snippetBudget: 120,
    cueTermsMax: 16,
    snippetMaxChars: 180,
  },
  memory: { indexBudgetBytes: 6000 },
  recall: {
    /** Gate thresholds come from the preset unless minScore / minRecallCount / minUniqueQueries are set. */
    preset: 'core',
    /** Recency halves every this many calendar days since the last recall. */
    halfLifeDays: 14,
    /** The `max-age` gate: a chunk last recalled longer ago than this is not promoted. */
    maxAgeDays: 30,
    /** Events older than this are folded into per-chunk totals (signals kept, rows dropped). */
    compactAfterDays: 30,
    /** Most promotions one `memory promote --apply` writes, unless --limit says otherwise. */
    maxPromotions: 10,
    /** Normalised to sum 1 before use, so only their ratios matter. */
    weights: {
      frequency: 0.24,
      relevance: 0.3,
      diversity: 0.15,
      recency: 0.15,
      consolidation: 0.1,
      richness: 0.06,
    },
  },
  dream: {
    defaultDays: 7,
    maxDays: 365,
    autoDays: 2,
    bootstrapDays: 7,
    turnTimeoutMs: 10 * 60_000,
    runTimeoutMs: 30 * 60_000,
    maxToolCalls: 400,
    maxTotalTokens: 400_000,
    maxOutputTokens: 32_000,
    /** `on-risk`: a dream is held for review only when the loss guard objects. */
    review: 'on-risk',
    lossGuard: {
      /** Net bytes removed from notes/memory/ (outside dream-owned blocks), as a share of its size. */
      maxRemovedShare: 0.2,
      /** Any vanished name, number or date holds the run. */
      maxFlaggedItems: 0,
    },
  },
  tools: { maxWriteBytes: 256 * 1024, maxResults: 50 },
  autoDream: {
    enabled: true,
    /** croner pattern, evaluated in config.timezone. */
    cron: '0 1 * * *',
    /** The `time` gate: hours since the last successful dream. */
    minHoursSinceSuccess: 20,
    /** Auto retries of a failed/degraded auto run back off by these delays, then stop. */
    retryDelaysMinutes: [5, 10, 20, 40, 60],
  },
  providers: {
    anthropic: {
      /** Used when neither dream.model nor DREAMLANE_DREAM_MODEL names one. */
      model: 'claude-sonnet-4-5',
      requestTimeoutMs: 120_000,
      maxTokensPerRequest: 4_096,
      maxRetries: 4,
    },
    /** Local servers are slower per token and rarely overloaded: longer timeout, fewer retries. */
    openaiCompatible: { requestTimeoutMs: 300_000, maxTokensPerRequest: 4_096, maxRetries: 2 },
  },
} as const
