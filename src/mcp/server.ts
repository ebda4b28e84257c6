// One MCP server over a workspace: the memory and dream tools, the memory resources and the startup prompt.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { PACKAGE_ROOT } from '../notes/paths.js'
import { registerDreamTools } from './dream-tools.js'
import { registerForgetTool } from './forget-tool.js'
import { registerMemoryTools } from './memory-tools.js'
import { registerMemoryResources } from './resources.js'
import { STARTUP_CONTRACT } from './startup-contract.js'
import { clientChatJid, type McpHost } from './workspace.js'

/** A server for one client connection (stdio, or one Streamable-HTTP session). */
export function createMcpServer(host: McpHost): McpServer {
  const server = new McpServer(
    { name: 'dreamlane', title: 'dreamlane memory', version: dreamlaneVersion() },
    { instructions: STARTUP_CONTRACT },
  )
  // Known once the client has introduced itself; every tool call comes after that.
  const chatJid = () => clientChatJid(server.server.getClientVersion()?.name)
  registerMemoryTools(server, host, chatJid)
  registerDreamTools(server, host, chatJid)
  registerForgetTool(server, host, chatJid)
  registerMemoryResources(server, host)
  return server
}

let version: string | undefined

/** dreamlane's version, reported in the handshake. */
function dreamlaneVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version
  return version
}
