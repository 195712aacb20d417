#!/usr/bin/env bash
# The ports' app sides through the notification center: `notiplay serve` headless on a virtual
# clock, with the CustomNumber sample's app file (notiplay's own CustomNumber extension draws
# it) and this package's Balance app file (whose extension the plain notiplay does not know).
# Then:
#   - seed 002's app delegate (`custom-number`) asks for authorization, declares its category and
#     adds its request: pending at 29 s, delivered at 30 s, presented by CustomNumber;
#   - seed 004's app side (`balance`) declares the balance category and adds its notification;
#   - with no server, `custom-number` ends quietly with nothing added (not authorized).
#
#   Examples/Ports/Scripts/app-end-to-end.sh NOTIPLAY PORTS_BIN_DIR
#     NOTIPLAY       the notiplay binary (swift build --show-bin-path at the root, then /notiplay)
#     PORTS_BIN_DIR  the folder of custom-number and balance (swift build --package-path Examples/Ports --show-bin-path)
#
# Exits 0 when every check holds, 1 naming the one that failed (with the server's events).
set -euo pipefail
notiplay="${1:?usage: app-end-to-end.sh NOTIPLAY PORTS_BIN_DIR}"
bin="${2:?usage: app-end-to-end.sh NOTIPLAY PORTS_BIN_DIR}"
ports="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$ports/../.." && pwd)"
tmp="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
export XDG_RUNTIME_DIR="$tmp/run" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
unset NOTIPLAY_APP  # each program speaks for the app its name matches
mkdir -m 700 "$XDG_RUNTIME_DIR" && mkdir "$XDG_STATE_HOME" "$XDG_CONFIG_HOME"
touch "$tmp/events"
fail() { echo "ports end to end: $1"; echo "-- the server's events:"; cat "$tmp/events"; exit 1; }
# Waits (at most 30 s, a guard against a hang) until the server's events hold a line with TEXT.
await() { for _ in $(seq 600); do grep -q "$1" "$tmp/events" && return 0; sleep 0.05; done; fail "no event with $1"; }

out="$("$bin/custom-number" 2>&1)" || fail "custom-number with no server failed: $out"
[ -z "$out" ] || fail "custom-number with no server said: $out"

"$notiplay" serve --headless --clock virtual --start 2026-01-05T09:00 --audio null --events jsonl \
  --app "$root/Samples/CustomNumber/CustomNumber.app.json" --app "$ports/Balance/Balance.app.json" \
  </dev/null >"$tmp/events" 2>"$tmp/stderr" &
server=$!
await '"event":"shown"'

out="$("$bin/custom-number" 2>&1)" || fail "custom-number failed: $out"
[ -z "$out" ] || fail "custom-number said: $out"
"$notiplay" list --pending --json | grep -q '"identifier":"extensionNotification"' || fail "seed 002's request is not pending"
"$notiplay" clock --advance 29s >/dev/null
"$notiplay" list --pending --json | grep -q '"identifier":"extensionNotification"' || fail "delivered before its 30 s"
"$notiplay" clock --advance 1s >/dev/null
await '"event":"fired","t":[0-9.]*,"identifier":"extensionNotification"'
await '"event":"didReceive".*"identifier":"extensionNotification".*"extension":"CustomNumber"'
"$notiplay" list --delivered --json | grep -q '"identifier":"extensionNotification"' || fail "seed 002's request is not delivered"

out="$("$bin/balance" 2>&1)" || fail "balance failed: $out"
[ "$out" = "balance: added" ] || fail "balance said: $out"
await '"event":"arrived","t":[0-9.]*,"identifier":"balance","app":"Balance"'
"$notiplay" list --delivered --json | grep -q '"app":"Balance",[^}]*"identifier":"balance"' || fail "seed 004's notification is not delivered"
echo "ports end to end: custom-number (seed 002) pending at 29 s, delivered at 30 s through CustomNumber; balance (seed 004) delivered; nothing added without a server"
