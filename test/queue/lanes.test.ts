import { describe, expect, it } from 'vitest'
import { LaneManager } from '../../src/queue/lanes.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('lanes', () => {
  it('runs one dream at a time per workspace and one turn at a time per chat, chat beside dreams', async () => {
    const lanes = new LaneManager()
    const log: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = lanes.runDream(async () => {
      log.push('dream-1 start')
      await gate
      log.push('dream-1 end')
    })
    const second = lanes.runDream(async () => log.push('dream-2'))
    const chat = lanes.runChat('main', async () => log.push('chat'))
    await chat
    expect(log).toEqual(['dream-1 start', 'chat'])
    release()
    await Promise.all([first, second])
    expect(log).toEqual(['dream-1 start', 'chat', 'dream-1 end', 'dream-2'])
  })

  it('queues dreams behind each other even when different chats asked for them', async () => {
    const lanes = new LaneManager()
    const log: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const fromA = lanes.runDream(async () => {
      log.push('a start')
      await gate
      log.push('a end')
    })
    const fromB = lanes.runDream(async () => log.push('b'))
    await tick()
    expect(log).toEqual(['a start'])
    release()
    await Promise.all([fromA, fromB])
    expect(log).toEqual(['a start', 'a end', 'b'])
  })

  it('makes a dream wait at a tool-call boundary while a chat turn runs', async () => {
    const lanes = new LaneManager()
    let finishChat!: () => void
    const chatDone = lanes.runChat('main', () => new Promise<void>((resolve) => (finishChat = resolve)))
    let yielded = false
    const dreamStep = lanes.yieldToInteractive().then(() => (yielded = true))
    await tick()
    expect(yielded).toBe(false)
    finishChat()
    await chatDone
    await dreamStep
    expect(yielded).toBe(true)
  })

  it('caps concurrent model calls and lets chat calls jump queued dream calls', async () => {
    const lanes = new LaneManager({ maxModelCalls: 1 })
    const order: string[] = []
    let release!: () => void
    const busy = lanes.withModelSlot('dream', () => new Promise<void>((resolve) => (release = resolve)))
    const dreamCall = lanes.withModelSlot('dream', async () => order.push('dream'))
    const chatCall = lanes.withModelSlot('chat', async () => order.push('chat'))
    await tick()
    expect(order).toEqual([])
    release()
    await Promise.all([busy, dreamCall, chatCall])
    expect(order).toEqual(['chat', 'dream'])
  })
})
