import { describe, expect, it } from 'vitest'
import { pino } from 'pino'
import { createApp } from '../../src/server/app.js'
import { EventHub } from '../../src/server/events.js'
import type { ServerHost } from '../../src/server/host.js'
import { startServer } from '../../src/server/start.js'
import { startServerWorld } from './world.js'

const TOKEN = 's3cret-token-for-tests'

describe('access', () => {
  it('will not bind beyond loopback without a token (and binds nothing trying)', async () => {
    const api = await startServerWorld()
    await expect(startServer(api.host, { host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('--token'),
    })
    await expect(startServer(api.host, { host: '192.168.0.10', port: 0, token: '  ' })).rejects.toMatchObject(
      { code: 'USAGE' },
    )
  })

  it('requires the bearer token on every route when one is set, API and events included', async () => {
    const api = await startServerWorld({ token: TOKEN })
    for (const path of ['/api/status', '/api/chats', '/api/events', '/dreams', '/assets/app.js']) {
      const response = await api.fetch(path)
      expect([path, response.status]).toEqual([path, 401])
      expect(response.headers.get('www-authenticate')).toContain('Bearer')
    }
    const wrong = await api.fetch('/api/status', { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    const sent = await api.fetch('/api/chats/web:main/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    })
    expect(sent.status).toBe(401)
    expect(api.host.dreamlane.messages.listChatMessages('web:main').some((m) => m.content === 'hi')).toBe(
      false,
    )
    const right = await api.fetch('/api/status', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(right.status).toBe(200)
  })

  it('logs a browser in from ?token= once, then the cookie carries it', async () => {
    const api = await startServerWorld({ token: TOKEN })
    const login = await api.fetch(`/dreams?token=${TOKEN}`, { redirect: 'manual' })
    expect(login.status).toBe(303)
    expect(login.headers.get('location')).toBe('/dreams')
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    const page = await api.fetch('/dreams', { headers: { cookie } })
    expect(page.status).toBe(200)
    const badLogin = await api.fetch('/dreams?token=wrong', { redirect: 'manual' })
    expect(badLogin.status).toBe(401)
  })

  it('applies the public policy (token required) to a non-loopback binding, checked in-process', async () => {
    const api = await startServerWorld()
    const app = createApp(api.host, { token: TOKEN, isLoopback: false })
    const anonymous = await app.request('http://192.168.1.5:8787/api/status', {
      headers: { host: '192.168.1.5:8787' },
    })
    expect(anonymous.status).toBe(401)
    const authed = await app.request('http://192.168.1.5:8787/api/status', {
      headers: { host: '192.168.1.5:8787', authorization: `Bearer ${TOKEN}` },
    })
    expect(authed.status).toBe(200)
  })

  it('refuses cross-site writes and foreign Host names on loopback (DNS rebinding)', async () => {
    const api = await startServerWorld()
    const chats = api.host.dreamlane.messages.listChats().length
    const crossSite = await api.fetch('/api/chats/web:evil/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: '{"text":"hi"}',
    })
    expect(crossSite.status).toBe(403)
    const form = await api.fetch('/dreams', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
      body: 'days=2',
    })
    expect(form.status).toBe(403)
    expect(api.host.dreamlane.messages.listChats()).toHaveLength(chats)
    expect(api.host.dreamlane.runs.list()).toHaveLength(0)
    const app = createApp(api.host)
    const rebound = await app.request('http://evil.example/api/status', { headers: { host: 'evil.example' } })
    expect(rebound.status).toBe(403)
    const sameOrigin = await api.fetch('/api/chats/web:main/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${api.server.port}` },
      body: '{"text":"hi"}',
    })
    expect(sameOrigin.status).toBe(201)
  })
})

describe('errors that are bugs', () => {
  it('answer 500 with a generic message and log the stack', async () => {
    const api = await startServerWorld()
    const logged: { msg: string; err?: { stack?: string } }[] = []
    const broken: ServerHost = {
      ...api.host,
      hub: new EventHub(api.world.dir),
      log: pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
      assistant: {
        history: () => [],
        send: () => Promise.reject(new TypeError('cannot read properties of undefined')),
      },
    }
    const app = createApp(broken)
    const response = await app.request('http://127.0.0.1/api/chats/web:main/messages', {
      method: 'POST',
      headers: { host: '127.0.0.1', 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    })
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({
      error: { code: 'INTERNAL', message: 'internal error (logged on the server)' },
    })
    expect(logged).toHaveLength(1)
    expect(logged[0]?.err?.stack).toContain('TypeError: cannot read properties of undefined')
    const page = await app.request('http://127.0.0.1/chat/web:main', {
      method: 'POST',
      headers: { host: '127.0.0.1', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=hi',
    })
    expect(page.status).toBe(500)
    expect(page.headers.get('content-type')).toContain('text/html')
  })
})
