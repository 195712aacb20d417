#!/usr/bin/env python3
"""CPU over 10 s of real-time playback with the card open, against mpv with its status line.

Both run in a tmux pane of their own (100x30, UTF-8), on libmpv's null output in real time,
playing the same generated 14 s WAV:

    notiplay deliver PAYLOAD --audio null        (space pressed: the card redraws position/progress)
    mpv --no-config --no-video --ao=null FILE    (its terminal status line on, as by default)

CPU time is the sum of the threads' scheduler run time (/proc/PID/task/*/schedstat, in ns) over the 10 s
that start 1 s after playback does, each thread followed every 0.1 s so that one ending in the
window does not take its counts with it.
Runs each ROUNDS times, alternating, and prints the medians. Exit 0 if notiplay's median is at
most mpv's, 1 if not, 2 if something could not run. Standard library, tmux and mpv only.

    Scripts/bench-card.py [--bin PATH] [--rounds 3]
"""

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_wav(path, seconds=14, rate=44100):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        frame = bytearray()
        for i in range(rate * seconds):
            frame += struct.pack("<h", int(8000 * ((i // 50) % 2 * 2 - 1)))
        w.writeframes(bytes(frame))


def tmux(sock, *args):
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, check=True).stdout


def thread_times(pid):
    """Each live thread's scheduler run time in ns (/proc/PID/task/TID/schedstat), by thread id."""
    times = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                times[task] = int(f.read().split()[0])
        except OSError:
            pass  # the thread ended meanwhile
    return times


def cpu_seconds_over(pid, seconds, step=0.1):
    """CPU time of every thread of `pid` during the next `seconds`, sampled every `step`.

    A thread that ends in the window (a dispatch worker that idled out, say) takes its counts with
    it, so a plain difference of sums can even go negative: each thread counts from its first
    sample (0 when it started in the window) to its last."""
    first = thread_times(pid)
    last = dict(first)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(step)
        last.update(thread_times(pid))
    return sum(value - first.get(tid, 0) for tid, value in last.items()) / 1e9


def child_pid(shell_pid, name):
    out = subprocess.run(["pgrep", "-P", str(shell_pid), "-f", name], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def measure(command, keys, sock, ready):
    env = "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color "
    tmux(sock, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", env + command + "; sleep 60")
    try:
        pane_pid = int(tmux(sock, "display-message", "-p", "#{pane_pid}").strip())
        deadline = time.time() + 10
        while time.time() < deadline and ready not in tmux(sock, "capture-pane", "-p"):
            time.sleep(0.02)
        for key in keys:
            tmux(sock, "send-keys", key)
        pid = None
        deadline = time.time() + 5
        while pid is None and time.time() < deadline:
            pid = child_pid(pane_pid, command.split()[0])
            time.sleep(0.02)
        if pid is None:
            raise RuntimeError(f"{command}: process not found")
        time.sleep(1.0)
        return cpu_seconds_over(pid, 10.0)
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "notiplay"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for tool in ("tmux", "mpv"):
        if not shutil.which(tool):
            print(f"{tool} is needed", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as folder:
        wav = os.path.join(folder, "long.wav")
        make_wav(wav)
        payload = os.path.join(folder, "long.apns")
        with open(payload, "w") as f:
            f.write('{"aps": {"alert": {"title": "Long memo", "body": "Fourteen seconds"}, "mutable-content": 1},'
                    ' "media-url": "long.wav"}')
        ours, theirs = [], []
        for round in range(args.rounds):
            ours.append(measure(f"{args.bin} deliver {payload} --audio null", ["Space"], f"bench-n{round}", "Long memo"))
            theirs.append(measure(f"mpv --no-config --no-video --ao=null {wav}", [], f"bench-m{round}", "A:"))
            print(f"round {round + 1}: notiplay {ours[-1]:.3f} s CPU, mpv {theirs[-1]:.3f} s CPU (over 10 s)", flush=True)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"median CPU over 10 s of playback: notiplay card {a:.3f} s ({a * 10:.2f} %), mpv status line {b:.3f} s ({b * 10:.2f} %)")
    print("budget: notiplay <= mpv:", "met" if a <= b else "NOT met")
    return 0 if a <= b else 1


if __name__ == "__main__":
    sys.exit(main())
