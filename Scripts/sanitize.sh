#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer: the package and its tests built
# with `--sanitize=address` into .build-asan and with `--sanitize=thread` into .build-tsan (the
# plain .build is untouched), then `swift test --skip-build` with the same flags. The end-to-end
# tests run the sanitized `notiplay` built beside the tests, so the child processes are checked
# too. CI does not run this (Scripts/test does not); run it by hand. Needs no terminal and no
# sound card, like Scripts/test.
#
#   Scripts/sanitize.sh                  both, one after the other
#   Scripts/sanitize.sh address          AddressSanitizer only
#   Scripts/sanitize.sh thread           ThreadSanitizer only
#   Scripts/sanitize.sh thread ARGS...   one run of `swift test ARGS...` (e.g. --filter X) instead
#                                        of the two lanes below
#
# What runs, as Scripts/test runs it: everything but the real-time checks, in parallel (at most 8
# tests at a time, see below); then the real-time checks (test IDs with `.RealTime/`) alone, one
# at a time. Their bounds held under both sanitizers here; a bound missed under one is a failure
# like any other.
#
# A sanitizer report fails the run. Reports go to files (one per process: the test runner and
# every sanitized child) in a folder printed at the end, and are listed there with the number of
# tests run, passed and failed, read from swift test's xUnit files; failures are listed from them
# as in Scripts/test.
#
# Options:
# - AddressSanitizer: leaks are not checked. LeakSanitizer cannot follow a Swift weak reference
#   to its side table (the object holds it in its encoded reference count), so every `[weak self]`
#   alive at exit is a "direct leak"; process-lifetime allocations (libmpv's function table) are
#   reported too.
# - ThreadSanitizer: a process stops at its first report; a lock-order report keeps both stacks;
#   Scripts/tsan-mutex-annotations.c is built and preloaded into the tests and their children (see
#   there: Swift's Mutex hands a contended lock over where ThreadSanitizer does not look).
#   Scripts/tsan-suppressions.txt holds the only suppressions allowed: reports inside
#   uninstrumented third-party libraries, each with its reason.
# Extra options in ASAN_OPTIONS / TSAN_OPTIONS are appended (a later option wins).
set -euo pipefail
cd "$(dirname "$0")/.."
which_ones="${1:-all}"
case "$which_ones" in
  all) sanitizers=(address thread) ;;
  address|thread) sanitizers=("$which_ones") ;;
  *) echo "usage: Scripts/sanitize.sh [address|thread|all] [swift test arguments...]" >&2; exit 64 ;;
esac
shift || true
custom=("$@")
if [ ${#custom[@]} -gt 0 ] && [ "$which_ones" = all ]; then
  echo "Scripts/sanitize.sh: name one sanitizer to pass swift test arguments" >&2
  exit 64
fi
stage="installing dependencies"
trap 'status=$?; [ $status -eq 0 ] || echo "Scripts/sanitize.sh: FAILED while $stage (exit $status)" >&2' EXIT
Scripts/ensure-deps.sh

# At most this many tests at a time (Swift Testing runs every test at once by default): with all
# of them queued on the two threads of the concurrency pool, slowed down by the sanitizer, a task
# that a test waits for (the center's handler answering a request) waited behind them all for
# longer than the test's 30 s guard against a hang.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}"
reports="$(mktemp -d "${TMPDIR:-/tmp}/notiplay-sanitize.XXXXXX")"
summary=()
failed=0
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address)
      scratch=.build-asan
      export ASAN_OPTIONS="detect_leaks=0:log_path=$reports/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
      ;;
    thread)
      scratch=.build-tsan
      export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/Scripts/tsan-suppressions.txt:log_path=$reports/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
      ;;
  esac
  flags=(--sanitize="$sanitizer" --scratch-path "$scratch")
  stage="building with --sanitize=$sanitizer"
  echo "== building with --sanitize=$sanitizer into $scratch"
  started=$SECONDS
  swift build --build-tests "${flags[@]}"
  preload=()
  if [ "$sanitizer" = thread ]; then
    # Swift's Mutex hands its lock over in the kernel when contended, in code ThreadSanitizer does
    # not see: Scripts/tsan-mutex-annotations.c tells it (see there). Preloaded into the tests and
    # every child they start.
    clang -shared -fPIC -O1 -Wall -Werror -o "$scratch/tsan-mutex-annotations.so" Scripts/tsan-mutex-annotations.c -ldl
    preload=(env "LD_PRELOAD=$PWD/$scratch/tsan-mutex-annotations.so${LD_PRELOAD:+ $LD_PRELOAD}")
  fi
  build_seconds=$((SECONDS - started))
  stage="running the tests with --sanitize=$sanitizer"
  started=$SECONDS
  status=0
  if [ ${#custom[@]} -gt 0 ]; then
    echo "== swift test --sanitize=$sanitizer ${custom[*]}"
    "${preload[@]}" swift test --skip-build "${flags[@]}" --xunit-output "$reports/$sanitizer.xml" "${custom[@]}" || status=$?
  else
    echo "== swift test --sanitize=$sanitizer: everything but the real-time checks, in parallel"
    "${preload[@]}" swift test --skip-build "${flags[@]}" --xunit-output "$reports/$sanitizer-parallel.xml" \
      --skip '\.RealTime/' || status=$?
    echo "== swift test --sanitize=$sanitizer: the real-time checks, one at a time"
    "${preload[@]}" swift test --skip-build "${flags[@]}" --xunit-output "$reports/$sanitizer-realtime.xml" \
      --filter '\.RealTime/' --no-parallel || status=$?
  fi
  test_seconds=$((SECONDS - started))
  # swift test sometimes drops the end of its output: the counts and failures come from its xUnit
  # files, the sanitizer reports from their own.
  counts="$(python3 - "$reports" "$sanitizer" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
folder, name = sys.argv[1], sys.argv[2]
run = failed = 0
for path in glob.glob(f"{folder}/{name}*.xml"):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        print(f"  ({path} is cut short: the test process crashed; see the report below)", file=sys.stderr)
        continue
    for case in root.iter("testcase"):
        run += 1
        problems = case.findall("failure") + case.findall("error")
        if problems:
            failed += 1
            for problem in problems:
                text = (problem.get("message") or problem.text or "").strip()[:2000]
                print(f"  {case.get('classname')}.{case.get('name')}: {text}", file=sys.stderr)
print(f"{run} run, {run - failed} passed, {failed} failed")
PY
)"
  found=("$reports"/"${sanitizer:0:1}san".*)
  [ -e "${found[0]}" ] || found=()
  line="$sanitizer: build ${build_seconds}s, tests ${test_seconds}s, $counts, ${#found[@]} process(es) with sanitizer reports, swift test exit $status"
  summary+=("$line")
  echo "== $line"
  for report in "${found[@]}"; do
    echo "== report $report"
    cat "$report"
  done
  if [ "$status" -ne 0 ] || [ ${#found[@]} -gt 0 ]; then failed=1; fi
done
echo "== summary (reports and xUnit files in $reports)"
printf '  %s\n' "${summary[@]}"
stage="checking the results"
[ "$failed" -eq 0 ] || exit 1
echo "Scripts/sanitize.sh: all passed"
