#!/usr/bin/env python3
"""How much the viewer socket costs: the same card screen in-process (`notiplay serve` on a
pseudo terminal) and through `notiplay attach` (a `serve --headless` center, the viewer on a
pseudo terminal), measured from the terminal's side.

- key → frame: `?` is written to the terminal, until the list of keys shows; then a space,
  until it is gone (each a sample).
- send → first frame: `notiplay send` is started, until its title shows on the screen
  (includes starting the `send` process).

Usage: Scripts/bench_attach.py [PATH_TO_NOTIPLAY] [--rounds N]   (prints p50 and p90 in ms)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_center_process import WAIT, CouldNotRun, places, socket_path, stop_process  # noqa: E402
from bench_center_terminal import PtyServer  # noqa: E402

HELP = "keys (any key closes this)"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def measure(screen, binary, env, rounds, label):
    screen.expect("ready", lambda text: "no notifications" in text)
    screen.wait_for(["ready"])
    keys = []
    for n in range(rounds):
        screen.expect(f"help{n}", lambda text: HELP in text)
        start = screen.write(b"?")
        screen.wait_for([f"help{n}"])
        keys.append(screen.seen[f"help{n}"] - start)
        screen.expect(f"closed{n}", lambda text: HELP not in text)
        start = screen.write(b" ")
        screen.wait_for([f"closed{n}"])
        keys.append(screen.seen[f"closed{n}"] - start)
    sends = []
    folder = tempfile.mkdtemp(prefix="bench-attach-")
    for n in range(rounds):
        title = f"Bench card {label} {n}"
        payload = os.path.join(folder, f"{n}.apns")
        with open(payload, "w") as f:
            f.write('{"aps":{"alert":{"title":"%s","body":"b"}}}' % title)
        screen.expect(f"sent{n}", lambda text, title=title: title in text)
        start = time.monotonic()
        sender = subprocess.Popen([binary, "send", payload], env=env, stdout=subprocess.DEVNULL)
        screen.wait_for([f"sent{n}"])
        sends.append(screen.seen[f"sent{n}"] - start)
        sender.wait(timeout=WAIT)
        screen.write(b"d")  # dismissed: the next one shows on an empty deck
        screen.expect(f"empty{n}", lambda text: "no notifications" in text)
        screen.wait_for([f"empty{n}"])
    shutil.rmtree(folder, ignore_errors=True)
    return keys, sends


def wait_for_socket(path):
    deadline = time.monotonic() + WAIT
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise CouldNotRun(f"{path} did not appear")
        time.sleep(0.02)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=".build/debug/notiplay")
    parser.add_argument("--rounds", type=int, default=30)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    root = tempfile.mkdtemp(prefix="bench-attach-")
    results = {}
    try:
        env = places(root, "inprocess")
        server = PtyServer([binary, "serve", "--audio", "null"], env)
        try:
            results["in-process (serve)"] = measure(server, binary, env, options.rounds, "a")
        finally:
            server.stop()
        env = places(root, "attached")
        center = subprocess.Popen([binary, "serve", "--headless", "--audio", "null"], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            wait_for_socket(os.path.join(os.path.dirname(socket_path(env)), "viewer.sock"))
            viewer = PtyServer([binary, "attach"], env)
            try:
                results["attached (attach)"] = measure(viewer, binary, env, options.rounds, "b")
            finally:
                viewer.stop()
        finally:
            stop_process(center.pid, "the center")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for name, (keys, sends) in results.items():
        print(f"{name:20}  key→frame p50 {percentile(keys, 50) * 1000:6.2f} ms  p90 {percentile(keys, 90) * 1000:6.2f} ms"
              f"   send→frame p50 {percentile(sends, 50) * 1000:6.1f} ms  p90 {percentile(sends, 90) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
