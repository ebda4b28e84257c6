// dream, dream_status and dream_review: the same use cases `/dream`, the CLI and the web page start.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { DreamlaneStatus } from '../app/status.js'
import type { RunRecord } from '../dream/types.js'
import { FINISHED_STATUSES } from '../dream/types.js'
import { guarded, jsonResult, textResult } from './results.js'
import type { McpHost } from './workspace.js'

/** How long `dream` waits for its run before answering "still running": an offline dream usually finishes. */
export const DREAM_WAIT_MS = 20_000

const runId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:@-]+$/, 'not a run id')

export function registerDreamTools(server: McpServer, host: McpHost, chatJid: () => string): void {
  server.registerTool(
    'dream',
    {
      title: 'Run a dream',
      description:
        'Consolidate the last `days` days of chat into the memory files (backed up first; a risky result is ' +
        'held for review). Waits up to 20 s, then reports; dream_status follows a longer run. Only when asked.',
      inputSchema: {
        days: z.number().int().min(1).max(366).optional().describe('Days of history (default: configured)'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input) =>
      guarded(host, 'dream', async () => {
        const { dreamlane } = await host.workspace()
        const { defaultDays, maxDays } = dreamlane.config.dream
        const days = Math.min(input.days ?? defaultDays, maxDays)
        const trigger = dreamlane.trigger({ mode: 'manual', chatJid: chatJid(), days })
        // A failed dream rejects `done`; its record (status failed, with the reason) is the answer then.
        const done = trigger.done.catch(() => dreamlane.getRun(trigger.run.id))
        const finished = await Promise.race([done, waitMs(DREAM_WAIT_MS)])
        const run = finished ?? dreamlane.getRun(trigger.run.id)
        return jsonResult({
          ...(trigger.coalesced ? { joined: `a dream was already ${trigger.run.status}; joined it` } : {}),
          ...(days < (input.days ?? 0) ? { capped: `days capped at the maximum of ${maxDays}` } : {}),
          run: describeRun(run),
          ...(finished ? {} : { next: `still ${run.status}: call dream_status with runId ${run.id}` }),
        })
      }),
  )

  server.registerTool(
    'dream_status',
    {
      title: 'Dream status',
      description:
        'The latest dream (or run `runId`) with its summary, whether one is running, and the memory counts.',
      inputSchema: { runId: runId.optional().describe('A run id from dream (default: the latest run)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      guarded(host, 'dream_status', async () => {
        const { dreamlane } = await host.workspace()
        const status = await dreamlane.status()
        const run = input.runId ? dreamlane.getRun(input.runId) : status.latestRun
        return jsonResult({ run: run ? describeRun(run) : null, overview: await overviewOf(status) })
      }),
  )

  server.registerTool(
    'dream_review',
    {
      title: 'Review a dream',
      description:
        'apply or discard a dream held for review, or undo a kept one (default: the newest that fits). ' +
        'Only when the user asks.',
      inputSchema: {
        action: z.enum(['apply', 'discard', 'undo']),
        runId: runId
          .optional()
          .describe('The run to act on (default: the newest held, or newest kept for undo)'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input) =>
      guarded(host, 'dream_review', async () => {
        const { dreamlane } = await host.workspace()
        const id = input.runId
        const result =
          input.action === 'apply'
            ? await dreamlane.apply(id)
            : input.action === 'discard'
              ? await dreamlane.discard(id)
              : await dreamlane.undo(id)
        return textResult(result.message)
      }),
  )
}

function describeRun(run: RunRecord) {
  return {
    id: run.id,
    status: run.status,
    finished: FINISHED_STATUSES.includes(run.status),
    mode: run.mode,
    chatJid: run.chatJid,
    window: run.firstDay && run.lastDay ? `${run.firstDay} … ${run.lastDay}` : `${run.days} day(s)`,
    reason: run.reason,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    changedFiles: run.changedFiles.length,
    holdReasons: run.holdReasons,
    summary: run.summary,
  }
}

async function overviewOf(status: DreamlaneStatus) {
  const { describeStatus } = await import('../chat/describe-status.js')
  return {
    text: describeStatus(status),
    activeRun: status.activeRun,
    lastConsolidated: status.lastConsolidated,
    dailyNotesNeedingSummary: status.backlog.length,
  }
}

function waitMs(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms).unref())
}
