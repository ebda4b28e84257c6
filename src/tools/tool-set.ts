// The ToolSet a model turn gets: validates, dispatches, turns every problem into a result, records each call.
import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import type { Clock } from '../clock.js'
import { DreamlaneError, errorMessage } from '../errors.js'
import { dayWindow } from '../time/local-day.js'
import { draftDayTool } from './draft-day.js'
import { encodedResult, previewOf, PREVIEW_CHARS } from './encoded-text.js'
import { MESSAGE_TOOLS } from './message-tools.js'
import { NoteBudget, type NoteBudgetLimits } from './note-budget.js'
import { NOTE_TOOLS } from './note-tools.js'
import { SEARCH_TOOLS } from './search-tools.js'
import { SecretGuard } from './secret-guard.js'
import type {
  RecalledHit,
  ToolCallRecord,
  ToolContext,
  ToolDefinition,
  ToolResult,
  ToolSet,
  ToolSpec,
} from './types.js'

export interface ToolSetOptions {
  /**
   * Awaited before every call, so a dream yields to interactive turns at tool-call boundaries.
   * A rejection propagates out of `call`: the caller is stopping the turn, not refusing one tool.
   */
  beforeCall?: (name: string) => Promise<void>
  /** Told each record as soon as the call ends (refused calls included). */
  onCall?: (record: ToolCallRecord) => void
  /** Calls after this many are refused with TOOL_CALL_LIMIT. @default config.dream.maxToolCalls */
  maxCalls?: number
  /** The tools offered. @default every note, search and message tool */
  tools?: readonly ToolDefinition[]
  /** Messages per message-tool page (capped by MESSAGE_PAGE_CEILING). @default config.tools.maxResults */
  messagePageMax?: number
  /** A dream's byte budgets: write results then report what the notes added against them. */
  noteBudget?: NoteBudgetLimits
}

/** Every tool the model may use, in offer order. None of them posts, deletes or moves messages. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...NOTE_TOOLS,
  ...SEARCH_TOOLS,
  ...MESSAGE_TOOLS,
  draftDayTool,
]

/** Longer strings in a recorded input are shortened, so a 200 KB write does not bloat the run record. */
const RECORDED_STRING_CHARS = 500

/** The workspace stores an interactive (non-dream) turn reads through. */
export type LookupSource = Pick<ToolContext, 'paths' | 'config' | 'messages' | 'state'>

/**
 * Tools for a chat or MCP turn: not a dream, over the default dream window from now, every search served
 * reported to `onRecall` (the host records it as recall for that chat or client).
 */
export function createLookupToolSet(
  source: LookupSource,
  clock: Clock,
  onRecall: (query: string, hits: readonly RecalledHit[]) => void,
  options: ToolSetOptions,
): ToolSet {
  const { config } = source
  return createToolSet(
    {
      paths: source.paths,
      config,
      window: dayWindow(clock.now(), config.dream.defaultDays, config.timezone),
      messages: source.messages,
      state: source.state,
      clock,
      isDream: false,
      onRecall,
    },
    options,
  )
}

export function createToolSet(context: ToolContext, options: ToolSetOptions = {}): ToolSet {
  // draft_day needs a drafter, which only a dream's tool set is given.
  const offered = (options.tools ?? ALL_TOOLS).filter((tool) => tool !== draftDayTool || context.dayDrafter)
  const tools = new Map(offered.map((tool) => [tool.name, tool]))
  const maxCalls = options.maxCalls ?? context.config.dream.maxToolCalls
  const records: ToolCallRecord[] = []
  const changed = new Set<string>()
  let specs: ToolSpec[] | undefined
  const secrets =
    context.secrets ?? new SecretGuard(context.config.privacy.keepSecretKinds, context.window.timeZone)
  const toolContext: ToolContext = {
    ...context,
    secrets,
    ...(options.messagePageMax === undefined ? {} : { messagePageMax: options.messagePageMax }),
    ...(options.noteBudget
      ? { noteBudget: new NoteBudget(options.noteBudget, context.config.memory.indexBudgetBytes) }
      : {}),
    onWrite: (absPath) => {
      changed.add(absPath)
      context.onWrite?.(absPath)
    },
  }

  async function dispatch(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult> {
    const tool = tools.get(name)
    if (!tool) {
      const available = [...tools.keys()].join(', ')
      return refuse('UNKNOWN_TOOL', `there is no tool "${name}"; available tools: ${available}`)
    }
    if (records.length >= maxCalls) {
      const why = `the limit of ${maxCalls} tool calls for this turn is reached; finish the turn now`
      return refuse('TOOL_CALL_LIMIT', why)
    }
    if (signal?.aborted) return refuse('TOOL_ABORTED', `${name} was not run: the turn was cancelled`)
    const parsed = tool.input.safeParse(input ?? {})
    if (!parsed.success) {
      return refuse('TOOL_INPUT_INVALID', `invalid input for ${name}:\n${z.prettifyError(parsed.error)}`)
    }
    try {
      const output = await tool.run(parsed.data, toolContext, signal)
      return typeof output === 'string' ? { ok: true, content: output } : encodedResult(output)
    } catch (error) {
      if (error instanceof DreamlaneError) return refuse(error.code, error.message)
      if (signal?.aborted) return refuse('TOOL_ABORTED', `${name} stopped: the turn was cancelled`)
      return refuse('TOOL_FAILED', `${name} failed unexpectedly: ${errorMessage(error)}`)
    }
  }

  return {
    specs: () => {
      specs ??= [...tools.values()].map(specOf)
      return [...specs]
    },
    async call(name, input, signal) {
      await options.beforeCall?.(name)
      const startedAt = context.clock.now().toISOString()
      const started = performance.now()
      const result = await dispatch(name, input, signal)
      if (result.ok && MESSAGE_PAGE_TOOLS.has(name)) secrets.notePageResult(result)
      // The record keeps neither a secret the model was shown nor one it tried to write.
      const record: ToolCallRecord = {
        name,
        input: secrets.redactDeep(compactInput(input)),
        ok: result.ok,
        ...(result.code === undefined ? {} : { code: result.code }),
        preview: previewFor(result, secrets),
        startedAt,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      }
      records.push(record)
      options.onCall?.(record)
      return result
    },
    calls: () => records,
    changedFiles: () => [...changed],
    redactRecord: (value) => secrets.redactTranscript(value),
  }
}

/** Tools whose results are message pages: the secrets in them are learnt, so a copy is withheld anywhere. */
const MESSAGE_PAGE_TOOLS: ReadonlySet<string> = new Set(['get_messages', 'search_messages'])

/**
 * A result's start for the record, redacted. The preview is cut, and a secret cut in two may no longer look like one,
 * so a cut preview loses its last word too.
 */
function previewFor(result: ToolResult, secrets: SecretGuard): string {
  const preview = previewOf(result)
  // Judged by length alone: reading the content would decode a page meant for another thread.
  const isCut = preview.length >= PREVIEW_CHARS
  return secrets.redactForRecord(isCut ? preview.replace(/[^\s"',;{}[\]]*$/, '') : preview)
}

function refuse(code: string, content: string): ToolResult {
  return { ok: false, code, content }
}

/** JSON Schema (draft 2020-12) of a tool's input as a model sees it: defaults make fields optional. */
export function specOf(tool: ToolDefinition): ToolSpec {
  const schema = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>
  // Providers take the bare object schema; the draft marker is noise to them.
  const { $schema: _draft, ...inputSchema } = schema
  return { name: tool.name, description: tool.description, inputSchema }
}

function compactInput(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > RECORDED_STRING_CHARS
      ? `${value.slice(0, RECORDED_STRING_CHARS)}… (+${value.length - RECORDED_STRING_CHARS} chars)`
      : value
  }
  if (value === null || typeof value !== 'object' || depth > 4) return value
  if (Array.isArray(value)) return value.map((item) => compactInput(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compactInput(item, depth + 1)]))
}
