#!/usr/bin/env python3
"""Seed 002's app code on the real clock: `notiplay serve --headless` (system clock, its own XDG
folders in a temporary folder, the CustomNumber sample registered) and the `custom-number`
program (seed 002's AppDelegate code, built in the author package Examples/Ports:
`swift build --package-path Examples/Ports`); waits for the server's `fired`
and `didReceive` events and prints how long after the program's 30-second trigger was added the
notification fired, and whether the CustomNumber extension presented it. Takes about 31 s.
Exit 0 when it fired at 30 s (to within a second) through CustomNumber, 1 otherwise, 2 when
something could not run.

    Scripts/seed-real-clock.py [--bin-dir .build/debug] [--app-bin-dir Examples/Ports/.build/debug]
"""

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build/debug"), help="the folder of notiplay")
    parser.add_argument("--app-bin-dir", default=os.path.join(ROOT, "Examples/Ports/.build/debug"),
                        help="the folder of custom-number")
    args = parser.parse_args()
    notiplay = os.path.join(args.bin_dir, "notiplay")
    program = os.path.join(args.app_bin_dir, "custom-number")
    for path in (notiplay, program):
        if not os.access(path, os.X_OK):
            print(f"{path} is not built", file=sys.stderr)
            return 2
    folder = tempfile.mkdtemp(prefix="nb-seed-")
    env = dict(os.environ)
    for name in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        env[name] = os.path.join(folder, name.lower())
        os.makedirs(env[name], mode=0o700)
    server = subprocess.Popen(
        [notiplay, "serve", "--headless", "--events", "jsonl", "--audio", "null",
         "--app", os.path.join(ROOT, "Samples/CustomNumber/CustomNumber.app.json")],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def events(until, limit):
            deadline = time.time() + limit
            while time.time() < deadline:
                ready, _, _ = select.select([server.stdout], [], [], max(0, deadline - time.time()))
                if not ready:
                    break
                line = server.stdout.readline()
                if not line:
                    break
                event = json.loads(line)
                if until(event):
                    return event, time.time()
            return None, time.time()

        shown, _ = events(lambda e: e.get("event") == "shown", 30)
        if shown is None:
            print("the server did not start", file=sys.stderr)
            return 2
        added = time.time()
        run = subprocess.run([program], env=env, capture_output=True)
        if run.returncode != 0:
            print(run.stdout.decode(), run.stderr.decode(), file=sys.stderr)
            return 2
        seen = {}

        def watch(event):
            name = event.get("event")
            if name == "fired" and event.get("identifier") == "extensionNotification":
                seen["fired"] = time.time()
            if name == "didReceive" and event.get("identifier") == "extensionNotification":
                seen["extension"] = event.get("extension")
            return "fired" in seen and "extension" in seen

        events(watch, 60)
        if "fired" not in seen:
            print("the notification never fired", file=sys.stderr)
            return 1
        at, extension = seen["fired"], seen.get("extension")
        delay = at - added
        print(f"seed 002 on the real clock: fired {delay:.3f} s after the program added it (trigger: 30 s); "
              f"presented by {extension}")
        return 0 if abs(delay - 30) < 1 and extension and "CustomNumber" in extension else 1
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
