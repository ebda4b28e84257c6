import { writeFileSync, mkdirSync } from 'node:fs'
import { it } from 'vitest'
import { makeDreamWorld } from './world.js'
it('scratch', async () => {
  const world = await makeDreamWorld({ days: 21 })
  const t0 = performance.now()
  const result = await world.dream()
  console.log('ms', performance.now() - t0, result.stop, result.transcript.length)
  console.log(result.text)
  mkdirSync('/tmp/offline-scratch/out', { recursive: true })
  for (const [path, text] of world.snapshot()) writeFileSync(`/tmp/offline-scratch/out/${path.replace(/\//g, '_')}`, text)
  const before = world.snapshot()
  const again = await world.dream()
  console.log(again.text)
  for (const [p, t] of world.snapshot()) if (before.get(p) !== t) console.log('CHANGED', p)
})
