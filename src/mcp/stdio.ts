// `dreamlane mcp`: one MCP server on stdin/stdout until the client goes away.
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createMcpServer } from './server.js'
import type { McpHost } from './workspace.js'

export interface StdioOptions {
  stdin: Readable
  stdout: Writable
}

/** Serves until stdin ends or the transport closes; resolves then (the caller shuts the workspace down). */
export async function serveMcpStdio(host: McpHost, options: StdioOptions): Promise<void> {
  const server = createMcpServer(host)
  const transport = new StdioServerTransport(options.stdin, options.stdout)
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve
    // The client closing its end of the pipe is how stdio MCP sessions normally end.
    options.stdin.once('end', () => void server.close())
    options.stdin.once('close', () => void server.close())
  })
  await server.connect(transport)
  await closed
}
