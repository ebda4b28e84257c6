// The stylesheet, served as /assets/app.css: readable without it, calmer with it; honours dark mode and reduced motion.

export const STYLESHEET = `
:root { color-scheme: light dark; --fg: #1d2430; --muted: #5b6575; --bg: #fbfbfd; --panel: #fff; --line: #d9dee7;
  --accent: #3d4fd6; --user: #e8ecff; --assistant: #f1f3f6; --dream: #fff5db; --add: #e3f7e6; --del: #fde7e7;
  --ok: #1f7a38; --bad: #b42318; --warn: #9a6700; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a2abba; --bg: #14171c; --panel: #1c2027;
  --line: #2f3540; --accent: #8f9cff; --user: #27305a; --assistant: #232831; --dream: #3a3220; --add: #17351f;
  --del: #3d1d1d; --ok: #6fd08c; --bad: #ff8a80; --warn: #e0b450; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.5; }
a { color: var(--accent); }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 0.92em; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--panel); padding: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; align-items: center; gap: 2rem; padding: .6rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { margin: 0; font-weight: 700; } .brand a { color: var(--fg); text-decoration: none; }
.top ul { display: flex; gap: 1.2rem; list-style: none; margin: 0; padding: 0; }
.top a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin: .4rem 0 1rem; } h2 { font-size: 1.2rem; margin-top: 1.8rem; }
.muted { color: var(--muted); } .warning { color: var(--warn); }
.notice { background: var(--dream); border: 1px solid var(--line); padding: .5rem .8rem; border-radius: 6px; }
button { font: inherit; padding: .35rem .9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: .6; cursor: progress; }
input, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.chat-layout { display: grid; grid-template-columns: 14rem 1fr; gap: 1.5rem; }
@media (max-width: 50rem) { .chat-layout { grid-template-columns: 1fr; } }
.chat-list ul { list-style: none; padding: 0; margin: 0 0 1rem; } .chat-list li { margin: .2rem 0; word-break: break-all; }
.chat-list a[aria-current="page"] { font-weight: 700; }
.open-chat { display: grid; gap: .3rem; }
.messages { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .6rem; }
.msg { padding: .5rem .8rem; border-radius: 10px; max-width: 46rem; border: 1px solid var(--line); }
.msg-user { background: var(--user); align-self: flex-end; } .msg-assistant { background: var(--assistant); }
.msg-dream { background: var(--dream); } .msg.pending { opacity: .65; }
.msg .meta { margin: 0 0 .2rem; font-size: .8rem; color: var(--muted); } .msg .who { font-weight: 700; color: var(--fg); }
.msg .text, .summary-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.activity { margin: 1rem 0; padding: .6rem .8rem; border: 1px dashed var(--line); border-radius: 8px; }
.activity h3 { margin: 0 0 .3rem; font-size: 1rem; }
.composer { display: grid; grid-template-columns: 1fr auto; gap: .4rem .6rem; margin-top: 1rem; }
.composer label { grid-column: 1 / -1; font-weight: 600; } .composer .hint { grid-column: 1 / -1; margin: 0; font-size: .85rem; color: var(--muted); }
.steps { padding-left: 1.4rem; } .steps li.failed { color: var(--bad); } .steps .step-name { font-weight: 600; }
.steps .step-detail { color: var(--muted); font-size: .9rem; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .4rem 1.2rem; }
.facts dt { font-size: .8rem; color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
caption { text-align: left; color: var(--muted); padding: .3rem 0; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.runs th a, .backups code { overflow-wrap: anywhere; }
.status { font-weight: 700; } .status-succeeded { color: var(--ok); } .status-failed, .status-lost, .status-cancelled { color: var(--bad); }
.status-degraded, .status-skipped, .status-held { color: var(--warn); } .status-discarded, .status-undone { color: var(--muted); } .status-running, .status-queued { color: var(--accent); }
.progress { color: var(--muted); font-size: .85rem; }
.diff-file { margin: .8rem 0; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
.diff-file summary { padding: .4rem .6rem; cursor: pointer; } .diff-file .counts { color: var(--muted); }
table.diff { font-family: ui-monospace, Menlo, monospace; font-size: .82rem; }
table.diff td { border: 0; padding: 0 .5rem; white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff td:nth-child(-n+2) { color: var(--muted); text-align: right; width: 3.5rem; user-select: none; }
table.diff thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
tr.add { background: var(--add); } tr.del { background: var(--del); } table.diff tr.hunk td { color: var(--muted); padding-top: .4rem; text-align: left; width: auto; }
ins, del { text-decoration: none; }
.change { font-size: .8rem; padding: 0 .4rem; border-radius: 4px; border: 1px solid var(--line); }
.note { border-top: 1px solid var(--line); margin-top: 1.5rem; }
.markdown .front-matter { background: var(--assistant); padding: .5rem; border-radius: 6px; font-size: .8rem; overflow-x: auto; }
.hidden-block { color: var(--muted); font-size: .8rem; font-style: italic; }
.wikilink { color: var(--accent); }
.tool-calls .preview { font-family: ui-monospace, Menlo, monospace; font-size: .8rem; overflow-wrap: anywhere; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`
