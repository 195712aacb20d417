#!/usr/bin/env bash
# Runs Scripts/test N times in a row and says how many passed, with each run's wall time: the
# proof that the suite does not fail by chance.
#
#   Scripts/soak-tests.sh N [--load] [--fresh] [--lane LANE]
#
#   --load    two busy loops beside every run (`while :; do :; done`, one a core on a 2-core machine)
#   --fresh   first `git clone` this checkout's HEAD into a new folder beside it and run there
#             (the first run then includes the whole build, as on CI)
#   --lane    run `Scripts/test LANE` (unit, engine, e2e, realtime) instead of everything
#
# Each run's output goes to a log folder (printed at the start); the summary ends
# "soak: N/N passed". Exit 0 only if every run passed.
set -uo pipefail
usage() { echo "usage: Scripts/soak-tests.sh N [--load] [--fresh] [--lane LANE]" >&2; exit 64; }
[ $# -ge 1 ] || usage
runs="$1"; shift
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage
load=0; fresh=0; lane=()
while [ $# -gt 0 ]; do
  case "$1" in
    --load) load=1 ;;
    --fresh) fresh=1 ;;
    --lane) shift; [ $# -gt 0 ] || usage; lane=("$1") ;;
    *) usage ;;
  esac
  shift
done
root="$(cd "$(dirname "$0")/.." && pwd)"
logs="$(mktemp -d "${TMPDIR:-/tmp}/notiplay-soak.XXXXXX")"
if [ $fresh -eq 1 ]; then
  clone="$(mktemp -d "$(dirname "$root")/notiplay-soak-clone.XXXXXX")"
  git clone -q "$root" "$clone" || { echo "soak: cannot clone $root" >&2; exit 69; }
  root="$clone"
  echo "soak: fresh clone of $(git -C "$root" rev-parse --short HEAD) in $root"
fi
echo "soak: $runs run(s) of Scripts/test ${lane[*]:-}$([ $load -eq 1 ] && echo ' with two busy loops beside them'); logs in $logs"

loops=()
stop_loops() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; loops=(); }
trap 'stop_loops' EXIT
trap 'stop_loops; exit 130' INT TERM
if [ $load -eq 1 ]; then
  for _ in 1 2; do (while :; do :; done) & loops+=($!); done
fi

passed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  if (cd "$root" && Scripts/test "${lane[@]}") > "$logs/run-$i.log" 2>&1 </dev/null; then
    result=pass; passed=$((passed + 1))
  else
    result="FAIL (see $logs/run-$i.log)"
  fi
  seconds=$(( ($(date +%s%N) - start) / 1000000000 ))
  echo "soak: run $i: $result in $seconds s"
done
stop_loops
echo "soak: $passed/$runs passed"
[ $passed -eq "$runs" ]
