#!/usr/bin/env python3
"""Start-up cost of notiplay's commands, as whole processes, beside mpv and an empty Swift program.

Measures wall time (spawn to exit) and peak RSS (ru_maxrss) of each run, through a small C helper

    notiplay --version
    notiplay validate Media/voice-memo.apns                 (one payload)
    notiplay extensions --extensions Media/Extensions
    a static Swift program that does nothing                (the floor: swiftc -static-stdlib -Osize)
    notiplay play Media/tone-1s.wav --audio null --untimed
    mpv --no-config --no-video --ao=null --ao-null-untimed --really-quiet Media/tone-1s.wav

with stdin, stdout and stderr on /dev/null, alternating them (each command once, then each again,
...) after warm-up runs of each, so that drift in machine load hits every command equally. The
binaries it builds, and the one given with --bin, are first dropped from the page cache: a file
just written costs its runs more memory than one read back (drop_cached).
Prints one table of medians, minima and maxima, the ratios of play to mpv, and a verdict line per
target:

    --version, validate of one payload, extensions: median at most 10 ms and 20 MiB
    play: median wall time at most 0.75 x mpv's

The verdicts are information, not a test: the exit status is 0 whatever they say, and 2 only if
something could not run (the build, or a command that exits non-zero, whose argv, status and
standard error are printed). Without mpv on PATH (or at --mpv), the mpv row and the ratios are
left out. With --validate-10000, also runs Scripts/bench-validate.py on the same binary (10,000
payload files; takes a while) and prints its summary.

By default it first builds the release binary the way it ships:
    swift build $(Scripts/release-build-flags)
Use --bin to measure an existing binary instead. Standard library only.

    Scripts/bench-start.py
    Scripts/bench-start.py --bin .build-release/release/notiplay --runs 5
"""

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_release import BuildFailed, release_binary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAYLOAD = os.path.join(ROOT, "Media", "voice-memo.apns")
EXTENSIONS = os.path.join(ROOT, "Media", "Extensions")
AUDIO = os.path.join(ROOT, "Media", "tone-1s.wav")
SHORT_MS, SHORT_MIB = 10, 20  # the budget of the commands that play nothing
PLAY_RATIO = 0.75             # play's budget: this much of mpv's wall time


def fail(message):
    """Something could not run: says so and exits 2."""
    sys.stdout.flush()
    sys.stderr.write(f"bench-start: {message}\n")
    sys.exit(2)


def build():
    """Builds the release binary in the repository root (Scripts/bench_release.py); returns its path."""
    try:
        return release_binary()
    except BuildFailed as failure:
        fail(str(failure))


def build_floor(folder):
    """Builds a static Swift program that does nothing into folder; returns its path."""
    swiftc = shutil.which("swiftc")
    if not swiftc:
        fail("swiftc not found on PATH (needed for the static Swift floor)")
    source = os.path.join(folder, "main.swift")
    with open(source, "w") as f:
        f.write("_ = 0\n")
    binary = os.path.join(folder, "nothing")
    command = [swiftc, "-static-stdlib", "-Osize", "-o", binary, source]
    print("building the floor:", shlex.join(command), flush=True)
    done = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        fail(f"the static Swift program did not build (status {done.returncode})")
    return binary


# Runs a command as a child of its own and reports its wall time, peak RSS and exit status on
# descriptor 3. Python cannot measure a small process's peak memory itself: a child started from
# Python begins in Python's address space (vfork, or fork's copy), and the kernel counts that
# address space's high-water mark (about 15 MiB) into the child's ru_maxrss when it execs. This
# helper's own address space is a few hundred KiB.
SPAWNER = r"""
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
extern char **environ;
int main(int argc, char **argv) {
    (void)argc;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, 3);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid;
    if (posix_spawn(&pid, argv[1], &actions, NULL, argv + 1, environ) != 0) return 127;
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 126;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    dprintf(3, "%.9f %ld %d\n", seconds, usage.ru_maxrss, code);
    return 0;
}
"""


def build_spawner(folder):
    """Builds the measuring helper (SPAWNER) with the Swift toolchain's clang, or cc; its path."""
    swiftc = shutil.which("swiftc")
    compilers = [os.path.join(os.path.dirname(os.path.realpath(swiftc)), "clang")] if swiftc else []
    compilers += [c for c in (shutil.which("cc"), shutil.which("clang")) if c]
    compiler = next((c for c in compilers if os.access(c, os.X_OK)), None)
    if compiler is None:
        fail("no C compiler found (the Swift toolchain's clang, or cc) for the measuring helper")
    global COMPILER
    COMPILER = compiler
    source = os.path.join(folder, "spawner.c")
    with open(source, "w") as f:
        f.write(SPAWNER)
    binary = os.path.join(folder, "spawner")
    done = subprocess.run([compiler, "-O2", "-o", binary, source], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        fail(f"the measuring helper did not build (status {done.returncode})")
    return binary


SPAWNER_PATH = None

# The least a libmpv client can do to play a file, in C, linked with libmpv: the floor for
# `notiplay play`, since every client pays for loading libmpv's libraries as mpv itself does.
LEAST_CLIENT = r"""
#include <mpv/client.h>
int main(int argc, char **argv) {
    (void)argc;
    mpv_handle *h = mpv_create();
    const char *options[][2] = {{"config", "no"}, {"terminal", "no"}, {"vid", "no"}, {"ao", "null"},
        {"ao-null-untimed", "yes"}, {"load-scripts", "no"}, {"load-stats-overlay", "no"},
        {"load-osd-console", "no"}, {"load-auto-profiles", "no"}, {"osc", "no"}, {"ytdl", "no"}};
    for (unsigned i = 0; i < sizeof options / sizeof options[0]; i++)
        mpv_set_option_string(h, options[i][0], options[i][1]);
    if (mpv_initialize(h) < 0) return 1;
    const char *command[] = {"loadfile", argv[1], NULL};
    if (mpv_command(h, command) < 0) return 1;
    while (mpv_wait_event(h, -1)->event_id != MPV_EVENT_END_FILE) {}
    mpv_terminate_destroy(h);
    return 0;
}
"""


def build_least_client(folder, compiler):
    """Builds LEAST_CLIENT; its path, or None (said) when libmpv-dev is not there to link it."""
    source = os.path.join(folder, "least-client.c")
    with open(source, "w") as f:
        f.write(LEAST_CLIENT)
    binary = os.path.join(folder, "least-client")
    done = subprocess.run([compiler, "-O2", "-o", binary, source, "-lmpv"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        print("the least libmpv client did not build (libmpv-dev missing?); leaving it out")
        return None
    return binary


def drop_cached(paths):
    """Writes the files out and drops their pages from the page cache, so that the runs read them back.

    A binary just linked or compiled is in the page cache as it was written, and its runs measure
    about 0.8 MiB more peak memory than once it has been read back (notiplay play, medians of 20
    alternating runs: 67.4 against 66.5 MiB for two copies of one binary). Every command built
    here starts from the state an installed binary is in; mpv's files are left alone."""
    os.sync()
    for path in paths:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(descriptor)


def measure(argv, stderr=os.devnull):
    """Runs argv once through the helper, with stdin and stdout on /dev/null, stderr on /dev/null
    or the given file.

    Returns (seconds, peak RSS in KiB, exit status)."""
    report, write_end = os.pipe()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        (os.POSIX_SPAWN_DUP2, write_end, 3),
    ]
    pid = os.posix_spawn(SPAWNER_PATH, [SPAWNER_PATH] + argv, os.environ, file_actions=actions)
    os.close(write_end)
    with os.fdopen(report) as f:
        line = f.read().split()
    _, status = os.waitpid(pid, 0)
    if len(line) != 3:
        fail(f"the measuring helper failed (status {os.waitstatus_to_exitcode(status)}) on: {shlex.join(argv)}")
    return float(line[0]), int(line[1]), int(line[2])


def checked(argv, errors):
    """Runs argv once, its standard error into the file errors; exits 2 unless it exits 0."""
    result = measure(argv, stderr=errors)
    if result[2] != 0:
        with open(errors, errors="replace") as f:
            text = f.read().rstrip()
        fail(f"a command exited with status {result[2]}:\n  {shlex.join(argv)}\n"
             f"its standard error:\n{text or '  (empty)'}")
    return result


COMPILER = None


def commands(binary, floor, mpv, least_client=None):
    """The measured commands, in the order they run each round: (label, argv)."""
    rows = [
        ("notiplay --version", [binary, "--version"]),
        ("notiplay validate (1 file)", [binary, "validate", PAYLOAD]),
        ("notiplay extensions", [binary, "extensions", "--extensions", EXTENSIONS]),
        ("static Swift (floor)", [floor]),
        ("notiplay play", [binary, "play", AUDIO, "--audio", "null", "--untimed"]),
    ]
    if mpv:
        rows.append(("mpv", [mpv, "--no-config", "--no-video", "--ao=null", "--ao-null-untimed",
                             "--really-quiet", AUDIO]))
    if least_client:
        rows.append(("least libmpv client (C)", [least_client, AUDIO]))
    return rows


def run_all(rows, runs, warmup, errors):
    """Warm-up runs, then alternating measured runs; returns {label: (seconds list, KiB list)}."""
    results = {label: ([], []) for label, _ in rows}
    for index in range(warmup + runs):
        for label, argv in rows:
            if index < warmup:
                checked(argv, errors)
                continue
            seconds, peak, status = measure(argv)
            if status != 0:
                checked(argv, errors)  # again, to show its standard error; fails unless it now exits 0
                fail(f"a command exited with status {status} once (then 0): {shlex.join(argv)}")
            results[label][0].append(seconds)
            results[label][1].append(peak)
    return results


def table(rows, results):
    """Prints a row per command: median, min and max ms; median and max peak MiB."""
    print(f"{'':<28}{'median ms':>11}{'min ms':>9}{'max ms':>9}{'median MiB':>12}{'max MiB':>9}")
    for label, _ in rows:
        t, r = results[label]
        print(f"{label:<28}{statistics.median(t) * 1000:>11.1f}{min(t) * 1000:>9.1f}{max(t) * 1000:>9.1f}"
              f"{statistics.median(r) / 1024:>12.1f}{max(r) / 1024:>9.1f}")


def medians(results, label):
    """(median ms, median MiB) of one command."""
    t, r = results[label]
    return statistics.median(t) * 1000, statistics.median(r) / 1024


def verdicts(results, have_mpv):
    """Prints the ratio line of play to mpv and a PASS/OVER line per target."""
    print()
    play_ms, play_mib = medians(results, "notiplay play")
    if have_mpv:
        mpv_ms, mpv_mib = medians(results, "mpv")
        print(f"notiplay play / mpv: time {play_ms / mpv_ms:.2f}x, peak RSS {play_mib / mpv_mib:.2f}x "
              f"(medians)")
        if "least libmpv client (C)" in results:
            least_ms, least_mib = medians(results, "least libmpv client (C)")
            print(f"least libmpv client / mpv: time {least_ms / mpv_ms:.2f}x, peak RSS {least_mib / mpv_mib:.2f}x "
                  f"(the floor for play: loading libmpv's libraries, which mpv pays too)")
    else:
        print("notiplay play / mpv: not measured (no mpv)")
    floor_ms, floor_mib = medians(results, "static Swift (floor)")
    print(f"floor (static Swift doing nothing): {floor_ms:.1f} ms, {floor_mib:.1f} MiB")
    print()
    print("targets (medians; information, not a test):")
    for name, label in (("--version", "notiplay --version"), ("validate one", "notiplay validate (1 file)"),
                        ("extensions", "notiplay extensions")):
        ms, mib = medians(results, label)
        ok = ms <= SHORT_MS and mib <= SHORT_MIB
        print(f"  {'PASS' if ok else 'OVER'}  {name:<13}{ms:>7.1f} ms (<= {SHORT_MS} ms), "
              f"{mib:>5.1f} MiB (<= {SHORT_MIB} MiB)")
    if have_mpv:
        limit = PLAY_RATIO * mpv_ms
        ok = play_ms <= limit
        print(f"  {'PASS' if ok else 'OVER'}  {'play':<13}{play_ms:>7.1f} ms (<= {PLAY_RATIO} x mpv's "
              f"{mpv_ms:.1f} ms = {limit:.1f} ms)")
    else:
        print(f"  ----  {'play':<13}{play_ms:>7.1f} ms (target {PLAY_RATIO} x mpv's: no mpv to compare)")


def validate_10000(binary):
    """Runs Scripts/bench-validate.py on the binary and prints its summary."""
    script = os.path.join(ROOT, "Scripts", "bench-validate.py")
    command = [sys.executable, script, "--bin", binary]
    print()
    print("running:", shlex.join(command), flush=True)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(done.stdout)
    if done.returncode != 0:
        fail(f"Scripts/bench-validate.py exited with status {done.returncode}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured runs of each command (default 15)")
    parser.add_argument("--warmup", type=int, default=2,
                        help="unmeasured runs of each first, which must exit 0 (default 2)")
    parser.add_argument("--bin", help="the notiplay binary (default: build the release binary)")
    parser.add_argument("--mpv", default="mpv", help="the mpv binary (default: mpv on PATH)")
    parser.add_argument("--validate-10000", action="store_true",
                        help="also run Scripts/bench-validate.py (10,000 payloads; slow)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")

    binary = os.path.abspath(args.bin) if args.bin else build()
    for what, path in (("notiplay", binary), ("payload", PAYLOAD), ("extensions folder", EXTENSIONS),
                       ("audio file", AUDIO)):
        if not os.path.exists(path):
            fail(f"{what} not found: {path}")
    mpv = shutil.which(args.mpv)
    if not mpv:
        print(f"mpv not found ({args.mpv}): leaving out the mpv row and the play / mpv ratios")

    with tempfile.TemporaryDirectory(prefix="notiplay-bench-start-") as folder:
        floor = build_floor(folder)
        global SPAWNER_PATH
        SPAWNER_PATH = build_spawner(folder)
        least_client = build_least_client(folder, COMPILER)
        rows = commands(binary, floor, mpv, least_client)
        drop_cached([path for path in (binary, floor, least_client) if path])
        short = {binary: "notiplay", floor: "floor", mpv: "mpv"}
        print(f"notiplay = {binary}\nfloor = {floor}" + (f"\nmpv = {mpv}" if mpv else ""))
        print("measured commands (stdin, stdout and stderr on /dev/null; Media/ is in " + ROOT + "):")
        for label, argv in rows:
            shown = [short.get(word) or os.path.relpath(word, ROOT) if word.startswith(ROOT + os.sep)
                     or word in short else word for word in argv]
            print(f"  {label:<28}{shlex.join(shown)}")
        print(f"{args.warmup} warm-up run(s) each, then {args.runs} alternating runs each", flush=True)
        results = run_all(rows, args.runs, args.warmup, os.path.join(folder, "stderr.txt"))

    print()
    table(rows, results)
    verdicts(results, bool(mpv))
    if args.validate_10000:
        validate_10000(binary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
