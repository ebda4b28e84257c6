import { openStateDb } from './src/db/state.js'
const state = openStateDb('/tmp/prof-state/state.db')
for (const detail of ['none', 'column', 'full']) {
  state.exec(`DROP TABLE IF EXISTS tg; CREATE VIRTUAL TABLE tg USING fts5(body, content='fts_chunks', content_rowid='id', tokenize='trigram', detail=${detail})`)
  let t = performance.now()
  state.exec(`INSERT INTO tg(tg) VALUES('rebuild')`)
  const build = performance.now() - t
  for (const q of ['%ostgre%', '%zzzz%', '%kayak harb%', '%ha%']) {
    t = performance.now()
    const n = state.prepare("SELECT count(*) n FROM tg WHERE body LIKE ?").get(q)
    console.log(detail, 'build', build.toFixed(0), q, n, (performance.now() - t).toFixed(1))
  }
}
