// The Streamable-HTTP endpoint `serve` mounts at /mcp: one MCP server per session, sessions capped and closable.
import { randomUUID } from 'node:crypto'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { createMcpServer } from './server.js'
import type { McpHost } from './workspace.js'

/** Open sessions kept at once; a new one beyond this closes the least recently used. */
export const MAX_MCP_SESSIONS = 32
/**
 * Request bodies the transport reads, in bytes: above the tools' own limits (a note is capped at 8 KiB), so an
 * oversized argument is refused by the tool's schema with an MCP error rather than by HTTP.
 */
export const MAX_MCP_BODY_BYTES = 2 * 1024 * 1024

export interface McpHttpEndpoint {
  /** Answers one request to /mcp (POST, GET for the event stream, DELETE to end a session). */
  handle(request: Request): Promise<Response>
  /** Closes every session (their event streams end). */
  close(): Promise<void>
  /** Sessions open now. */
  readonly sessionCount: number
}

interface Session {
  server: McpServer
  transport: WebStandardStreamableHTTPServerTransport
}

export function createMcpHttpEndpoint(host: McpHost): McpHttpEndpoint {
  // Insertion order doubles as recency: a session is moved to the end each time it is used.
  const sessions = new Map<string, Session>()

  async function open(request: Request): Promise<Response> {
    const server = createMcpServer(host)
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport })
        if (sessions.size > MAX_MCP_SESSIONS) void closeOldest()
      },
      onsessionclosed: (id) => void sessions.delete(id),
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    const response = await transport.handleRequest(request)
    // Anything but a good initialize (the transport has answered 400) leaves no session behind.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await server.close()
    return response
  }

  async function closeOldest(): Promise<void> {
    const [id, oldest] = sessions.entries().next().value ?? []
    if (id === undefined || !oldest) return
    sessions.delete(id)
    await oldest.server.close()
  }

  return {
    get sessionCount() {
      return sessions.size
    },
    async handle(request) {
      const id = request.headers.get('mcp-session-id')
      if (id === null) {
        if (request.method === 'POST') return open(request)
        return rpcError(
          400,
          -32000,
          'Bad Request: no mcp-session-id header; POST an initialize request first',
        )
      }
      const session = sessions.get(id)
      if (!session) return rpcError(404, -32001, 'Session not found: initialize a new session')
      sessions.delete(id)
      sessions.set(id, session)
      return session.transport.handleRequest(request)
    },
    async close() {
      const all = [...sessions.values()]
      sessions.clear()
      await Promise.all(all.map((session) => session.server.close()))
    },
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status })
}
