#!/usr/bin/env bash
# The README's first command on whatever Node.js is on the PATH, as a newcomer runs it: `npm start`
# builds and starts Gaffer on the embedded defaults, prints the panel login URL, and answers /ready;
# then `gaffer demo` brings the scripted company's sample task to the CEO. Run from a checkout
# whose dependencies are installed (`npm ci`); exits non-zero, saying what did not happen, if either
# fails. CI runs it on the machine's own Node.js (.ci/run).
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null; done
  sleep 1
  for pid in "${pids[@]}"; do kill -9 -- "-$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Waits up to $2 seconds for the log $1 to hold the line $3; prints the log and fails otherwise.
await_line() {
  local log=$1 limit=$2 line=$3
  for _ in $(seq 1 "$limit"); do
    grep -q -- "$line" "$log" && return 0
    sleep 1
  done
  echo "smoke: \"$line\" did not appear within $limit s; the output was:" >&2
  cat "$log" >&2
  return 1
}

echo "smoke on Node $(node -v): npm start"
port=$(free_port)
GAFFER_DATA_DIR="$work/start" GAFFER_PORT="$port" setsid npm start >"$work/start.log" 2>&1 &
pids+=($!)
await_line "$work/start.log" 300 'Open the panel: http://127.0.0.1:' || exit 1
ready=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready")
[ "$ready" = 200 ] || { echo "smoke: /ready answered $ready" >&2; cat "$work/start.log" >&2; exit 1; }
echo "smoke: npm start printed the login URL and /ready answered 200"

echo "smoke on Node $(node -v): gaffer demo"
port=$(free_port)
GAFFER_DATA_DIR="$work/demo" GAFFER_PORT="$port" setsid npm run --silent gaffer -- demo >"$work/demo.log" 2>&1 &
pids+=($!)
await_line "$work/demo.log" 240 'The sample task awaits the CEO.' || exit 1
echo "smoke: the demo brought the sample task to the CEO"
