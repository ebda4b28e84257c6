import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../src/server/web/markdown.js'
import { USER_MD, startServerWorld, waitFor, type ServerWorld } from './world.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

async function page(api: ServerWorld, path: string): Promise<{ status: number; html: string }> {
  const response = await api.fetch(path)
  return { status: response.status, html: await response.text() }
}

async function post(api: ServerWorld, path: string, body: string): Promise<Response> {
  return api.fetch(path, { method: 'POST', headers: FORM, body, redirect: 'manual' })
}

describe('pages without JavaScript', () => {
  it('redirects / to the chat, renders the conversation, and a posted form answers and redirects back', async () => {
    const api = await startServerWorld()
    expect((await api.fetch('/', { redirect: 'manual' })).headers.get('location')).toBe('/chat')
    expect((await api.fetch('/chat', { redirect: 'manual' })).headers.get('location')).toBe(
      '/chat/web%3Amain',
    )

    const sent = await post(api, '/chat/web%3Amain', 'text=Where+do+I+live%3F+Porto')
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe('/chat/web%3Amain#composer')
    const { status, html } = await page(api, '/chat/web%3Amain')
    expect(status).toBe(200)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('Where do I live? Porto')
    expect(html).toContain('notes/memory/user.md:3 — Lives in Porto since October 2026.')
    expect(html).toContain('<form method="post" action="/chat/web%3Amain" id="composer"')
    expect(html).toMatch(/<label for="composer-text">Message<\/label>/)
  })

  it('escapes message text and note text everywhere', async () => {
    const api = await startServerWorld()
    await api.json('/api/chats/web:main/messages', { json: { text: '<script>alert(1)</script> porto' } })
    const chat = await page(api, '/chat/web%3Amain')
    expect(chat.html).not.toContain('<script>alert(1)</script>')
    expect(chat.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; porto')
    writeFileSync(
      join(api.world.paths.memory, 'reference.md'),
      '# Ref\n\n- <img src=x onerror=alert(1)> [x](javascript:alert(1))\n',
    )
    const memory = await page(api, '/memory')
    expect(memory.html).not.toContain('<img src=x')
    expect(memory.html).not.toContain('href="javascript:')
    expect(memory.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('starts a dream from the Dreams form, shows the run with its diff, and restores a backup', async () => {
    const api = await startServerWorld()
    const dreams = await page(api, '/dreams')
    expect(dreams.html).toContain('Next AutoDream')
    expect(dreams.html).toContain('2026-11-22 01:00 UTC')

    const started = await post(api, '/dreams', 'days=2')
    expect(started.status).toBe(303)
    const location = started.headers.get('location') ?? ''
    expect(location).toMatch(/^\/dreams\/run-[^?]+\?notice=queued$/)
    const runId = decodeURIComponent(location.slice('/dreams/'.length, location.indexOf('?')))
    await waitFor(() => api.host.dreamlane.runs.get(runId).status === 'succeeded', 'the dream')
    // The run is closed before its diary line is written under the lock; a restore waits for the lock to go.
    await waitFor(() => !existsSync(api.world.paths.lockFile), 'the dream lock released')

    const run = await page(api, location)
    expect(run.html).toContain('Dream queued. Progress appears below as it runs.')
    expect(run.html).toContain('<span class="status status-succeeded" id="run-status">succeeded</span>')
    expect(run.html).toContain('<ins>- Started learning Portuguese (2026-11-21).</ins>')
    expect(run.html).toContain('the files as this run left them (its change ledger)')
    expect(run.html).toContain('<code>write_file</code>')

    const listed = await page(api, '/dreams')
    expect(listed.html).toContain(`<a href="/dreams/${encodeURIComponent(runId)}">${runId}</a>`)
    const backupId = api.host.dreamlane.runs.get(runId).backupId ?? ''
    const restored = await post(api, `/backups/${encodeURIComponent(backupId)}/restore`, '')
    expect(restored.status).toBe(303)
    const after = await page(api, restored.headers.get('location') ?? '')
    expect(after.html).toContain(`Restored backup ${backupId}.`)
    expect(readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8')).toBe(USER_MD)
  })

  it('renders the memory files, with front matter and hidden blocks marked, not dumped', async () => {
    const api = await startServerWorld()
    mkdirSync(api.world.paths.days, { recursive: true })
    writeFileSync(
      join(api.world.paths.days, '2026-11-21.md'),
      '---\ndate: 2026-11-21\n---\n# Atlas day\n\n<!-- DREAM_CUES\nsecret cue\nDREAM_CUES -->\n**Decided** Postgres. [[2026-11-20]]\n' +
        '- ~~Lives in Lisbon~~ (superseded) — see [User](../user.md) and [the log](../../daily/2026-11-20.md)\n',
    )
    const { html } = await page(api, '/memory')
    expect(html).toContain('<a href="#file-notes-memory-user-md">notes/memory/user.md</a>')
    expect(html).toContain('<li>Lives in Porto since October 2026.</li>')
    expect(html).toContain('<pre class="front-matter" aria-label="front matter">date: 2026-11-21</pre>')
    expect(html).toContain('(hidden DREAM_CUES block)')
    expect(html).not.toContain('secret cue')
    // [[day]] leads to that day's note; superseded entries are struck through; note links resolve.
    expect(html).toContain(
      '<strong>Decided</strong> Postgres. <a class="wikilink" href="/note?path=notes%2Fdaily%2F2026-11-20.md">[[2026-11-20]]</a>',
    )
    expect(html).toContain('<del>Lives in Lisbon</del> (superseded)')
    expect(html).toContain('<a href="#file-notes-memory-user-md">User</a>')
    expect(html).toContain('<a href="/note?path=notes%2Fdaily%2F2026-11-20.md">the log</a>')
    const note = await page(api, '/note?path=notes%2Fmemory%2Fuser.md')
    expect(note.html).toContain('<li>Lives in Porto since October 2026.</li>')
    for (const bad of ['../../etc/passwd', '.dreamlane%2Fconfig.json', 'notes%2F..%2F..%2Fetc%2Fpasswd'])
      expect((await page(api, `/note?path=${bad}`)).status).toBe(404)
  })

  it('answers bad form input with 400 and unknown runs with a 404 page', async () => {
    const api = await startServerWorld()
    const bad = await post(api, '/dreams', 'days=seven')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('invalid form')
    expect(api.host.dreamlane.runs.list()).toHaveLength(0)
    const missing = await page(api, '/dreams/run-nope')
    expect(missing.status).toBe(404)
    expect(missing.html).toContain('no run with id &quot;run-nope&quot;')
  })

  it('serves the script and stylesheet with their types and a strict content policy', async () => {
    const api = await startServerWorld()
    const script = await api.fetch('/assets/app.js')
    expect(script.headers.get('content-type')).toContain('text/javascript')
    expect(await script.text()).toContain("new EventSource('/api/events?after='")
    const style = await api.fetch('/assets/app.css')
    expect(style.headers.get('content-type')).toContain('text/css')
    expect(style.headers.get('content-security-policy')).toContain("default-src 'self'")
  })
})

describe('markdown rendering', () => {
  it.each([
    ['[ok](days/2026-11-21.md)', '<a href="days/2026-11-21.md">ok</a>'],
    ['[web](https://example.com/a?b=1&c=2)', '<a href="https://example.com/a?b=1&amp;c=2">web</a>'],
    ['[bad](javascript:alert(1))', 'bad (javascript:alert(1'],
    ['[bad](//evil.example)', 'bad (//evil.example)'],
    ['`<b>` and *em*', '<code>&lt;b&gt;</code> and <em>em</em>'],
  ])('%s', (source, expected) => {
    expect(renderMarkdown(source).value).toContain(expected)
  })
})
