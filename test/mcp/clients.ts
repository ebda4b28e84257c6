// MCP clients for tests: the SDK's own Client over a spawned `dreamlane mcp`, or over Streamable HTTP.
import Database from 'better-sqlite3'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { onTestFinished } from 'vitest'

const BIN = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))

/** A client connected to a real `dreamlane mcp` process (dist/, built by the global setup) on `workspace`. */
export async function spawnMcpClient(
  workspace: string,
  name: string,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--workspace', workspace, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC' },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(transport)
  onTestFinished(() => client.close())
  return { client, stderr: () => stderr }
}

/** A client connected to `<base>/mcp` with optional extra headers (a token, an Origin). */
export async function httpMcpClient(
  base: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), { requestInit: { headers } })
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(transport)
  onTestFinished(() => client.close())
  return client
}

/** Calls `name` and returns its text, failing the test on an error result. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const text = textOf(result)
  if (result.isError) throw new Error(`${name} answered an error: ${text}`)
  return text
}

/** Calls `name` expecting an error result; returns its text. */
export async function callRefused(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (!result.isError) throw new Error(`${name} was expected to refuse, answered: ${textOf(result)}`)
  return textOf(result)
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

/** Recall events recorded for `chatJid`, read straight from state.db. */
export function recallEventsOf(stateDb: string, chatJid: string): { chunk_key: string }[] {
  const db = new Database(stateDb, { readonly: true, fileMustExist: true })
  try {
    return db.prepare('SELECT chunk_key FROM recall_events WHERE chat_jid = ?').all(chatJid) as {
      chunk_key: string
    }[]
  } finally {
    db.close()
  }
}
