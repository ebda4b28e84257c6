// Drives the real pages in headless chromium: chat replies, /dream with live progress, the run diff, a restore.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it, onTestFinished } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { makeTempDir } from '../helpers/workspace.js'
import { DREAMT_USER_MD, USER_MD, dreamScript, startServerWorld } from '../server/world.js'
import {
  SKIP_BROWSER,
  eventually,
  launchChromium,
  saveScreenshot,
  seeAttribute,
  seeCount,
  seeText,
  watchPageErrors,
} from './chromium.js'

function nav(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })
}

/** Messages from the last two days, so `/dream 7` has something to seed whatever today is. */
function recentHistory() {
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
  return [
    { chatJid: 'web:main', content: 'I started Portuguese lessons on Tuesdays.', timestamp: at(30) },
    { chatJid: 'web:main', content: 'Boa sorte! Noted.', timestamp: at(29.9), isBotMessage: true },
  ]
}

describe.skipIf(SKIP_BROWSER)('the web pages in chromium', () => {
  it('chat reply, /dream 7 with live progress and summary, the run diff, and a restore', async () => {
    const api = await startServerWorld({
      clock: systemClock,
      messages: recentHistory(),
      // Slow enough (2 × 600 ms inside the model turn) that progress is seen while it runs.
      dreamProvider: createScriptedProvider(dreamScript(600), {
        usagePerStep: { inputTokens: 1200, outputTokens: 90 },
      }),
    })
    const browser = await launchChromium()
    onTestFinished(() => browser.close())
    const page = await browser.newPage()
    const problems = watchPageErrors(page)
    // The README's screenshots come from the sample-history test; these only prove the pages render.
    const shots = makeTempDir('dreamlane-shots-')
    page.on('dialog', (dialog) => void dialog.accept())

    // Chat: type a message, see the reply quoting memory.
    await page.goto(`${api.server.url}chat/web%3Amain`)
    const composer = page.getByLabel('Message')
    await composer.fill('Where do I live? Porto?')
    await composer.press('Enter')
    await seeText(
      page.locator('.msg-assistant').last(),
      'notes/memory/user.md:3 — Lives in Porto since October 2026.',
    )

    // /dream 7: the reply, then the run's progress in the activity panel, then its summary in the chat.
    await composer.fill('/dream 7')
    await composer.press('Enter')
    await seeText(page.locator('.msg-dream').first(), 'Dream queued in the background for the last 7 day(s).')
    const activity = page.locator('#activity')
    await seeAttribute(activity, 'data-state', 'running')
    await seeText(page.locator('#activity-status'), 'running')
    await seeAttribute(activity, 'data-state', 'finished', 15_000)
    await seeText(page.locator('#activity-status'), 'succeeded.')
    await seeCount(page.locator('#activity-steps li'), 10) // lock, backup, secrets … index, review (ledger + loss guard), fts, cleanup
    const summary = page.locator('.msg-dream').filter({ hasText: 'Dream finished (manual, last 7 day(s)' })
    await seeCount(summary, 1)
    await seeText(summary, 'Added the Portuguese lessons to user.md.')
    const runId = (await activity.getAttribute('data-run-id')) ?? ''
    expect(runId).toMatch(/^run-/)
    await saveScreenshot(page, 'chat.png', shots)

    // Dreams view: the run is listed; its page shows the diff of memory files.
    await nav(page, 'Dreams').click()
    const row = page.locator(`tr[data-run-id="${runId}"]`)
    await seeText(row, 'succeeded')
    await seeText(row, 'manual')
    expect(await page.locator('#next-autodream').textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    await saveScreenshot(page, 'dreams.png', shots)
    await row.getByRole('link', { name: runId }).click()
    const userDiff = page.locator('details.diff-file[data-path="notes/memory/user.md"]')
    await seeText(userDiff, 'modified')
    expect(await userDiff.locator('tr.add ins').allTextContents()).toEqual([
      '- Started learning Portuguese (2026-11-21).',
    ])
    await seeText(page.locator('.diff-basis'), 'as this run left them')
    await saveScreenshot(page, 'run-diff.png', shots)

    // A second dream started from the Dreams form: its page shows steps arriving, then reloads finished.
    await nav(page, 'Dreams').click()
    await page.getByLabel('Days to consolidate').fill('2')
    await page.getByRole('button', { name: 'Start dream' }).click()
    await seeText(page.locator('.notice'), 'Dream queued')
    await seeText(page.locator('#run-live'), 'Running')
    await eventually(
      () => page.locator('#run-status').textContent(),
      (text) => text === 'succeeded',
      'the run page to show succeeded',
      15_000,
    )
    await seeCount(page.locator('#steps li'), 10)

    // Restore the first run's backup: notes go back to before the first dream. The run is shown succeeded
    // before its diary line is written under the lock, so the restore waits for the lock to go.
    await eventually(
      async () => existsSync(api.world.paths.lockFile),
      (held) => !held,
      'the dream lock to be released',
      15_000,
    )
    expect(readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8')).toBe(DREAMT_USER_MD)
    const backupId = api.host.dreamlane.runs.get(runId).backupId ?? ''
    await nav(page, 'Dreams').click()
    await page
      .locator(`tr[data-backup-id="${backupId}"]`)
      .getByRole('button', { name: /Restore/ })
      .click()
    await seeText(page.locator('.notice'), `Restored backup ${backupId}.`)
    expect(readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8')).toBe(USER_MD)
    await nav(page, 'Memory').click()
    await seeText(page.locator('#file-notes-memory-user-md'), 'Prefers green tea over coffee.')
    expect(await page.locator('#file-notes-memory-user-md').textContent()).not.toContain('Portuguese')

    expect(problems).toEqual([])
  }, 60_000)

  it('the chat form works with JavaScript disabled', async () => {
    const api = await startServerWorld({ clock: systemClock, messages: recentHistory() })
    const browser = await launchChromium({ javaScriptEnabled: false })
    onTestFinished(() => browser.close())
    const page = await browser.newPage()
    await page.goto(`${api.server.url}chat/web%3Amain`)
    await page.getByLabel('Message').fill('tea?')
    await page.getByRole('button', { name: 'Send' }).click()
    await seeText(page.locator('.msg-assistant').last(), 'Prefers green tea over coffee.')
  }, 60_000)
})
