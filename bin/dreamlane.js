#!/usr/bin/env node
// Entry point: runs the compiled CLI (dist/ is built by `npm install` / `npm ci` through the prepare script).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const main = new URL('../dist/cli/main.js', import.meta.url)
if (!existsSync(fileURLToPath(main))) {
  console.error('dreamlane is not built yet: run `npm install` (or `npm run build`) in the repository first.')
  process.exit(1)
}
await import(main.href)
