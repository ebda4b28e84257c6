// The fact-keys pass through real dreams: a scripted model writes and edits memory files with the note tools,
// and the lifecycle's passes, the loss guard and the run record are all real.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { openDreamlane } from '../../src/create.js'
import type { RunRecord } from '../../src/dream/types.js'
import { createOfflineProvider } from '../../src/model/offline/engine.js'
import { createScriptedProvider, type ScriptStep } from '../../src/model/scripted.js'
import { parseFactLine } from '../../src/notes/fact-lines.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { FAKE_APIS, type FakeCall } from '../helpers/fake-model-api.js'

const USER_MD = [
  '# User',
  '',
  '## Identity',
  '',
  '- **City: Porto** — moved here last month [[2026-11-20]]',
  '- **Job:** nurse [[2026-11-20]]',
  '- Walks the dog every morning [[2026-11-20]]',
  '',
  '## People',
  '',
  '### Ula (sister)',
  '',
  '- **Job: teacher** [[2026-11-20]]',
  '',
  '## Preferences',
  '',
  '* **Coffee** — black, no sugar',
  '',
].join('\n')
const PROJECT_MD = '# Projects\n\n## Decisions\n\n- **Database: Postgres** — for Atlas [[2026-11-21]]\n'
// The model writes only MEMORY.md's index block; the template's lines around it stay.
const MEMORY_MD = readFileSync(join(import.meta.dirname, '../../notes-template/MEMORY.md'), 'utf8').replace(
  '<!-- dreamlane:begin index -->\n',
  '<!-- dreamlane:begin index -->\n- who the user is: [user.md](user.md)\n- **Projects:** [project.md](project.md)\n',
)

const write = (file: string, content: string): ScriptStep => ({
  tool: 'write_file',
  input: { path: `notes/memory/${file}`, content },
})
const edit = (file: string, from: string, to: string): ScriptStep => ({
  tool: 'edit_file',
  input: { path: `notes/memory/${file}`, old_string: from, new_string: to },
})

function memoryOf(world: DreamWorld, file: string): string {
  return readFileSync(join(world.paths.memory, file), 'utf8')
}

/** One manual dream with `script` as the model, on the day of `iso`. */
async function dreamOn(world: DreamWorld, iso: string, script: ScriptStep[]): Promise<RunRecord> {
  world.clock.set(iso)
  const dreamlane = world.open({ provider: createScriptedProvider([...script, { text: 'Done.' }]) })
  try {
    return await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 1 })
  } finally {
    await dreamlane.close()
  }
}

const stepDetail = (run: RunRecord, name: string) => run.steps.find((step) => step.name === name)?.detail

/** Every bullet of `text` and the key it carries (null when it has none). */
function bulletKeys(text: string): { line: string; key: string | null }[] {
  return text
    .split('\n')
    .filter((line) => /^\s*[-*+] /.test(line))
    .map((line) => ({ line, key: parseFactLine(line)?.comment?.key ?? null }))
}

describe('the facts a model writes, keyed and tracked across dreams', () => {
  it('keys every fact, reinforces restatements, supersedes changes, guards keyed facts and is idempotent', async () => {
    const world = await makeDreamWorld()

    // Dream 1: the model writes facts in the contract's plain markdown, no key comments.
    const first = await dreamOn(world, '2026-11-21T20:00:00.000Z', [
      write('user.md', USER_MD),
      write('project.md', PROJECT_MD),
      write('MEMORY.md', MEMORY_MD),
    ])
    expect(first.status).toBe('succeeded')
    const keys = [...bulletKeys(memoryOf(world, 'user.md')), ...bulletKeys(memoryOf(world, 'project.md'))]
    expect(keys.filter((bullet) => bullet.key === null)).toEqual([])
    expect(keys.map((bullet) => bullet.key)).toEqual([
      'user.city',
      'user.job',
      'user.walks-the-dog-every-morning',
      'person.ula.job',
      'user.coffee',
      'project.database',
    ])
    expect(memoryOf(world, 'user.md')).toContain(
      '- **City: Porto** — moved here last month [[2026-11-20]] <!-- key: user.city; value: Porto; seen: 2026-11-20..2026-11-20 x1 -->',
    )
    // MEMORY.md holds pointers, not facts: left exactly as the model wrote it.
    expect(memoryOf(world, 'MEMORY.md')).toBe(MEMORY_MD)
    // The pass names the facts it keyed, in the run record's index step and in the summary.
    expect(stepDetail(first, 'index')).toMatch(
      /^6 fact\(s\) keyed \(user\.city, user\.job, user\.walks-the-dog-every-morning, person\.ula\.job, \+2 more\), 0 reinforced, 0 superseded; /,
    )
    expect(first.summary).toContain('Facts: 6 fact(s) keyed (user.city,')

    // Dream 2: the city restated by a new day link, the job restated as a new bullet, two values changed.
    const second = await dreamOn(world, '2026-11-23T20:00:00.000Z', [
      edit(
        'user.md',
        'moved here last month [[2026-11-20]]',
        'moved here last month [[2026-11-20]] [[2026-11-23]]',
      ),
      edit('user.md', '\n\n## People', '\n- **Job: nurse** — at the clinic [[2026-11-23]]\n\n## People'),
      edit('user.md', '\n\n## Preferences', '\n- **Job: headteacher** [[2026-11-23]]\n\n## Preferences'),
      edit(
        'project.md',
        '**Database: Postgres** — for Atlas [[2026-11-21]]',
        '**Database: SQLite** — for Atlas [[2026-11-21]] [[2026-11-23]]',
      ),
    ])
    expect(second.status).toBe('succeeded')
    const user = memoryOf(world, 'user.md')
    expect(user).toContain(
      '[[2026-11-20]] [[2026-11-23]] <!-- key: user.city; value: Porto; seen: 2026-11-20..2026-11-23 x2 -->',
    )
    // No duplicate: one job line, the restatement's words and day merged into it.
    expect(user.split('\n').filter((line) => line.includes('key: user.job;'))).toEqual([
      '- **Job:** nurse [[2026-11-20]]; at the clinic [[2026-11-23]] <!-- key: user.job; value: nurse; seen: 2026-11-20..2026-11-23 x2 -->',
    ])
    // Changes keep the old value, struck through with the day, the new one keyed after it.
    expect(user).toContain(
      '- ~~**Job: teacher** [[2026-11-20]]~~ — superseded 2026-11-23 → headteacher <!-- key: person.ula.job; value: teacher; superseded: 2026-11-23 -->\n',
    )
    expect(user).toContain(
      '- **Job: headteacher** [[2026-11-23]] <!-- key: person.ula.job; value: headteacher; seen: 2026-11-23..2026-11-23 x1 -->',
    )
    expect(memoryOf(world, 'project.md')).toBe(
      '# Projects\n\n## Decisions\n\n' +
        '- ~~**Database: Postgres** [[2026-11-21]]~~ — superseded 2026-11-23 → SQLite <!-- key: project.database; value: Postgres; superseded: 2026-11-23 -->\n' +
        '- **Database: SQLite** — for Atlas [[2026-11-23]] <!-- key: project.database; value: SQLite; seen: 2026-11-23..2026-11-23 x1 -->\n',
    )
    expect(stepDetail(second, 'index')).toMatch(
      /^0 fact\(s\) keyed, 2 reinforced \(user\.city, user\.job\), 2 superseded \(person\.ula\.job: teacher → headteacher, project\.database: Postgres → SQLite\), 1 restatement\(s\) merged; /,
    )
    // The loss guard checked the model's keyed facts and found none dropped: supersession is no loss.
    expect(stepDetail(second, 'review')).toContain('loss guard checked 6 keyed fact(s), 0 dropped')
    expect(second.lossFlags).toEqual([])
    expect(second.changes?.entriesSuperseded).toBe(2)

    // Dream 3: the model rewrites the files as they are. Nothing to key: the files stay byte for byte.
    const [userBefore, projectBefore] = [memoryOf(world, 'user.md'), memoryOf(world, 'project.md')]
    const third = await dreamOn(world, '2026-11-24T20:00:00.000Z', [
      write('user.md', userBefore),
      write('project.md', projectBefore),
    ])
    expect(third.status).toBe('succeeded')
    expect([memoryOf(world, 'user.md'), memoryOf(world, 'project.md')]).toEqual([userBefore, projectBefore])
    expect(stepDetail(third, 'index')).toMatch(/^0 fact\(s\) keyed, 0 reinforced, 0 superseded; /)
    expect(third.summary).not.toContain('Facts:')

    // Dream 4: the model drops a keyed fact. The loss guard names it and the run waits for review.
    const dropped = userBefore
      .split('\n')
      .filter((line) => !line.includes('Walks the dog'))
      .join('\n')
    const fourth = await dreamOn(world, '2026-11-25T20:00:00.000Z', [write('user.md', dropped)])
    expect(fourth.status).toBe('held')
    expect(fourth.lossFlags).toContainEqual(
      expect.objectContaining({
        kind: 'fact',
        term: 'user.walks-the-dog-every-morning',
        path: 'notes/memory/user.md',
      }),
    )
    expect(stepDetail(fourth, 'review')).toContain('loss guard checked 6 keyed fact(s), 1 dropped')
    expect(memoryOf(world, 'user.md')).toBe(userBefore)
  })
})

describe('the fact-keys pass after the offline engine', () => {
  const said = (timestamp: string, content: string): MessageSpec => ({
    chatJid: 'web:main',
    content,
    timestamp,
  })

  it('finds nothing to do: the engine keys its own facts', async () => {
    const world = await makeDreamWorld([
      said('2026-11-18T09:00:00.000Z', 'I live in Lisbon.'),
      said('2026-11-19T09:00:00.000Z', 'My sister Ula is a nurse. I love hiking.'),
      said('2026-11-20T09:00:00.000Z', 'We moved to Porto! I love hiking.'),
      said(
        '2026-11-21T09:00:00.000Z',
        'We decided to use Postgres for the Atlas project. The launch is on December 1.',
      ),
    ])
    const dreamlane = world.open({ provider: createOfflineProvider() })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 4 })
    await dreamlane.close()
    expect(run.status).toBe('succeeded')
    expect(memoryOf(world, 'user.md')).toContain('<!-- key: user.city; value: Porto')
    expect(stepDetail(run, 'index')).toMatch(/^0 fact\(s\) keyed, 0 reinforced, 0 superseded; /)
  })
})

describe.each(FAKE_APIS)('the fact-keys pass after a $name model', (api) => {
  /** One dream whose model makes `calls` in one reply over the provider's fake API, chosen by env. */
  async function dreamWith(world: DreamWorld, iso: string, calls: FakeCall[]): Promise<RunRecord> {
    world.clock.set(iso)
    const server = await api.start([api.tools(calls), api.text('Done.')])
    onTestFinished(() => server.close())
    const env = { ...api.envFor(server), DREAMLANE_DREAM_MODEL: 'dream-test-model' }
    const flags = { workspace: world.dir, timezone: 'UTC' }
    const config = resolveConfig({ env, flags })
    const dreamlane = openDreamlane({ config, env, clock: world.clock, logger: pino({ level: 'silent' }) })
    try {
      return await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 1 })
    } finally {
      await dreamlane.close()
    }
  }

  it('keys its facts, then reinforces a restated one and supersedes a changed one', async () => {
    const world = await makeDreamWorld()
    const path = 'notes/memory/user.md'
    const first = await dreamWith(world, '2026-11-21T20:00:00.000Z', [
      { name: 'write_file', input: { path, content: USER_MD } },
    ])
    expect(first.provider).toBe(api.name)
    expect(bulletKeys(memoryOf(world, 'user.md')).filter((bullet) => bullet.key === null)).toEqual([])
    const second = await dreamWith(world, '2026-11-23T20:00:00.000Z', [
      {
        name: 'edit_file',
        input: {
          path,
          old_string: 'nurse [[2026-11-20]]',
          new_string: 'nurse [[2026-11-20]] [[2026-11-23]]',
        },
      },
      { name: 'edit_file', input: { path, old_string: '**City: Porto**', new_string: '**City: Lisbon**' } },
    ])
    expect(second.status).toBe('succeeded')
    const user = memoryOf(world, 'user.md')
    expect(user).toContain('<!-- key: user.job; value: nurse; seen: 2026-11-20..2026-11-23 x2 -->')
    expect(user).toContain(
      '- ~~**City: Porto** [[2026-11-20]]~~ — superseded 2026-11-23 → Lisbon <!-- key: user.city; value: Porto; superseded: 2026-11-23 -->',
    )
    expect(stepDetail(second, 'index')).toMatch(
      /^0 fact\(s\) keyed, 1 reinforced \(user\.job\), 1 superseded \(user\.city: Porto → Lisbon\); /,
    )
    expect(second.lossFlags).toEqual([])
  })
})
