// The pages on real data: the sample history, a real offline-engine dream, its diff — and the README screenshots.
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { generateSample } from '../../src/sample/generate.js'
import { openServerHost } from '../../src/server/host.js'
import { startServer } from '../../src/server/start.js'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import {
  SKIP_BROWSER,
  eventually,
  launchChromium,
  saveScreenshot,
  seeAttribute,
  seeText,
  watchPageErrors,
} from './chromium.js'

/** `DREAMLANE_UPDATE_SCREENSHOTS=1` writes docs/*.png for the README; otherwise they go to a temp dir. */
const SHOTS_TO_DOCS = process.env.DREAMLANE_UPDATE_SCREENSHOTS === '1'

describe.skipIf(SKIP_BROWSER)('the pages on the sample history', () => {
  it('a real offline dream from the chat: progress, summary, memory diff, dashboard', async () => {
    const ws = makeWorkspace()
    await initWorkspace(ws.paths)
    const sample = await generateSample({ file: ws.paths.messagesDb, now: new Date(), timeZone: 'UTC' })
    // env {}: the offline engine, whatever keys the machine running the tests has.
    const host = openServerHost({
      config: ws.config,
      env: {},
      clock: systemClock,
      logger: pino({ level: 'silent' }),
    })
    const server = await startServer(host, { port: 0 })
    onTestFinished(async () => {
      await server.close()
      await host.dreamlane.close()
    })
    const browser = await launchChromium()
    onTestFinished(() => browser.close())
    const page = await browser.newPage()
    const problems = watchPageErrors(page)
    const shots = SHOTS_TO_DOCS ? null : makeTempDir('dreamlane-shots-')

    await page.goto(`${server.url}chat/${encodeURIComponent(sample.mainChat)}`)
    const composer = page.getByLabel('Message')
    await composer.fill('/dream 7')
    await composer.press('Enter')
    await seeAttribute(page.locator('#activity'), 'data-state', 'finished', 20_000)
    await seeText(page.locator('#activity-status'), 'succeeded.')
    await seeText(page.locator('.msg-dream').last(), 'Dream finished (manual, last 7 day(s)')
    await composer.fill('Where did we move? Porto')
    await composer.press('Enter')
    await seeText(page.locator('.msg-assistant').last(), 'notes/memory/user.md')
    // The bottom of the chat: the summary, the answer, the dream's steps and the composer.
    await page.evaluate("document.getElementById('composer').scrollIntoView({ block: 'end' })")
    await saveScreenshot(page, 'chat.png', shots, { fullPage: false })

    const runId = (await page.locator('#activity').getAttribute('data-run-id')) ?? ''
    expect(runId).toMatch(/^run-/)
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dreams', exact: true })
      .click()
    await seeText(page.locator(`tr[data-run-id="${runId}"]`), 'succeeded')
    await saveScreenshot(page, 'dreams.png', shots)

    await page.locator(`tr[data-run-id="${runId}"]`).getByRole('link').click()
    const memoryDiffs = page.locator('details.diff-file[open]')
    const changed = await eventually(
      () => memoryDiffs.count(),
      (count) => count > 0,
      'memory file diffs',
    )
    expect(changed).toBeGreaterThan(0)
    expect(await page.locator('details.diff-file[open] tr.add').count()).toBeGreaterThan(0)
    await page.evaluate("document.getElementById('diff').scrollIntoView({ block: 'start' })")
    await saveScreenshot(page, 'run-diff.png', shots, { fullPage: false })

    expect(problems).toEqual([])
  }, 90_000)
})
