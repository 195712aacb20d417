#!/usr/bin/env python3
"""How late a scheduled notification fires on the system clock: `notiplay serve` is started
headless (its own XDG folders in a temporary folder), then, ROUNDS times, a notification is sent
with `--at` the whole second three seconds ahead, and the moment the server prints its `fired`
event line (JSON lines on a pipe) is compared with that date. Prints the median, the minimum and
the maximum lateness in milliseconds, and the verdict against the target (a pending request fires
within 10 ms of its date). Information, not a test: exit 0 whatever it says, 2 if something
could not run.

    Scripts/bench-schedule.py [--bin .build/debug/notiplay] [--rounds 10]
"""

import argparse
import datetime
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/debug/notiplay"))
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="nb-schedule-")
    env = dict(os.environ)
    for name in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        env[name] = os.path.join(folder, name.lower())
        os.makedirs(env[name], mode=0o700)
    server = subprocess.Popen(
        [args.bin, "serve", "--headless", "--events", "jsonl", "--audio", "null"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    payload = os.path.join(ROOT, "Media", "nagme.apns")
    late = []
    try:
        for _ in range(40):  # the socket appears once the server listens
            if subprocess.run([args.bin, "list"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        for n in range(args.rounds):
            due = datetime.datetime.now().replace(microsecond=0) + datetime.timedelta(seconds=3)
            sent = subprocess.run(
                [args.bin, "send", payload, "--id", f"b{n}", "--at", due.strftime("%Y-%m-%dT%H:%M:%S")],
                env=env, capture_output=True)
            if sent.returncode != 0:
                print(sent.stderr.decode(), file=sys.stderr)
                return 2
            while True:
                ready, _, _ = select.select([server.stdout], [], [], 10)
                if not ready:
                    print("no fired event within 10 s", file=sys.stderr)
                    return 2
                line = server.stdout.readline()
                seen = time.time()
                event = json.loads(line)
                if event.get("event") == "fired" and event.get("identifier") == f"b{n}":
                    late.append((seen - due.timestamp()) * 1000)
                    break
    finally:
        server.terminate()
        server.wait()
    print(f"fired after its date, {len(late)} rounds: median {statistics.median(late):.2f} ms, "
          f"min {min(late):.2f} ms, max {max(late):.2f} ms (target: within 10 ms)")
    print("verdict:", "within 10 ms" if statistics.median(late) <= 10 else "LATE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
