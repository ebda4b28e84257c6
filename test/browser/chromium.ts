// Launches Debian's chromium headless through playwright-core, in a fresh profile.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { makeTempDir } from '../helpers/workspace.js'
import { browserMode, chromiumPathOf } from './browser-mode.js'

export const CHROMIUM_PATH = chromiumPathOf(process.env)

/** Skipped (loudly, by test/global-setup.ts) without chromium unless DREAMLANE_REQUIRE_BROWSER=1; see browserMode. */
export const SKIP_BROWSER = !browserMode(process.env, CHROMIUM_PATH).run

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export async function launchChromium(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `chromium is not installed at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (DREAMLANE_REQUIRE_BROWSER=1 is set, so a missing browser fails)`,
    )
  }
  return chromium.launchPersistentContext(makeTempDir('dreamlane-chromium-'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  })
}

/** Collects uncaught page errors and console errors (a CSP violation shows up here), to assert there are none. */
export function watchPageErrors(page: Page): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  return problems
}

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url))
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A PNG (full page unless told) into `dir`, or into docs/ (for the README) when `dir` is null; checks it is a PNG. */
export async function saveScreenshot(
  page: Page,
  name: string,
  dir: string | null,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  const file = join(dir ?? DOCS, name)
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true })
  if (!readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error(`${file} is not a PNG`)
  return file
}

/** Polls `read` until `accept` says yes (playwright-core has no expect): the UI is asynchronous by design. */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await read()
    if (accept(last)) return last
    if (performance.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`)
    await new Promise((resolve) => setTimeout(resolve, 40))
  }
}

export function seeText(locator: Locator, text: string, timeoutMs?: number): Promise<string> {
  return eventually(
    async () => ((await locator.count()) ? ((await locator.first().textContent()) ?? '') : ''),
    (value) => value.includes(text),
    `text "${text}"`,
    timeoutMs,
  )
}

export function seeAttribute(
  locator: Locator,
  name: string,
  value: string,
  timeoutMs?: number,
): Promise<string | null> {
  return eventually(
    () => locator.getAttribute(name),
    (seen) => seen === value,
    `${name}="${value}"`,
    timeoutMs,
  )
}

export function seeCount(locator: Locator, count: number, timeoutMs?: number): Promise<number> {
  return eventually(
    () => locator.count(),
    (seen) => seen === count,
    `${count} element(s)`,
    timeoutMs,
  )
}
