// memory_forget: forget on request from an MCP client, in the same two steps as `/forget` and the CLI: a call
// without `confirm` returns the preview and its token; a call with `confirm` and that token removes exactly it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { guarded, jsonResult } from './results.js'
import type { McpHost } from './workspace.js'

const forgetInput = {
  what: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('What to forget, in a few words or a name: "my dentist", "Dr Sousa"'),
  confirm: z.boolean().optional().describe('Remove it now; needs the token of the preview the user saw'),
  token: z.string().max(64).optional().describe("The preview's token, passed back unchanged with confirm"),
  purge_backups: z
    .boolean()
    .optional()
    .describe('With confirm: also rewrite the backups that hold it (no undo then)'),
}

export function registerForgetTool(server: McpServer, host: McpHost, chatJid: () => string): void {
  server.registerTool(
    'memory_forget',
    {
      title: 'Forget something',
      description:
        'Forget on request. First call with `what` alone: returns exactly what would be removed from the notes ' +
        '(and which backups hold it) and a token; nothing changes. Show that to the user; only when they agree, ' +
        'call again with confirm: true and the token. Later dreams then skip it too.',
      inputSchema: forgetInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input) =>
      guarded(host, 'memory_forget', async () => {
        const { dreamlane } = await host.workspace()
        if (!input.confirm) {
          const preview = await dreamlane.previewForget(input.what)
          return jsonResult({ confirmed: false, ...preview })
        }
        if (input.token === undefined) {
          const { DreamlaneError } = await import('../errors.js')
          throw new DreamlaneError(
            'FORGET_INVALID',
            'confirm needs the token of a preview: call memory_forget without confirm first and show the user what goes',
          )
        }
        const result = await dreamlane.forget(input.what, {
          token: input.token,
          purgeBackups: Boolean(input.purge_backups),
          chatJid: chatJid(),
        })
        return jsonResult({ confirmed: true, ...result })
      }),
  )
}
