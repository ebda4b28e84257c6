import { defineConfig } from 'vitest/config'
export default defineConfig({
  root: '/work/main',
  resolve: { alias: [{ find: /^\.\/offline\/engine\.js$/, replacement: '/work/main/.tmp-stub/engine.ts' }] },
})
