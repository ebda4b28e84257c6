#!/usr/bin/env bash
# start.sh — a model dream whose model is whoever answers the relay (../shared/eval/MODEL-IN-THE-LOOP.md).
#
#   scripts/model-in-the-loop/start.sh sample  OUT   # the bundled sample workspace, a 7-day dream
#   scripts/model-in-the-loop/start.sh conv-30 OUT   # a LoCoMo dev conversation, one dream over all of it
#   AGAIN=1 scripts/model-in-the-loop/start.sh conv-30 OUT   # a second dream on the same workspace
#
# Prepares OUT/ws (unless AGAIN=1), starts ../shared/eval/mock-anthropic.mjs --relay OUT/relayN, and the dream in
# the background (OUT/dreamN.log). Prints the relay folder. The answerer reads only that folder's req-*.json files
# and writes res-*.json there; `score.sh OUT` scores the notes once the dream has ended.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EVAL=${EVAL:-$ROOT/../shared/eval}
export EVAL_DEPS=${EVAL_DEPS:-$ROOT}
target=${1:?usage: start.sh sample|conv-NN OUT}
out=$(mkdir -p "${2:?usage: start.sh sample|conv-NN OUT}" && cd "$2" && pwd)
ws=$out/ws
DL="node $ROOT/bin/dreamlane.js --workspace $ws"
n=1; while [ -e "$out/relay$n" ]; do n=$((n + 1)); done
if [ "${AGAIN:-0}" != 1 ]; then
  [ "$n" = 1 ] || { echo "$out already has a dream; AGAIN=1 to dream again" >&2; exit 2; }
  mkdir -p "$ws/.dreamlane"
  $DL init > /dev/null
  if [ "$target" = sample ]; then
    $DL --json sample --days 21 > "$out/sample.json"
    days=7
  else
    node "$EVAL/locomo-to-db.mjs" --in "$EVAL/locomo-dev.json" --conv "$target" --out "$ws/.dreamlane/messages.db" \
      --rebase-to "$(date -u +%F)" --force > /dev/null
    first=$(node -e 'console.log(require(process.argv[1]).conversations[0].first_message)' "$ws/.dreamlane/qa.json")
    days=$(( ( $(date -u +%s) - $(date -u -d "$first" +%s) ) / 86400 + 2 ))
  fi
  echo "$days" > "$out/days"
  # Each answer takes a person-like while, not milliseconds: give the turn and each request room.
  echo '{"dream":{"turnTimeoutMs":10800000,"runTimeoutMs":10800000},"providers":{"anthropic":{"requestTimeoutMs":1800000,"maxRetries":0}}}' \
    > "$ws/.dreamlane/config.json"
fi
days=$(cat "$out/days")
relay=$out/relay$n
mkdir -p "$relay"
node "$EVAL/mock-anthropic.mjs" --port 0 --relay "$relay" --relay-timeout-ms 1800000 --quiet \
  --log "$out/requests$n.jsonl" > "$out/relay$n.port" 2> "$out/relay$n.err" &
echo $! > "$out/relay$n.pid"
for _ in $(seq 50); do [ -s "$out/relay$n.port" ] && break; sleep 0.1; done
port=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]).port)' "$out/relay$n.port")
( ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=sk-ant-relay DREAMLANE_PROVIDER=anthropic \
    nohup $DL dream --days "$days" > "$out/dream$n.log" 2>&1; echo "exit $?" >> "$out/dream$n.log"
  kill "$(cat "$out/relay$n.pid")" 2> /dev/null || true ) > /dev/null 2>&1 &
echo "$relay"
