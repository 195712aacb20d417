#!/usr/bin/env bash
# The center as a service, measured (numbers, not verdicts): a headless server's CPU while idle
# with no viewer, and its peak RSS (VmHWM) after 1,000 live desktop notifications sent with
# notify-send, beside dunst's and xfce4-notifyd's with the same 1,000 (each on Xvfb, when installed). Each
# daemon runs on a private session bus (dbus-daemon --session) with private XDG folders.
#
#   [NOTIFICATIONS=N] [DAEMONS="dunst xfce4-notifyd"] Scripts/bench-service.sh [BINARY] [IDLE_SECONDS]
#   (defaults: 1000, both daemons, the release build, 60; dunst on Xvfb slows as its stack grows:
#   490 notifications took 42 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build-release/x86_64-unknown-linux-gnu/release/notiplay}"
idle="${2:-60}"
count="${NOTIFICATIONS:-1000}"
scratch="$(mktemp -d /tmp/nbs-XXXXXXXX)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
mkdir -m 700 "$scratch/run" "$scratch/state" "$scratch/config"
export XDG_RUNTIME_DIR="$scratch/run" XDG_STATE_HOME="$scratch/state" XDG_CONFIG_HOME="$scratch/config"
eval "$(dbus-launch --sh-syntax 2>/dev/null || true)"
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  dbus-daemon --session --fork --print-address=3 --print-pid=4 3>"$scratch/address" 4>"$scratch/buspid"
  export DBUS_SESSION_BUS_ADDRESS="$(head -1 "$scratch/address")"
fi
pids+=("${DBUS_SESSION_BUS_PID:-$(cat "$scratch/buspid" 2>/dev/null || echo 0)}")
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Peak RSS, and the current resident memory split into anonymous (the heap: what the
# notifications cost) and file-backed (the program and its libraries' pages).
memory() { awk '/VmHWM/ {h=$2} /RssAnon/ {a=$2} /RssFile/ {f=$2} END {printf "peak %d KB (now: %d KB anonymous, %d KB file)", h, a, f}' "/proc/$1/status"; }
wait_name() { for _ in $(seq 200); do gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true && return 0; sleep 0.05; done; echo "no owner" >&2; exit 1; }
# Each notify-send has 10 s: dunst redraws its whole stack for every new notification on Xvfb
# (a first run with 1,000 did not finish in 10 minutes); the time all of them took is printed.
send_all() {
  local start=$SECONDS sent=0
  for i in $(seq "$count"); do timeout 10 notify-send -t 0 "note $i" "body of note $i" && sent=$((sent + 1)); done
  echo "  $sent of $count notify-send answered in $((SECONDS - start)) s"
}

"$bin" serve --headless --freedesktop --audio null --expire 0 </dev/null >/dev/null 2>"$scratch/serve.err" &
server=$!; pids+=("$server")
wait_name
sleep 2  # let start-up settle before the idle window opens
before=$(ticks "$server"); sleep "$idle"; after=$(ticks "$server")
hz=$(getconf CLK_TCK)
echo "notiplay serve --headless --freedesktop, idle, no viewer: $(( after - before )) ticks in ${idle} s = $(awk -v t=$((after-before)) -v hz="$hz" -v s="$idle" 'BEGIN{printf "%.3f", 100*t/hz/s}') % CPU"
echo "notiplay: before the notifications: $(memory "$server")"
send_all
echo "notiplay: live: $("$bin" list | wc -l); after $count notify-send: $(memory "$server")"
kill "$server"; wait "$server" 2>/dev/null || true

# Another daemon on Xvfb (a display of its own), the same 1,000 notifications.
compare() {
  local name="$1"; shift
  if ! command -v Xvfb >/dev/null || ! [ -x "$1" ]; then
    echo "$name or Xvfb is not installed: no comparison"
    return
  fi
  : >"$scratch/display"
  Xvfb -displayfd 5 -nolisten tcp 5>"$scratch/display" 2>/dev/null &
  local xvfb=$!; pids+=("$xvfb")
  for _ in $(seq 100); do [ -s "$scratch/display" ] && break; sleep 0.05; done
  DISPLAY=":$(head -1 "$scratch/display")" "$@" >/dev/null 2>&1 &
  local daemon=$!; pids+=("$daemon")
  wait_name
  echo "$name: before: $(memory "$daemon")"
  send_all
  echo "$name: after $count notify-send: $(memory "$daemon")"
  kill "$daemon" "$xvfb"; wait "$daemon" "$xvfb" 2>/dev/null || true
}
for daemon in ${DAEMONS-dunst xfce4-notifyd}; do
  case "$daemon" in
    dunst) compare dunst "$(command -v dunst || echo dunst)" ;;
    xfce4-notifyd) compare xfce4-notifyd /usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd ;;
    *) echo "DAEMONS: $daemon is not one this script knows (dunst, xfce4-notifyd)" >&2 ;;
  esac
done
