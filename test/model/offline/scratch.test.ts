import { it } from 'vitest'
import { makeDreamWorld } from './world.js'
it('scratch', async () => {
  const world = await makeDreamWorld()
  const t0 = performance.now()
  const result = await world.dream()
  console.log('ms', performance.now() - t0, result.stop, result.transcript.length)
  console.log(result.text)
  for (const [path, text] of world.snapshot()) if (path.includes('memory')) console.log(`==== ${path}\n${text}`)
  const daily = [...world.snapshot()].filter(([p]) => p.includes('daily'))
  console.log(daily.at(-1)?.[1])
  const before = world.snapshot()
  const again = await world.dream()
  console.log(again.text)
  const after = world.snapshot()
  for (const [p, t] of after) if (before.get(p) !== t) console.log('CHANGED', p)
})
