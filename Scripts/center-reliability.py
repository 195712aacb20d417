#!/usr/bin/env python3
"""Checks what the notification center promises when many send at once, when it is killed, and
when its disk is full or read-only, through the real commands, and prints the figures.

Usage: Scripts/center-reliability.py [--binary PATH] [--senders 8] [--count 1250]
                                     [--kill-count 250] [--seed N] [--phases burst,kill,disk]
Without --binary, the release build (built when missing, as by bench-*.py). Each phase runs `serve
--headless` on a store and socket of its own under a short /tmp folder; sender threads each run
`notiplay send PAYLOAD --attach FILE --id s3-0042` one after the other (FILE: a tiny WAV whose
samples spell its sender and number). Each phase prints figures and PASS or FAIL (then exit 1).

- burst: SENDERS x COUNT sends, none may fail; each in `list` and `history`, stored once with
  its file holding the bytes sent (SHA-256), each sender's in its order; `serve` again lists all.
- kill: SIGKILL to the server once a number of sends drawn from --seed (a few hundred) exited 0;
  the senders go on (69); `serve` again. Nothing acknowledged lost; what is stored was
  acknowledged or in flight at the kill, and whole; integrity_check of a copy taken at the crash
  and of the store after; no temporary or unreferenced file in attachments/ once the store is
  open again; `list --delivered` is the store's delivered, in order, the first one shown.
- disk (root, to mount a tmpfs; skipped otherwise): the store on a 2 MB tmpfs; sends with 48 KB
  attachments until one fails (74, naming the store), then without (the database full: 74);
  the server lists everything all along; space freed, a send works. The tmpfs cannot turn
  read-only under the server (EBUSY) and root ignores file modes, so the store's folder is
  bind-mounted read-only onto itself, as a folder without write permission is to another user:
  a send with an attachment exits 73. Stopped, on the tmpfs made read-only, `serve` exits 73/74.
"""
import argparse, json, os, random, shutil, signal, subprocess, sys, tempfile, time  # noqa: E401

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from center_reliability_harness import (  # noqa: E402 (beside this script)
    HANG, SERVERS, Burst, Center, Faults, StartFailed, build, verdict, wav, write)


def phase_burst(args, root, _):
    center = Center(args.binary, root)
    center.start()
    burst = Burst(center, args.senders, args.count, "s")
    burst.run()
    faults = Faults(f"{i}: exit {r[0]}: {r[3].strip()}" for i, r in sorted(burst.results.items()) if r[0] != 0)
    listed = set(center.ids("list"))
    history = center.ids("history", "--limit", str(max(100_000, 2 * len(burst.results))))
    faults.check((status := center.stop()) == 143, f"serve exited {status} on SIGTERM")
    rows, _, integrity = center.read()
    faults += [f"{i} acknowledged, not in list" for i in sorted(burst.acked - listed)]
    faults += [f"{i} acknowledged, not in history" for i in sorted(burst.acked - set(history))]
    faults += [f"{i} stored, never sent" for i in sorted(set(rows) - set(burst.results))]
    faults += burst.faults(rows, burst.acked)
    newest_first = [i for i in history if i in burst.acked and i in rows]
    faults.check(newest_first == sorted(newest_first, key=lambda i: -rows[i][0][0]), "history is not newest first")
    faults.check(integrity == "ok", f"integrity_check: {integrity}")
    faults += [f"attachments/{n}: left over" for n in sum(center.leftovers(rows), [])]
    t0 = time.monotonic()
    center.start()  # again, on that store: the queue comes back
    ready = time.monotonic() - t0
    delivered = center.ids("list", "--delivered")
    center.stop()
    faults.check(sorted(delivered) == sorted(burst.acked) and center.shown == (delivered or [None])[0],
                 f"serve again: {len(delivered)} listed as delivered, {center.shown} shown")
    print(f"burst: {burst.figures()}")
    print(f"burst: {len(burst.acked)} acknowledged, {len(burst.results) - len(burst.acked)} failed; "
          f"{len(burst.acked & listed)} in list, {len(burst.acked & set(history))} in history, whole and in "
          f"each sender's order in the store: {not burst.faults(rows, burst.acked)}; integrity_check {integrity}")
    print(f"burst: serve again on that store: showed {center.shown} {ready:.2f} s after it started, "
          f"{len(delivered)} listed as delivered")
    return verdict("burst", faults)


def phase_kill(args, root, rng):
    center = Center(args.binary, root)
    center.start()
    burst = Burst(center, args.senders, args.kill_count, "k")
    total = args.senders * args.kill_count
    low = min(200, total // 4)
    threshold, killed = rng.randint(low, max(low, min(1000, total // 2))), []

    def on_acknowledged(count):
        if count == threshold:
            killed.append(time.monotonic())
            center.server.send_signal(signal.SIGKILL)

    burst.run(on_acknowledged)
    faults = Faults()
    faults.check(killed, f"only {len(burst.acked)} sends were acknowledged: no kill")
    if not killed:
        center.server.kill()
    status = center.server.wait(HANG)
    failed = {i: r for i, r in burst.results.items() if r[0] != 0}
    in_flight = {i for i, r in failed.items() if killed and r[1] < killed[0]}
    after = set(failed) - in_flight
    faults += [f"{i}: exit {r[0]}, not 69: {r[3].strip()}" for i, r in sorted(failed.items()) if r[0] != 69]
    faults.check(status == -signal.SIGKILL, f"the server ended with {status}, not SIGKILL")

    os.makedirs(copy := os.path.join(root, "crash-copy"))  # the database as the kill left it
    for name in (n for n in ("center.sqlite", "center.sqlite-wal") if os.path.exists(os.path.join(center.store, n))):
        shutil.copy2(os.path.join(center.store, name), copy)
    crash_rows, _, crash_integrity = center.read(copy)
    crash_temporary, crash_unnamed = center.leftovers(crash_rows)

    center.start()
    listed = center.ids("list", "--delivered")
    history = center.ids("history", "--limit", str(max(100_000, 2 * total)))
    faults.check((status := center.stop()) == 143, f"the restarted serve exited {status} on SIGTERM")
    rows, delivered, integrity = center.read()
    temporary, unnamed = center.leftovers(rows)
    present = set(rows)
    faults += [f"{i} acknowledged, lost" for i in sorted(burst.acked - present)]
    faults += [f"{i} stored, but its send started after the kill" for i in sorted(present & after)]
    faults += [f"{i} stored, never sent" for i in sorted(present - set(burst.results))]
    faults += burst.faults(rows, present & set(burst.results))
    faults.check(sorted(history) == sorted(present), f"history: {len(history)} notifications, the store {len(present)}")
    faults.check(listed == delivered, f"list --delivered ({len(listed)}) is not the store's ({len(delivered)}), in order")
    faults.check(center.shown == (delivered or [None])[0], f"the restarted server showed {center.shown} first")
    faults += [f"integrity_check of {label}: {value}" for label, value in
               (("the copy at the crash", crash_integrity), ("the store", integrity)) if value != "ok"]
    faults += [f"attachments/{n}: left after the restart" for n in temporary + unnamed]
    print(f"kill: {burst.figures()}")
    print(f"kill: SIGKILL once {threshold} had exited 0 (--seed {args.seed}): {len(burst.acked)} acknowledged, "
          f"{len(in_flight)} in flight at the kill ({len(in_flight & present)} of them stored), {len(after)} sent "
          f"after it (exit {', '.join(sorted({str(r[0]) for i, r in failed.items() if i in after})) or '-'}, "
          f"{len(present & after)} stored); lost {len(burst.acked - present)}")
    print(f"kill: at the crash {len(crash_rows)} stored, integrity_check {crash_integrity}, {len(crash_temporary)} "
          f"temporary and {len(crash_unnamed)} unreferenced attachment files; serve again: {len(listed)} listed as "
          f"delivered (the store: {len(delivered)}), {center.shown} shown, {len(temporary)} temporary and "
          f"{len(unnamed)} unreferenced files left, integrity_check {integrity}")
    return verdict("kill", faults)


def mount(*args):
    return subprocess.run(["mount", *args], capture_output=True, text=True)


def phase_disk(args, root, _):
    disk = os.path.join(root, "disk")
    os.makedirs(disk)
    if os.geteuid() != 0:
        print("SKIP disk: mounting a tmpfs needs root")
        return True
    if (r := mount("-t", "tmpfs", "-o", f"size={args.disk_size},mode=0700", "tmpfs", disk)).returncode != 0:
        print(f"SKIP disk: mount refused: {r.stderr.strip()}")
        return True
    try:
        return disk_checks(args, Center(args.binary, root, state=os.path.join(disk, "state")), disk)
    finally:
        subprocess.run(["umount", "-l", disk], capture_output=True)  # and the bind mount inside, if left


def disk_checks(args, center, disk):
    filler = write(os.path.join(disk, "filler"), bytes(256 * 1024))
    center.start()
    plain = write(os.path.join(center.files, "p.apns"), '{"aps":{"alert":{"title":"Disk","body":"fills it"}}}')
    fat = write(os.path.join(center.files, "fat.apns"), json.dumps({"aps": {"alert": {"body": "x" * 3800}}}))
    acked, faults, figures, numbers = [], Faults(), {}, iter(range(1 << 30))

    def send(payload=plain, noise=None):
        ident = f"d-{(number := next(numbers)):04d}"
        attach = [] if noise is None else ["--attach", write(f"{center.files}/{ident}.wav", wav(9, number, noise))]
        r = center.run("send", payload, *attach, "--id", ident)
        acked.extend([ident] if r.returncode == 0 else [])
        return r

    def expect(name, r, status, *words):
        """Records the figure `name`, and a fault unless `r` exited `status` naming the store and `words`."""
        text = r.stderr.decode(errors="replace").strip()
        figures[name] = f"exit {r.returncode}: {text}" if text else f"exit {r.returncode}"
        faults.check(status is None or r.returncode == status and (status == 0 or center.store in text) and
                     all(w in text for w in words), f"{name}: {figures[name]}")

    def serving(when):
        faults.check(center.server.poll() is None, f"the server ended {when}")
        faults.check(center.server.poll() is not None or set(acked) <= set(center.ids("list")),
                     f"{when}: list lacks some acknowledged")

    def until_refused(payload, noise, limit):
        for _ in range(limit):
            if (r := send(payload, noise)).returncode != 0:
                return r
        raise RuntimeError(f"{limit} sends did not fill {args.disk_size}")

    expect("full", until_refused(plain, 48 * 1024, 1000), 74, "the disk is full")
    figures["stored"] = len(acked)
    serving("once the disk was full")
    expect("plain", r := send(), None)
    faults.check(r.returncode in (0, 74), f"a send without attachment on a full disk: exit {r.returncode}")
    before = len(acked)
    expect("database", until_refused(fat, None, 200), 74, "center.sqlite: the disk is full")
    figures["fat"] = len(acked) - before
    serving("once the database could not grow")
    os.remove(filler)
    expect("freed", send(noise=48 * 1024), 0)
    serving("once there was room again")

    busy = mount("-o", "remount,ro", disk).returncode != 0
    if not busy:
        mount("-o", "remount,rw", disk)
    faults.check(mount("--bind", center.store, center.store).returncode == 0 and
                 mount("-o", "remount,bind,ro", center.store).returncode == 0, "cannot bind-mount the store read-only")
    expect("read-only", send(noise=16), 73, "Read-only file system")
    expect("read-only plain", send(), None)
    serving("with its folder read-only")
    subprocess.run(["umount", center.store], capture_output=True)
    faults.check((status := center.stop()) == 143, f"serve exited {status} on SIGTERM")
    mount("-o", "remount,ro", disk)
    try:
        center.start()
        refused = f"it served, and exited {center.stop()} on SIGTERM"
        faults.append(f"serve on a read-only file system: {refused}")
    except StartFailed as failed:
        refused = f"exit {failed.status}: {failed.stderr}"
        faults.check(failed.status in (73, 74) and center.store in failed.stderr, f"serve, read-only: {refused}")
    mount("-o", "remount,rw", disk)
    center.start()
    serving("once serve started again")
    center.stop()
    rows, _, integrity = center.read()
    faults.check(integrity == "ok", f"integrity_check: {integrity}")
    print(f"disk: {args.disk_size} tmpfs, {figures['stored']} sends of a 48 KB attachment stored, then {figures['full']}")
    print(f"disk: then a send without attachment: {figures['plain']}; {figures['fat']} sends of a 3.8 KB payload "
          f"more, then {figures['database']}; 256 KB freed, a send with an attachment: {figures['freed']}")
    print(f"disk: remount read-only while serving: {'EBUSY' if busy else 'accepted'}; the store's folder bind-mounted "
          f"read-only: a send with an attachment {figures['read-only']}; without: {figures['read-only plain']}")
    print(f"disk: serve on the tmpfs remounted read-only: {refused}")
    print(f"disk: {len(acked)} acknowledged, listed by the server all along and after serve started again; "
          f"{len(rows)} in the store, integrity_check {integrity}")
    return verdict("disk", faults)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", "--bin", dest="binary")
    ap.add_argument("--senders", type=int, default=8)
    ap.add_argument("--count", type=int, default=1250, help="sends per sender in the burst")
    ap.add_argument("--kill-count", type=int, default=250, help="sends per sender in the kill phase")
    ap.add_argument("--disk-size", default="2m")
    ap.add_argument("--seed", type=int, default=random.SystemRandom().randrange(1 << 32))
    ap.add_argument("--phases", default="burst,kill,disk")
    args = ap.parse_args()
    args.binary = os.path.abspath(args.binary) if args.binary else build()
    rng, passed = random.Random(args.seed), True
    for phase in args.phases.split(","):
        run = {"burst": phase_burst, "kill": phase_kill, "disk": phase_disk}.get(phase) or sys.exit(f"no {phase}")
        root = tempfile.mkdtemp(prefix="npr-", dir="/tmp")  # short: the socket path must fit 107 bytes
        try:
            passed &= run(args, root, rng)
        finally:
            for server in SERVERS:
                if server.poll() is None:
                    server.kill()
                    server.wait()
            shutil.rmtree(root, ignore_errors=True)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
