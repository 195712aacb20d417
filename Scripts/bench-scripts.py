#!/usr/bin/env python3
"""100 playback scripts that each play a 1 s clip to the end, with --untimed: total wall time.

Writes 100 scripts (deliver Media/nagme.apns with Media/tone-1s.wav attached; press play; wait
end; check the button and the events) into a temporary folder, runs `notiplay test DIR --untimed`
on them ROUNDS times and prints each total and the median, against the budget of 3 s. With
`--jobs N` (repeatable) it runs `--jobs N` too, alternating the values round by round, and gives
each one's median. With `--extension` each script presents the VoiceMemo sample's extension
(Samples/VoiceMemo: its app file, its payload, its 6 s memo played to the end) instead of the
default card: `notiplay test` then gives each script a worker process of its own. For scale, it also times 100 runs of
`mpv --no-config --no-video --ao=null --ao-null-untimed` on the same clip when mpv is installed.

    Scripts/bench-scripts.py [--bin .build/release/notiplay] [--rounds 3] [--count 100] [--jobs 1 --jobs 2 …] [--extension]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "notiplay"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, action="append", help="pass --jobs N (repeatable: each value in turn)")
    parser.add_argument("--extension", action="store_true", help="present the VoiceMemo sample's extension, not the default card")
    args = parser.parse_args()
    payload = os.path.join(ROOT, "Media", "nagme.apns")
    clip = os.path.join(ROOT, "Media", "tone-1s.wav")
    with tempfile.TemporaryDirectory() as folder:
        memo = os.path.join(ROOT, "Samples", "VoiceMemo")
        for n in range(args.count):
            with open(os.path.join(folder, f"play-{n:03}.playback"), "w") as f:
                if args.extension:
                    f.write(f'# {n}: the VoiceMemo extension plays its memo to the end\n'
                            f'app "{memo}/VoiceMemo.app.json"\ndeliver "{memo}/voice-memo.apns"\nexpect extension VoiceMemo\n'
                            'expect button play\npress play\nwait end\nexpect button play\n'
                            'expect event mediaPlayingStarted count 1\nexpect event mediaPlayingPaused count 1\n')
                    continue
                f.write(f'# {n}: a 1 s clip to the end\n'
                        f'deliver "{payload}" attach "{clip}"\n'
                        'expect button play\npress play\nwait end\nexpect button play\n'
                        'expect event mediaPlayingStarted count 1\nexpect event mediaPlayingPaused count 1\n')
        settings = args.jobs or [None]
        totals = {jobs: [] for jobs in settings}
        for round in range(args.rounds):
            for jobs in settings:
                command = [args.bin, "test", folder, "--untimed", "--tap"] + ([] if jobs is None else ["--jobs", str(jobs)])
                started = time.monotonic()
                r = subprocess.run(command, capture_output=True, text=True)
                totals[jobs].append(time.monotonic() - started)
                passed = r.stdout.count("\nok ")
                if r.returncode != 0 or passed != args.count:
                    print(f"notiplay test failed (exit {r.returncode}, {passed} ok):\n{r.stdout[-2000:]}{r.stderr[-2000:]}", file=sys.stderr)
                    return 2
                label = "" if jobs is None else f" --jobs {jobs}"
                print(f"round {round + 1}{label}: {args.count} scripts in {totals[jobs][-1]:.2f} s", flush=True)
        for jobs in settings:
            median = statistics.median(totals[jobs])
            label = "" if jobs is None else f" --jobs {jobs}"
            print(f"median{label}: {args.count} scripts in {median:.2f} s ({median / args.count * 1000:.1f} ms a script); budget 3 s: "
                  + ("met" if median <= 3 else "NOT met"))
        median = max(statistics.median(t) for t in totals.values())
        if shutil.which("mpv"):
            started = time.monotonic()
            for _ in range(args.count):
                subprocess.run(["mpv", "--no-config", "--no-video", "--ao=null", "--ao-null-untimed", "--really-quiet", clip],
                               capture_output=True)
            print(f"for scale: {args.count} runs of the mpv command line in {time.monotonic() - started:.2f} s")
    return 0 if median <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
