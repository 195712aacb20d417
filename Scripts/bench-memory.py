#!/usr/bin/env python3
"""The center's memory through bursts of firings: a benchmark that reports numbers, not a test.

A headless server on a virtual clock (private XDG_RUNTIME_DIR, XDG_STATE_HOME, XDG_CONFIG_HOME
under /tmp/nm-XXXXXXXX) holds one repeating request, Media/nagme.apns every 60 s:

    notiplay serve --headless --clock virtual --start 2026-01-01T00:00 --audio null
    notiplay send Media/nagme.apns --id m --after 60s --repeat interval

then `notiplay clock --advance STEP` runs ROUNDS times, and the server's resident size (VmRSS,
/proc/PID/status) is printed after round 1, at each checkpoint and at the end, with the growth
after the first round per firing. Each advance fires the request once per minute it covers (at
most 100 at their own dates, then once, late) and the last card shown starts its media.

    Scripts/bench-memory.py [--bin PATH] [--step 2m] [--rounds 100]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def minutes(step):
    units = {"s": 1 / 60, "m": 1, "h": 60, "d": 1440}
    return float(step[:-1]) * units[step[-1]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build/debug/notiplay"))
    parser.add_argument("--step", default="2m")
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="nm-", dir="/tmp")
    env = dict(os.environ)
    for name in ("run", "state", "config"):
        os.mkdir(os.path.join(scratch, name), 0o700)
    env.update(XDG_RUNTIME_DIR=f"{scratch}/run", XDG_STATE_HOME=f"{scratch}/state",
               XDG_CONFIG_HOME=f"{scratch}/config")
    server = subprocess.Popen(
        [args.bin, "serve", "--headless", "--clock", "virtual", "--start", "2026-01-01T00:00", "--audio", "null"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        socket = f"{scratch}/run/notiplay/center.sock"
        while not os.path.exists(socket):
            if server.poll() is not None:
                sys.exit("serve ended: " + server.stderr.read().decode())
            time.sleep(0.05)
        run = lambda *argv: subprocess.run([args.bin, *argv], cwd=ROOT, env=env, check=True,
                                           stdout=subprocess.DEVNULL)
        run("send", "Media/nagme.apns", "--id", "m", "--after", "60s", "--repeat", "interval")
        start = rss_kb(server.pid)
        per_round = min(minutes(args.step), 101)
        checkpoints = {1, 10, 25, 50, 100, 200, 300, 500, args.rounds}
        print(f"step {args.step}, {args.rounds} rounds, {args.bin}")
        print(f"before the first advance: {start / 1024:.1f} MB")
        first = None
        for round in range(1, args.rounds + 1):
            run("clock", "--advance", args.step)
            if round in checkpoints:
                now = rss_kb(server.pid)
                first = first or now
                print(f"after round {round}: {now / 1024:.1f} MB")
        firings = per_round * (args.rounds - 1)
        growth = now - first
        print(f"growth after round 1: {growth / 1024:.1f} MB over ~{firings:.0f} firings "
              f"({growth * 1024 / max(firings, 1):.0f} bytes per firing)")
    finally:
        server.terminate()
        server.wait()
        subprocess.run(["rm", "-rf", scratch])


if __name__ == "__main__":
    main()
