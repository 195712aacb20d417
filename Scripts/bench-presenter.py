#!/usr/bin/env python3
"""What presenting an author's extension in a presenter process costs `notiplay serve`.

The card server runs in a pseudo terminal this script owns (80x24, as Scripts/bench_attach.py
and Scripts/bench-center.py run it), presenting for the VoiceMemo sample app (its extension, a
registered type, presents the card: a presenter process on a build that has them):

    notiplay serve --audio null --app Samples/VoiceMemo/VoiceMemo.app.json

Rows (p50 and p90 over --rounds runs, in ms, from the terminal's side):
- send → frame: `notiplay send PAYLOAD --app "Voice Memos" --attach memo.ogg` started, until the
  card's title (its own tag each run) shows; includes starting the `send` process. Between runs
  the card is dismissed (d), the deck found empty, and --gap seconds (1) pass: cards that come
  further apart than the spare presenter takes to start.
- key → frame: a space (the media button: the session's input, in the presenter) until ⏸ shows,
  then a space until ▶ shows again (each a sample).
Then, on the server left idle with an extension card shown for --idle seconds: the CPU time (user +
system, /proc/PID/stat) and the resident memory (VmRSS) of the server and of each of its
presenter processes.

Usage: Scripts/bench-presenter.py [PATH_TO_NOTIPLAY] [--rounds N] [--idle SECONDS]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_center_process import WAIT, places  # noqa: E402
from bench_center_terminal import PtyServer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.path.join(ROOT, "Samples/VoiceMemo/VoiceMemo.app.json")
MEMO = os.path.join(ROOT, "Samples/VoiceMemo/memo.ogg")
TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def payload(folder, title):
    path = os.path.join(folder, f"{abs(hash(title))}.apns")
    with open(path, "w") as f:
        f.write('{"aps":{"alert":{"title":"%s","body":"About dinner"},"category":"voice-memo"}}' % title)
    return path


def measure(screen, binary, env, rounds, folder, gap):
    screen.expect("ready", lambda text: "no notifications" in text)
    screen.wait_for(["ready"])
    sends, keys = [], []
    for n in range(rounds):
        title = f"Bench memo {n}"
        path = payload(folder, title)
        screen.expect(f"sent{n}", lambda text, title=title: title in text and "▶" in text)
        start = time.monotonic()
        sender = subprocess.Popen([binary, "send", path, "--app", "Voice Memos", "--attach", MEMO], env=env,
                                  stdout=subprocess.DEVNULL)
        screen.wait_for([f"sent{n}"])
        sends.append(screen.seen[f"sent{n}"] - start)
        sender.wait(timeout=WAIT)
        screen.expect(f"play{n}", lambda text: "⏸" in text)
        start = screen.write(b" ")
        screen.wait_for([f"play{n}"])
        keys.append(screen.seen[f"play{n}"] - start)
        screen.expect(f"pause{n}", lambda text: "⏸" not in text and "▶" in text)
        start = screen.write(b" ")
        screen.wait_for([f"pause{n}"])
        keys.append(screen.seen[f"pause{n}"] - start)
        screen.write(b"d")  # dismissed: the next one shows on an empty deck
        screen.expect(f"empty{n}", lambda text: "no notifications" in text)
        screen.wait_for([f"empty{n}"])
        screen.settle(gap)  # the time a spare presenter has to start before the next card
    return sends, keys


def idle(screen, binary, env, seconds, folder):
    path = payload(folder, "Bench idle")
    screen.expect("idle", lambda text: "Bench idle" in text)
    subprocess.run([binary, "send", path, "--app", "Voice Memos", "--attach", MEMO], env=env,
                   stdout=subprocess.DEVNULL, check=True)
    screen.wait_for(["idle"])
    screen.settle(1.0)
    pids = [screen.pid] + children(screen.pid)
    before = {pid: cpu_seconds(pid) for pid in pids}
    screen.settle(seconds)
    rows = []
    for pid in pids:
        try:
            rows.append((pid, cpu_seconds(pid) - before[pid], rss_mib(pid)))
        except OSError:
            rows.append((pid, float("nan"), float("nan")))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=".build/debug/notiplay")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between a card's dismissal and the next send")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    root = tempfile.mkdtemp(prefix="nbp-")
    try:
        env = places(root, "server")
        server = PtyServer([binary, "serve", "--audio", "null", "--app", APP], env)
        try:
            sends, keys = measure(server, binary, env, options.rounds, root, options.gap)
            rows = idle(server, binary, env, options.idle, root)
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"send→frame p50 {percentile(sends, 50) * 1000:6.1f} ms  p90 {percentile(sends, 90) * 1000:6.1f} ms"
          f"   key→frame p50 {percentile(keys, 50) * 1000:6.2f} ms  p90 {percentile(keys, 90) * 1000:6.2f} ms"
          f"   (N {len(sends)} sends, {len(keys)} keys)")
    for n, (pid, cpu, rss) in enumerate(rows):
        name = "server" if n == 0 else "presenter"
        print(f"idle {options.idle:.0f} s  {name:9} pid {pid:7}  CPU {cpu * 1000:7.1f} ms  RSS {rss:6.1f} MiB")


if __name__ == "__main__":
    main()
