// Tool results as MCP wants them: text content, and refusals as `isError` results that name the error code.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { DreamlaneError } from '../errors.js'
import type { McpHost } from './workspace.js'

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] }
}

export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2))
}

/** A refusal the assistant can act on: `CODE: message`. */
export function errorResult(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true }
}

/**
 * Runs a tool body; a DreamlaneError becomes an error result with its code, anything else is a bug: its
 * stack is logged and the client gets a generic INTERNAL result, never a dropped connection.
 */
export async function guarded(
  host: McpHost,
  tool: string,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body()
  } catch (error) {
    if (error instanceof DreamlaneError) return errorResult(error.code, error.message)
    host.logBug(error, tool)
    return errorResult('INTERNAL', `${tool} failed with an internal error (logged by the server)`)
  }
}
