#!/usr/bin/env bash
# NagMe end to end through the center: `nagme serve` headless on a virtual clock, the app side
# (`nagme-app`) scheduling its reminder with seed 002's 30-second trigger, then the clock moved
# on: pending at 29 s, delivered at 30 s, presented by NagMe's extension with its default sound.
#
#   Examples/NagMe/Scripts/app-end-to-end.sh BIN_DIR    (the folder of nagme and nagme-app)
#
# Exits 0 when every check holds, 1 naming the one that failed (with the server's events).
set -euo pipefail
bin="${1:?usage: app-end-to-end.sh BIN_DIR}"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
tmp="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
export XDG_RUNTIME_DIR="$tmp/run" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
mkdir -m 700 "$XDG_RUNTIME_DIR" && mkdir "$XDG_STATE_HOME" "$XDG_CONFIG_HOME"
fail() { echo "nagme end to end: $1"; echo "-- the server's events:"; cat "$tmp/events"; exit 1; }
# Waits (at most 30 s, a guard against a hang) until the server's events hold a line with TEXT.
await() { for _ in $(seq 600); do grep -q "$1" "$tmp/events" && return 0; sleep 0.05; done; fail "no event with $1"; }

"$bin/nagme" serve --headless --clock virtual --start 2026-01-05T09:00 --audio null --events jsonl \
  --app "$root/Media/NagMe.app.json" </dev/null >"$tmp/events" 2>"$tmp/stderr" &
server=$!
await '"event":"shown"'

out="$(NOTIPLAY_APP=NagMe "$bin/nagme-app")" || fail "nagme-app failed: $out"
[ "$out" = "nagme-app: reminder in 30 s" ] || fail "nagme-app said: $out"
"$bin/nagme" list --pending --json | grep -q '"identifier":"nagme-reminder"' || fail "the reminder is not pending"
"$bin/nagme" clock --advance 29s >/dev/null
"$bin/nagme" list --pending --json | grep -q '"identifier":"nagme-reminder"' || fail "delivered before its 30 s"
"$bin/nagme" clock --advance 1s >/dev/null
"$bin/nagme" list --delivered --json | grep -q '"identifier":"nagme-reminder"' || fail "not delivered at 30 s"
await '"event":"fired","t":[0-9.]*,"identifier":"nagme-reminder"'
await '"event":"didReceive".*"extension":"NagMe"'
await '"event":"sound".*"identifier":"nagme-reminder","outcome":"played","name":"default"'
echo "nagme end to end: scheduled, pending at 29 s, delivered at 30 s by NagMe's extension, with its sound"
