// Resources (`memory://MEMORY.md`, the other memory files, `memory://days/<day>.md`) and the startup prompt.
import { withholdSecrets } from '../secrets/withhold.js'
import { readdir, readFile } from 'node:fs/promises'
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { ToolRefusal } from '../errors.js'
import { MEMORY_FILES } from '../notes/paths.js'
import { resolveReadTarget } from '../tools/scope.js'
import { startupMemoryText } from './startup-contract.js'
import type { McpHost } from './workspace.js'

const MARKDOWN = 'text/markdown'
const DAY_PAGE = /^\d{4}-\d{2}-\d{2}\.md$/
/** Day pages listed, newest first (older ones stay readable by URI). */
const MAX_LISTED_DAYS = 60

const ROLES: Record<(typeof MEMORY_FILES)[number], string> = {
  'MEMORY.md': 'The memory index, read at every session start: one-line pointers into the other files.',
  'current-state.md': 'What is true now: open threads, dated plans, days that still need work.',
  'recent-context.md': 'The last few active days in brief.',
  'user.md': 'Who the user is: identity, people and pets around them, preferences.',
  'feedback.md': 'How the user wants the assistant to answer and behave.',
  'project.md': 'Projects, decisions, plans and deadlines.',
  'reference.md': 'Stable reference facts: ids, addresses, accounts, places.',
}

export function registerMemoryResources(server: McpServer, host: McpHost): void {
  for (const name of MEMORY_FILES) {
    server.registerResource(
      name,
      `memory://${name}`,
      { title: `notes/memory/${name}`, description: ROLES[name], mimeType: MARKDOWN },
      async (uri) => ({ contents: [await readNote(host, `notes/memory/${name}`, uri.href)] }),
    )
  }
  server.registerResource(
    'day-pages',
    new ResourceTemplate('memory://days/{page}', {
      list: async () => {
        const { dreamlane } = await host.workspace()
        const names = await readdir(dreamlane.paths.days).catch(() => [])
        const pages = names
          .filter((name) => DAY_PAGE.test(name))
          .sort()
          .reverse()
        return {
          resources: pages.slice(0, MAX_LISTED_DAYS).map((name) => ({
            uri: `memory://days/${name}`,
            name: `days/${name}`,
            mimeType: MARKDOWN,
          })),
        }
      },
    }),
    { title: 'notes/memory/days/*.md', description: 'Distilled pages of single days.', mimeType: MARKDOWN },
    async (uri, variables) => {
      const page = String(variables.page)
      if (!DAY_PAGE.test(page))
        throw new ToolRefusal('NOT_FOUND', `${uri.href}: day pages are named memory://days/YYYY-MM-DD.md`)
      return { contents: [await readNote(host, `notes/memory/days/${page}`, uri.href)] }
    },
  )

  server.registerPrompt(
    'startup-memory',
    {
      title: 'Load memory',
      description: 'The startup contract and the core memory files, for the start of a session.',
    },
    async () => {
      const { dreamlane } = await host.workspace()
      const text = await startupMemoryText(dreamlane.paths, dreamlane.config.privacy.keepSecretKinds)
      return { messages: [{ role: 'user', content: { type: 'text', text } }] }
    },
  )
}

/** Through the read path policy, so a memory file swapped for a symlink out of the workspace is refused. */
async function readNote(host: McpHost, rel: string, uri: string) {
  const { dreamlane } = await host.workspace()
  const target = await resolveReadTarget(rel, 'file', dreamlane.paths, dreamlane.config)
  const text = withholdSecrets(await readFile(target.abs, 'utf8'), {
    keepKinds: dreamlane.config.privacy.keepSecretKinds,
  }).text
  return { uri, mimeType: MARKDOWN, text }
}
