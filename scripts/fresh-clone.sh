#!/usr/bin/env bash
# Runs the READMEs' commands as a new user would, on a fresh clone of this repository's committed HEAD,
# in a throwaway folder, and fails at the first step that does not work as written:
#
#   1. git clone, then one `npm install` (which builds every workspace) — nothing else;
#   2. the root README's walk-through: Folio and the hook receiver started as its first block says
#      (in the background here), then every command of its curl blocks, step by step;
#   3. the example site's README, "Five minutes": `npx folio create-project` (step 1, which needs the
#      bin linked by that first install) and the objects curl; `npm run dev` is not run.
#
# A curl that answers HTTP 400 or more fails its step (curl -s alone would print the error and go on).
# Usage: scripts/fresh-clone.sh [folder]   (default: a new folder under $TMPDIR, removed on success)
#   FRESH_CLONE_EMPTY_CACHE=1   install with an empty npm cache (downloads every package)
#   FRESH_CLONE_KEEP=1          keep the folder even on success
# Ports: 3000 and 4000 as the README says when they are free, else free ones (the commands' addresses are
# rewritten to match, and said so).
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/folio-fresh-clone-XXXXXX")}
mkdir -p "$work"
clone="$work/folio"
pids=()
current='setting up'

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ $status -ne 0 ]]; then
    printf '\nFAILED at: %s\nThe folder is kept for a look: %s\n' "$current" "$work"
  elif [[ -z "${FRESH_CLONE_KEEP:-}" && -z "${1:-}" ]]; then
    rm -rf "$work"
  fi
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen($1,'127.0.0.1',()=>{console.log(s.address().port);s.close()}).on('error',()=>{const t=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(t.address().port);t.close()})})"; }
port=$(free_port 3000)
receiver_port=$(free_port 4000)
[[ $port == 3000 ]] || echo "Port 3000 is taken: Folio runs on $port and the commands' addresses say so."
[[ $receiver_port == 4000 ]] || echo "Port 4000 is taken: the receiver runs on $receiver_port."

if [[ -n "${FRESH_CLONE_REUSE:-}" && -d "$clone/node_modules" ]]; then
  # Only to work on this script: the clone and install of an earlier run, then the READMEs' steps.
  cd "$clone"
  echo "Reusing $clone (FRESH_CLONE_REUSE): no clone, no install."
else
  current='git clone'
  say "$current"
  git clone --quiet --no-hardlinks "$repo" "$clone"
  cd "$clone"
  git log --oneline -1

  current='npm install (once)'
  say "$current"
  install=(npm install --no-audit --no-fund)
  if [[ -n "${FRESH_CLONE_EMPTY_CACHE:-}" ]]; then install+=(--cache "$work/npm-cache"); fi
  "${install[@]}"
fi

# The code blocks (```sh) of one README section, with the addresses moved to the ports in use.
blocks() { # file, section heading
  awk -v section="$2" '
    $0 == section { inside = 1; next }
    inside && /^## / { inside = 0 }
    inside && /^```sh$/ { block = 1; next }
    inside && /^```$/ && block { block = 0; print "#--- end of block"; next }
    block { print }
  ' "$1" | sed -e "s#127\.0\.0\.1:3000#127.0.0.1:$port#g" -e "s#127\.0\.0\.1:4000#127.0.0.1:$receiver_port#g"
}

# The commands run in a bash whose curl fails on an HTTP error; each "# N." comment names the step.
run_steps() { # label, script text
  local script="$work/$1.sh"
  {
    echo 'set -eEuo pipefail'
    echo 'curl() { local out code; out=$(command curl -sS -w "\n%{http_code}" "$@") || return $?; code=${out##*$'"'"'\n'"'"'}; printf "%s\n" "${out%$'"'"'\n'"'"'*}"; if (( code >= 400 )); then echo "HTTP $code" >&2; return 22; fi; }'
    echo "trap 'echo \"FAILED: \$STEP (line \$LINENO: \$BASH_COMMAND)\" >&2' ERR"
    echo "STEP='$1: before the first step'"
    # Before each "# N." comment: name the step (the comment itself stays, as the README has it).
    sed -E "s/^# ([0-9]+)\\.(.*)$/STEP='$1 step \\1'; printf '\\\\n-- %s\\\\n' \"\$STEP\"\\n&/" <<<"$2"
  } >"$script"
  bash "$script"
}

current='the walk-through: start Folio and the hook receiver as its first block says'
say "$current"
start_block=$(blocks README.md '## A first walk-through with curl' | awk '/^#--- end of block/ { done = 1 } !done { print }')
echo "$start_block"
grep -q 'npm start' <<<"$start_block"
while IFS= read -r line; do
  command=${line%%#*}
  [[ -n "${command// /}" ]] || continue
  if [[ $command == *hook-receiver* ]]; then name=receiver use=$receiver_port; else name=folio use=$port; fi
  # Its own process group (setsid), so that stopping it stops npm and the node it started.
  (cd "$clone" && PORT=$use exec setsid bash -c "$command") >"$work/$name.log" 2>&1 &
  pids+=($!)
done <<<"$start_block"
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null

current='the walk-through, steps 1 to 11'
say "$current"
steps=$(blocks README.md '## A first walk-through with curl' | awk 'seen { print } /^#--- end of block/ { seen = 1 }')
run_steps walk-through "cd '$clone'
$steps"
# Step 8's publish fires the deploy hook of step 5 once the debounce (10 s by default) has passed.
current='the walk-through: the local receiver got the deploy hook (nothing went to outside hosts)'
say "$current"
for _ in $(seq 1 40); do
  grep -q 'POST /deploy' "$work/receiver.log" && break
  sleep 1
done
cat "$work/receiver.log"
grep -q 'POST /deploy' "$work/receiver.log"

current="the example site's README, Five minutes"
say "$current"
site=$(blocks "$clone/examples/site/README.md" '## Five minutes' | grep -v '^npm run dev' | awk '/^npm run build:site/ { done = 1 } !done { print }')
echo "$site"
run_steps example-site "cd '$clone'
export FOLIO_URL=http://127.0.0.1:$port
$site"

current='done'
say 'Every step worked as written.'
