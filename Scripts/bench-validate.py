#!/usr/bin/env python3
"""Times `notiplay validate --json` over many payload files, against the process's own start.

Usage: Scripts/bench-validate.py [--files 10000] [--runs 7] [--bin PATH]
Without --bin, builds the release binary as Scripts/demo does. Writes the payloads (a mix of
small alerts and payloads near the 4096-byte limit, with custom keys) into a temporary folder,
then alternates `notiplay --version` (process start) and `notiplay validate --json FILES...`
and reports both medians and their difference, which the budget applies to (1 s for 10,000).
"""
import argparse, json, os, random, statistics, subprocess, sys, tempfile, time  # noqa: E401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build():
    flags = subprocess.run([os.path.join(ROOT, "Scripts", "release-build-flags")], capture_output=True,
                           text=True, check=True).stdout.split()
    subprocess.run(["swift", "build", *flags], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "notiplay")


def payloads(folder, count):
    rng = random.Random(20261121)
    paths = []
    for i in range(count):
        aps = {"alert": {"title": f"Reminder {i}", "body": "Water the plants " * rng.randint(1, 8)},
               "category": rng.choice(["reminder", "meal", "voice-memo", "balance"]),
               "thread-id": f"thread-{i % 50}", "sound": "default"}
        if i % 3 == 0:
            aps["mutable-content"] = 1
            aps["badge"] = i % 100
        body = {"aps": aps, "reminder-uuid": f"{i:08d}-2F3E-4C8D-9A61-0E2B7F4D3C11"}
        if i % 10 == 0:  # near the limit
            body["history"] = [{"at": n, "text": "ünïcödé entry", "f": n / 7} for n in range(40)]
        text = json.dumps(body, indent=2, ensure_ascii=False)
        path = os.path.join(folder, f"p{i:05d}.apns")
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    return paths


def timed(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - t0, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--bin")
    args = ap.parse_args()
    binary = args.bin or build()
    with tempfile.TemporaryDirectory(prefix="notiplay-bench-validate-") as folder:
        files = payloads(folder, args.files)
        size = sum(os.path.getsize(p) for p in files)
        # One checked run: every file judged, all valid, exit 0.
        _, r = timed([binary, "validate", "--json"] + files)
        lines = r.stdout.decode().splitlines()
        bad = [l for l in lines if '"valid":true' not in l]
        if r.returncode != 0 or len(lines) != len(files) or bad:
            sys.exit(f"unexpected result: exit {r.returncode}, {len(lines)} lines, first invalid {bad[:1]}")
        start, full = [], []
        for _ in range(args.runs):
            start.append(timed([binary, "--version"])[0])
            full.append(timed([binary, "validate", "--json"] + files)[0])
        s, v = statistics.median(start), statistics.median(full)
        print(f"validate --json over {len(files)} payload files ({size / 1e6:.1f} MB): median {v * 1000:.0f} ms; "
              f"process start (--version) {s * 1000:.1f} ms; beyond start {(v - s) * 1000:.0f} ms "
              f"= {(v - s) / len(files) * 1e6:.1f} µs per file [budget 1000 ms]")


if __name__ == "__main__":
    main()
