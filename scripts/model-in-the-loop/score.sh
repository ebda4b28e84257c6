#!/usr/bin/env bash
# score.sh OUT — scores a finished relay dream's notes: LoCoMo with score.mjs, the sample with its planted facts.
# Also prints the run's requests, tool calls and tokens (fresh, cache reads, cache writes, output).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EVAL=${EVAL:-$ROOT/../shared/eval}
out=$(cd "${1:?usage: score.sh OUT}" && pwd)
ws=$out/ws
export EVAL_DEPS=$ROOT
if [ -f "$ws/.dreamlane/qa.json" ]; then
  node "$EVAL/score.mjs" --notes "$ws" --qa "$ws/.dreamlane/qa.json" --db "$ws/.dreamlane/messages.db" --json "$out/score.json" > "$out/score.txt"
  node -e '
    const s = require(process.argv[1]); const c = s.compression; const pc = (x) => (100 * x / c.transcript_bytes).toFixed(1) + "%";
    console.log(`retention ${s.retention.overall.ratio_slices.toFixed(2)} recall@5 ${s.recall_at_5.overall.ratio_slices.toFixed(2)} notes ${pc(c.notes_bytes_without_comments)} memory ${pc(c.memory_bytes_without_comments ?? c.memory_bytes)}`)
  ' "$out/score.json"
else
  node "$ROOT/scripts/model-in-the-loop/check-planted.mjs" "$out/sample.json" "$ws" "$(cat "$out/days")"
fi
for log in "$out"/requests*.jsonl; do
  node -e '
    const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map(JSON.parse);
    let calls = 0; for (const l of lines) for (const m of (l.body.messages ?? []).slice(-1)) for (const b of (Array.isArray(m.content) ? m.content : [])) if (b.type === "tool_result") calls++;
    console.log(`${require("path").basename(process.argv[1])}: ${lines.length} requests, ~${calls} tool results sent`)
  ' "$log"
done
node "$ROOT/bin/dreamlane.js" --workspace "$ws" --json runs -n 5 | node -e '
  let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => { const j = JSON.parse(t); for (const r of (j.runs ?? j)) console.log(JSON.stringify({ id: r.id, status: r.status, usage: r.usage, toolCalls: r.toolCalls ?? r.tool_calls })) })'
