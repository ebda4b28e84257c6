// A real listening server over a small real workspace: template notes, a messages DB, a scripted dream provider.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino, type Logger } from 'pino'
import { onTestFinished } from 'vitest'
import type { Clock } from '../../src/clock.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { createScriptedProvider, type ScriptStep } from '../../src/model/scripted.js'
import type { ModelProvider } from '../../src/model/provider.js'
import { openServerHost, type ServerHost } from '../../src/server/host.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'

export const USER_MD = '# User\n\n- Lives in Porto since October 2026.\n- Prefers green tea over coffee.\n'
export const DREAMT_USER_MD = `${USER_MD}- Started learning Portuguese (2026-11-21).\n`

/** A dream that reads, then rewrites user.md: enough for steps, tool calls, usage and a diff. */
export function dreamScript(waitMs = 0): ScriptStep[] {
  return [
    ...(waitMs ? [{ waitMs }] : []),
    { tool: 'read_file', input: { path: 'notes/memory/user.md' } },
    ...(waitMs ? [{ waitMs }] : []),
    { tool: 'write_file', input: { path: 'notes/memory/user.md', content: DREAMT_USER_MD } },
    { text: 'Added the Portuguese lessons to user.md.' },
  ]
}

export interface ServerWorld {
  world: DreamWorld
  host: ServerHost
  server: RunningServer
  /** Lines the server logged at error level (500s). */
  errors: unknown[]
  fetch(path: string, init?: RequestInit): Promise<Response>
  json<T = Record<string, unknown>>(
    path: string,
    init?: RequestInit & { json?: unknown },
  ): Promise<{ status: number; body: T; headers: Headers }>
}

export interface ServerWorldOptions {
  dreamProvider?: ModelProvider
  chatProvider?: ModelProvider
  token?: string
  host?: string
  clock?: Clock
  messages?: MessageSpec[]
  /** What provider selection sees (chat replies). @default {} — no keys, offline quotes */
  env?: Record<string, string>
  /** Config settings on top of the test defaults. */
  config?: ConfigFile
}

export async function startServerWorld(options: ServerWorldOptions = {}): Promise<ServerWorld> {
  const world = await makeDreamWorld(options.messages, options.config)
  writeFileSync(join(world.paths.memory, 'user.md'), USER_MD)
  const errors: unknown[] = []
  const logger: Logger = pino(
    { level: 'error' },
    { write: (line: string) => void errors.push(JSON.parse(line)) },
  )
  const host = openServerHost({
    config: world.config,
    // No keys: chat replies come from the offline engine (quotes) unless a test injects a model.
    env: options.env ?? {},
    clock: options.clock ?? world.clock,
    logger,
    provider:
      options.dreamProvider ??
      createScriptedProvider(dreamScript(), { usagePerStep: { inputTokens: 100, outputTokens: 10 } }),
    ...(options.chatProvider ? { chatProvider: options.chatProvider } : {}),
  })
  const server = await startServer(host, {
    host: options.host ?? '127.0.0.1',
    port: 0,
    token: options.token ?? null,
  })
  onTestFinished(async () => {
    await server.close()
    await host.dreamlane.close()
  })
  const base = `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`
  const send = (path: string, init?: RequestInit) => fetch(`${base}${path}`, init)
  return {
    world,
    host,
    server,
    errors,
    fetch: send,
    async json<T>(path: string, init: RequestInit & { json?: unknown } = {}) {
      const { json, ...rest } = init
      const request: RequestInit =
        json === undefined
          ? rest
          : {
              ...rest,
              method: rest.method ?? 'POST',
              body: JSON.stringify(json),
              headers: { 'content-type': 'application/json', ...rest.headers },
            }
      const response = await send(path, request)
      return { status: response.status, body: (await response.json()) as T, headers: response.headers }
    },
  }
}

/** Reads an SSE response until it ends (or `stopAfter` matches), returning the events in order. */
export async function readEvents(
  response: Response,
  stopAfter?: (event: { event: string; data: unknown }) => boolean,
): Promise<{ id: string | null; event: string; data: unknown }[]> {
  const events: { id: string | null; event: string; data: unknown }[] = []
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const fields = new Map<string, string>()
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':')
        if (colon <= 0) continue
        fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart())
      }
      if (!fields.has('data')) continue
      const event = {
        id: fields.get('id') ?? null,
        event: fields.get('event') ?? 'message',
        data: JSON.parse(fields.get('data') ?? 'null') as unknown,
      }
      events.push(event)
      if (stopAfter?.(event)) {
        await reader.cancel()
        return events
      }
    }
  }
  return events
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
