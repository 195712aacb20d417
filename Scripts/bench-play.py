#!/usr/bin/env python3
"""Compare `notiplay play` with plain mpv on one short file, as whole processes.

Measures wall time (spawn to exit, through os.wait4) and peak RSS (ru_maxrss of each run) of

    notiplay play FILE --audio null --untimed
    mpv --no-config --no-video --ao=null --ao-null-untimed --really-quiet FILE

alternating the two (notiplay, mpv, notiplay, mpv, ...) after warm-up runs of each, so that
drift in machine load hits both equally. Prints the medians, the maxima and the ratios, and
states the budget's verdict: exit 0 if notiplay's median time and median peak RSS are both at
most mpv's, 1 if not, 2 if something could not run.

By default it first builds the release binary the way it ships:
    swift build $(Scripts/release-build-flags)
Use --bin to measure an existing binary instead. Standard library only.
"""

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = ["swift", "build"] + subprocess.run(
    [os.path.join(ROOT, "Scripts", "release-build-flags")], capture_output=True, text=True, check=True
).stdout.split()


def build():
    """Builds the release binary in the repository root; returns its path."""
    print("building:", shlex.join(BUILD), flush=True)
    done = subprocess.run(BUILD, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        sys.exit(f"bench-play: the build failed (status {done.returncode})")
    folder = subprocess.run(
        BUILD + ["--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, check=True).stdout.strip()
    return os.path.join(folder, "notiplay")


def measure(argv):
    """Runs argv once with stdin, stdout and stderr on /dev/null.

    Returns (seconds, peak RSS in KiB, exit status)."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured runs of each command (default 15)")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured runs of each first (default 2)")
    parser.add_argument("--bin", help="the notiplay binary (default: build the release binary)")
    parser.add_argument("--file", default=os.path.join(ROOT, "Media", "tone-1s.wav"),
                        help="the audio file (default Media/tone-1s.wav)")
    parser.add_argument("--mpv", default="mpv", help="the mpv binary (default: mpv on PATH)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")

    binary = os.path.abspath(args.bin) if args.bin else build()
    mpv = shutil.which(args.mpv)
    audio = os.path.abspath(args.file)
    for what, path in (("notiplay", binary), ("mpv", mpv), ("audio file", audio)):
        if not path or not os.path.exists(path):
            sys.exit(f"bench-play: {what} not found: {path or args.mpv}")

    commands = {
        "notiplay": [binary, "play", audio, "--audio", "null", "--untimed"],
        "mpv": [mpv, "--no-config", "--no-video", "--ao=null", "--ao-null-untimed", "--really-quiet", audio],
    }
    print("measured commands (stdin, stdout and stderr on /dev/null):")
    for name, argv in commands.items():
        print(f"  {name:<8} {shlex.join(argv)}")
    print(f"{args.warmup} warm-up run(s) each, then {args.runs} alternating runs each", flush=True)

    times = {name: [] for name in commands}
    rss = {name: [] for name in commands}
    for index in range(args.warmup + args.runs):
        for name, argv in commands.items():
            seconds, peak, status = measure(argv)
            if status != 0:
                sys.exit(f"bench-play: {name} exited with status {status}: {shlex.join(argv)}")
            if index >= args.warmup:
                times[name].append(seconds)
                rss[name].append(peak)

    print()
    print(f"{'':<10}{'median ms':>10}{'min ms':>9}{'max ms':>9}{'median RSS MiB':>16}{'max RSS MiB':>13}")
    for name in commands:
        t, r = times[name], rss[name]
        print(f"{name:<10}{statistics.median(t) * 1000:>10.1f}{min(t) * 1000:>9.1f}{max(t) * 1000:>9.1f}"
              f"{statistics.median(r) / 1024:>16.1f}{max(r) / 1024:>13.1f}")

    time_ratio = statistics.median(times["notiplay"]) / statistics.median(times["mpv"])
    rss_ratio = statistics.median(rss["notiplay"]) / statistics.median(rss["mpv"])
    print()
    print(f"notiplay / mpv: time {time_ratio:.2f}x, peak RSS {rss_ratio:.2f}x (medians)")
    failures = []
    if time_ratio > 1:
        failures.append("median wall time above mpv's")
    if rss_ratio > 1:
        failures.append("median peak RSS above mpv's")
    if failures:
        print("verdict: OVER BUDGET (" + "; ".join(failures) + ")")
        return 1
    print("verdict: within budget (median time and median peak RSS at most mpv's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
