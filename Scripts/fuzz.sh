#!/usr/bin/env bash
# Runs one libFuzzer target (Fuzz/) for a while, starting from its seeds (Fuzz/Corpus/TARGET).
#
#   Scripts/fuzz.sh list                              the targets, and what each one checks
#   Scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG…]  build, then fuzz for SECONDS (flags such as
#                                                     -runs=10000000 go to libFuzzer as they are)
#   Scripts/fuzz.sh repro TARGET FILE…                run the target on these inputs only
#
# The targets are built with NOTIPLAY_FUZZ=1 (Package.swift then adds them), in release mode with
# libFuzzer's coverage and AddressSanitizer (-sanitize=fuzzer,address), into .build-fuzz. One
# process (-jobs is not used): the machine is shared.
#
# What a run finds stays outside git: new inputs in .fuzz/corpus/TARGET (used again by the next
# run), and each crash, oracle failure, timeout or out-of-memory input in .fuzz/crashes/TARGET/.
# The summary at the end gives the runs, the time, the coverage and the crashes; the exit status
# is 1 when anything was found (its files are listed), 0 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(payload plist app script terminal-text card center-frames triggers images)
describe() {
  case "$1" in
    payload) echo "FuzzPayload|an APNs payload decoded as validate does; JSON and payloadJSON read back the same" ;;
    plist) echo "FuzzPropertyList|an XML or binary property list, then the extension manifest in it" ;;
    app) echo "FuzzAppFile|an app file (*.app.json) read into an AppDefinition" ;;
    script) echo "FuzzScript|a .playback script parsed; errors point into the text, steps hold allowed values" ;;
    terminal-text) echo "FuzzTerminalText|TerminalText.clean: no control, escape or bidi control left; idempotent" ;;
    card) echo "FuzzCard|a card of raw strings laid out and drawn: only cursor, erase and SGR sequences; diff = whole" ;;
    center-frames) echo "FuzzCenterFrames|a center connection's bytes cut into frames and decoded; messages read back the same" ;;
    triggers) echo "FuzzTriggers|repeats and virtual-clock advances: each next date after the last, the day and time kept, firings per advance bounded" ;;
    images) echo "FuzzImages|image bytes: header bounded, pictures inside their grids, crops inside the image, stand-in shown" ;;
    *) return 1 ;;
  esac
}
usage() {
  echo "usage: Scripts/fuzz.sh list | TARGET SECONDS [LIBFUZZER_FLAG...] | repro TARGET FILE..." >&2
  exit 64
}
known() {
  describe "$1" >/dev/null || { echo "fuzz: no target '$1' (Scripts/fuzz.sh list)" >&2; exit 64; }
}
build() {
  local product="$1" started=$SECONDS
  echo "fuzz: building $product (release, -sanitize=fuzzer,address) into .build-fuzz" >&2
  NOTIPLAY_FUZZ=1 swift build -c release --build-path .build-fuzz --product "$product" >&2
  echo "fuzz: built in $((SECONDS - started)) s" >&2
}

[ $# -ge 1 ] || usage
case "$1" in
  list)
    for target in "${targets[@]}"; do
      IFS='|' read -r product what <<<"$(describe "$target")"
      printf '%-14s %-17s %s\n' "$target" "$product" "$what"
    done
    exit 0 ;;
  repro)
    [ $# -ge 3 ] || usage
    known "$2"
    IFS='|' read -r product _ <<<"$(describe "$2")"
    shift 2
    build "$product"
    exec env SWIFT_BACKTRACE=enable=no ".build-fuzz/release/$product" "$@" ;;
esac

[ $# -ge 2 ] || usage
target="$1"
seconds="$2"
shift 2
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage
known "$target"
IFS='|' read -r product _ <<<"$(describe "$target")"
build "$product"

corpus=".fuzz/corpus/$target"
crashes=".fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
log="$(mktemp "${TMPDIR:-/tmp}/notiplay-fuzz-$target.XXXXXX")"
before="$(ls "$crashes" | wc -l)"
status=0
# libFuzzer writes new inputs to the first folder only: the committed seeds stay as they are.
SWIFT_BACKTRACE=enable=no ".build-fuzz/release/$product" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$crashes/" "$@" "$corpus" "Fuzz/Corpus/$target" 2>&1 | tee "$log" >&2 || status=$?

runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
rss="$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)"
time="$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | sed -E 's/.* in ([0-9]+) second.*/\1/')"
coverage="$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+' "$log" | tail -1)"
found="$(($(ls "$crashes" | wc -l) - before))"
echo "fuzz: $target: ${runs:-?} runs in ${time:-?} s (${speed:-?}/s), ${coverage:-no coverage line}, peak ${rss:-?} MB, $found crashes"
if [ "$found" -gt 0 ] || [ "$status" -ne 0 ]; then
  echo "fuzz: $target found something (libFuzzer exit $status); inputs in $crashes/:" >&2
  ls -t "$crashes" | head -n "$((found > 0 ? found : 5))" | sed "s|^|  $crashes/|" >&2
  echo "fuzz: replay one with Scripts/fuzz.sh repro $target FILE; the log is $log" >&2
  exit 1
fi
rm -f "$log"
