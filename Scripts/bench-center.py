#!/usr/bin/env python3
"""The notification center's figures: send, the card's first frame, media start, idle CPU, history.

Every timed row is a median over runs of every kind taken in turn (round 1: each kind once, round
2: each again, ...) after warm-up rounds, so that drift in machine load hits every row alike. Each
row is printed with its minimum, maximum, N and budget, and a verdict line per budget follows.

The servers run with a private XDG_RUNTIME_DIR, XDG_STATE_HOME and XDG_CACHE_HOME under a short
folder (/tmp/nb-XXXXXXXX, so the socket's path stays far below 107 bytes), on the same disk as
/tmp (the store's writes are flushed: `synchronous = FULL`). The card server runs in a pseudo
terminal this script owns (80x24, TERM=xterm-256color, C.UTF-8):

    notiplay serve --audio null

and the script reads its master side all the time, feeding a small terminal model (cursor moves,
erases, alternate screen, wide characters: what notiplay's frames use) to know what the screen
shows after each read. "The frame that shows X" is the first read after which the screen holds X;
its time is taken when select() returns for that read. Between runs the card is dismissed (d) and
the script waits for the empty deck, so every send meets an empty deck and gets a card drawn whole.
Each payload is a copy of Media/nagme.apns or Media/voice-memo.apns whose title carries the run's
own tag, so that no frame can be mistaken for an earlier one.

Rows:
 1  send, small payload (Media/nagme.apns, no attachment), to the running card server: the whole
    client process, spawn to exit, and its peak RSS (ru_maxrss). Budget 15 ms.
 1b The same with the voice memo and its attachment (send voice-memo.apns --attach FILE, FILE
    Media/voice-memo.ogg unless --attachment). Information.
 1f `notiplay --version`, spawn to exit, in the same rounds: the binary's start-up, which every
    command pays before it does anything (Scripts/bench-start.py measures it in detail).
 2  send -> the first frame that shows the card's title, on the server's terminal. Budget 20 ms.
 2b The same for the voice memo (the card with a media button). Information.
 3  send -> the frame that shows the media button playing (⏸, where ▶ is paused): the voice memo
    is sent, and the moment its first frame is read, a space (the media button's key) is
    written to the terminal. Budget 40 ms. The card flips the button when the key is read,
    before the engine has the file, so two more rows say what follows:
 3a key -> ⏸ frame alone.
 3b key -> the first redraw of the card's clock, which then shows the duration ("0:00 / 0:06"
    where "0:00 / –:––" was): the built-in card redraws its clock on the engine's position
    events only, the first of which comes as rendering starts. Nothing else on the screen
    changes when rendering begins (the button shows ⏸ already). Position events are at most
    one per 250 ms, and that limit is not reset for a new file, so a key pressed within 250 ms
    of the previous file's last position event sees its clock late; the rounds leave more than
    that between two plays.
 3c send -> first clock redraw.
 3d The exact signal, headless: `serve --headless --events jsonl --audio null --keys "~1s space"`
    restarted on a store holding one delivered voice memo (a headless server takes keys only
    from --keys, for the card it shows at start); from its `mediaPlay` event (the key) to its
    `playback` `started` event, both on the session's clock. The engine has run for 1 s: warm.
 3e An estimate of send -> playback started: the median of row 2b plus the median of row 3d.
    All of row 3 is on libmpv's `null` output, as the machine has no sound card: `started` is
    when the first samples go to the output. A real device (PipeWire, PulseAudio, ALSA) adds
    the device's own buffer before the sound is heard, and opening the output whenever libmpv
    has to; neither can be measured here, and both apply to mpv (row 4) too.
 4  What a user does today: a dunst-style script's player, `mpv --no-video FILE` (the same audio
    file), from spawn to the first sample rendered. mpv renders into a FIFO with its `pcm`
    output (`--ao=pcm --ao-pcm-file=FIFO --ao-pcm-waveheader=no`: no header, so the first byte
    written is the first sample); the script opens the FIFO's read end first and takes the time
    of the read that returns its first bytes. Like row 3's null output, that is when the output
    receives samples, without a device's latency. `--no-config` keeps it from this machine's
    configuration; mpv's built-in scripts load as for a user.
 4b The same through a dunst-style shell script (#!/bin/sh running that mpv command).
 5  An idle card server: CPU over --idle-seconds (default 60) with a card shown (one small
    notification, no audio), from /proc/PID/stat (utime + stime: clock ticks) and, finer, the sum
    of every thread's run time (/proc/PID/task/*/schedstat, threads followed every 0.5 s); the
    wakeups are the threads' voluntary context switches (/proc/PID/task/*/status), and the
    terminal's reads say how many frames it wrote. Budget 0.1 %.
 5b The same for `serve --headless --audio null` (events to /dev/null), measured over the same
    window as row 5 (both servers idle side by side).
 6  `history --json --limit 100000` over a store of exactly 100,000 notifications, the whole
    process, standard output on /dev/null. Budget 100 ms.
 6b The same with standard output a pipe (64 KiB, as a shell makes it) that this script reads to
    its end into one buffer, as `cat` would.
    The store: `serve` made and migrated it; the script checked its tables against the schema
    it expects (Sources/NotiplayCenter/Store/StoreSchema.swift) and inserted 99,999 rows with
    Python's sqlite3 in one transaction (payloads of 130-280 bytes as clients send them, some
    pretty-printed, some with non-ASCII text; 1 in 10 with an attachment row naming the file a
    real send stored; most ended: dismissed with a response copied from one the card server
    recorded, some removed or replaced), checkpointed the WAL, then `serve` ran again and a
    real `send` added the newest. Once, outside the timed runs, the output is parsed as JSON
    and checked to hold 100,000 objects.

Processes are timed by a small C helper (built here with the toolchain's clang or cc) that takes
CLOCK_MONOTONIC just before posix_spawn and after wait4, and reports ru_maxrss: Python cannot
measure a small child's peak memory itself (a child it starts begins in its address space). The
helper's clock is Python's time.monotonic(), so its spawn instant is also row 2's and 3's start.

The verdicts are information, not a test: the exit status is 0 whatever they say, and 2 only if
something could not run (the build, a command that fails, a frame that never comes). Servers are
stopped with SIGTERM (then SIGKILL after 10 s) on every way out.

By default it first builds the release binary the way it ships:
    swift build $(Scripts/release-build-flags)
Use --bin to measure an existing binary instead. Python's standard library, mpv and a C compiler.
This file runs the rows in order and prints the report; the rest is in Scripts/bench_center_*.py.

    Scripts/bench-center.py
    Scripts/bench-center.py --bin .build-release/release/notiplay --runs 15 --idle-seconds 60
"""

import argparse
import os
import shlex
import shutil
import signal
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from bench_center_headless import HeadlessServer, wait_for_socket  # noqa: E402 (beside this script)
from bench_center_history import (  # noqa: E402
    HISTORY_COUNT, prepare_history_store, run_history, take_response_template, verify_history)
from bench_center_idle import measure_idle  # noqa: E402
from bench_center_process import (  # noqa: E402
    MEDIA, MEMO_PAYLOAD, SMALL_PAYLOAD, CouldNotRun, Timed, build, build_helper, places, store_path)
from bench_center_rounds import (  # noqa: E402
    LOST_PRESSES, Recorder, run_headless_play, run_mpv, run_play, run_send, tagged_payload)
from bench_center_terminal import PtyServer  # noqa: E402


# MARK: Output

BUDGETS = {"send": 15.0, "frame": 20.0, "play": 40.0, "idle": 0.1, "history": 100.0}
LABELS = {
    "1": "send nagme.apns, spawn to exit",
    "1f": "notiplay --version (the start-up floor)",
    "1b": "send voice memo --attach, spawn to exit",
    "2": "send -> card's first frame (nagme)",
    "2b": "send -> card's first frame (voice memo)",
    "3": "send -> ⏸ frame (key at first frame)",
    "3a": "key -> ⏸ frame",
    "3b": "key -> first clock redraw (duration)",
    "3c": "send -> first clock redraw",
    "3d": "headless: key -> playback started",
    "4": "mpv --no-video: spawn -> first sample",
    "4b": "dunst-style sh script: -> first sample",
    "6": "history --json 100,000 > /dev/null",
    "6b": "history --json 100,000 | pipe read",
}
ROW_BUDGET = {"1": "send", "2": "frame", "3": "play", "6": "history", "6b": "history"}


def print_table(record, rss, idle, history_note):
    print()
    print(f"{'row':<4}{'what':<44}{'N':>4}{'median ms':>11}{'min-max ms':>16}   budget")
    for row, label in LABELS.items():
        if row not in record.values:
            continue
        values = record.values[row]
        budget = f"<= {BUDGETS[ROW_BUDGET[row]]:g} ms" if row in ROW_BUDGET else ""
        spread = f"{min(values):.1f}-{max(values):.1f}"
        print(f"{row:<4}{label:<44}{len(values):>4}{statistics.median(values):>11.1f}{spread:>16}   {budget}")
        if row == "3d" and "2b" in record.values:
            estimate = statistics.median(record.values["2b"]) + statistics.median(record.values["3d"])
            print(f"{'3e':<4}{'send -> started (est.: 2b + 3d medians)':<44}{'':>4}{estimate:>11.1f}{'':>16}   "
                  f"<= {BUDGETS['play']:g} ms")
    print()
    for key, label in (("small", "1"), ("memo", "1b"), ("6", "6"), ("6b", "6b")):
        if key in rss:
            values = [v / 1024 for v in rss[key]]
            print(f"peak RSS, row {label:<3} median {statistics.median(values):5.1f} MiB "
                  f"(min {min(values):.1f}, max {max(values):.1f}, N {len(values)})")
    if history_note:
        print(history_note)
    for row, result in idle.items():
        what = "card server in the terminal (one card)" if row == "5" else "headless server (one card)"
        percent = 100 * result["schedstat"] / result["seconds"]
        ticks = 100 * result["stat"] / result["seconds"]
        line = (f"row {row:<3}idle {what}: over {result['seconds']:.1f} s, CPU {percent:.4f} % "
                f"({result['schedstat'] * 1000:.2f} ms, schedstat), {ticks:.3f} % by /proc stat "
                f"({result['stat'] * 1000:.0f} ms), {result['wakeups']} wakeups "
                f"({result['wakeups'] / result['seconds']:.2f}/s; +{result['involuntary']} preempted), "
                f"{result['threads']} threads")
        if "frames" in result:
            line += f", {result['frames']} terminal reads ({result['frame_bytes']} bytes)"
        print(line + f"; budget <= {BUDGETS['idle']:g} %")
        if result["by_thread"]:
            busiest = sorted(result["by_thread"].items(), key=lambda item: -item[1])[:4]
            print("        wakeups by thread: " + ", ".join(f"{name} {count}" for name, count in busiest))


def print_verdicts(record, idle):
    print()
    print("budgets (medians; information, not a test):")

    def verdict(ok, name, value, limit, unit):
        print(f"  {'PASS' if ok else 'OVER'}  {name:<40}{value:>9.3f} {unit} (<= {limit:g} {unit})")

    for row, name in (("1", "send, small, spawn to exit"), ("2", "send -> first frame"),
                      ("3", "send -> ⏸ frame"), ("6", "history --json > /dev/null"),
                      ("6b", "history --json | pipe")):
        if row in record.values:
            value = statistics.median(record.values[row])
            limit = BUDGETS[ROW_BUDGET[row]]
            verdict(value <= limit, name, value, limit, "ms")
    if "2b" in record.values and "3d" in record.values:
        estimate = statistics.median(record.values["2b"]) + statistics.median(record.values["3d"])
        verdict(estimate <= BUDGETS["play"], "send -> playback started (est. 2b + 3d)", estimate, BUDGETS["play"], "ms")
    for row, result in idle.items():
        percent = 100 * result["schedstat"] / result["seconds"]
        verdict(percent <= BUDGETS["idle"], f"idle CPU, row {row}", percent, BUDGETS["idle"], "%")
    if "4" in record.values and "3" in record.values:
        print(f"  for comparison: mpv's first sample {statistics.median(record.values['4']):.1f} ms after its spawn "
              f"(row 4), the card's ⏸ {statistics.median(record.values['3']):.1f} ms after send's (row 3)")


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# MARK: Main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured rounds (default 15)")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured rounds first (default 2)")
    parser.add_argument("--idle-seconds", type=float, default=60, help="the idle window of row 5 (default 60)")
    parser.add_argument("--no-headless-idle", action="store_true", help="leave out row 5b")
    parser.add_argument("--bin", help="the notiplay binary (default: build the release binary)")
    parser.add_argument("--mpv", default="mpv", help="the mpv binary (default: mpv on PATH)")
    parser.add_argument("--attachment", default=os.path.join(MEDIA, "voice-memo.ogg"),
                        help="the voice memo's audio (default Media/voice-memo.ogg)")
    parser.add_argument("--skip", default="", help="rows to leave out, among mpv, idle, history (comma-separated)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0 or args.idle_seconds <= 0:
        parser.error("--runs must be at least 1, --warmup at least 0, --idle-seconds above 0")
    skip = {word for word in args.skip.split(",") if word}
    if skip - {"mpv", "idle", "history"}:
        parser.error("--skip takes mpv, idle and history")

    started = []  # servers to stop on every way out
    record, rss, idle, history_note = Recorder(), {}, {}, None
    root = None
    try:
        binary = os.path.abspath(args.bin) if args.bin else build()
        attachment = os.path.abspath(args.attachment)
        mpv = shutil.which(args.mpv) if "mpv" not in skip else None
        for what, path in (("notiplay", binary), ("attachment", attachment), ("payload", SMALL_PAYLOAD),
                           ("payload", MEMO_PAYLOAD)):
            if not os.path.exists(path):
                raise CouldNotRun(f"{what} not found: {path}")
        if "mpv" not in skip and not mpv:
            raise CouldNotRun(f"mpv not found ({args.mpv}); or leave its rows out with --skip mpv")
        root = tempfile.mkdtemp(prefix="nb-", dir="/tmp")
        Timed.helper = build_helper(root)
        payloads = os.path.join(root, "payloads")
        os.mkdir(payloads)
        print(f"notiplay = {binary}\nfolder = {root}\nload average at start: {load_average()}")
        print(f"{args.warmup} warm-up round(s), then {args.runs} rounds of: send nagme, send voice memo, "
              f"send voice memo + space, headless key" + (", mpv, sh script -> mpv" if mpv else ""), flush=True)

        card_env = places(root, "c")
        card = PtyServer([binary, "serve", "--audio", "null"], card_env)
        started.append(card)
        card.expect("empty", lambda text: "no notifications" in text)
        card.wait_for(["empty"])

        # The store of row 3d: one delivered voice memo, which each headless server restores.
        play_env = places(root, "p")
        keeper = HeadlessServer([binary, "serve", "--headless", "--audio", "null"], play_env,
                                os.path.join(root, "p"), lines=False)
        started.append(keeper)
        wait_for_socket(play_env, keeper, "the headless server")
        Timed([binary, "send", tagged_payload(payloads, MEMO_PAYLOAD, "restored", "Voice memo (restored)"),
               "--attach", attachment], play_env).wait()
        keeper.stop()

        fifo = os.path.join(root, "pcm.fifo")
        script = os.path.join(root, "notify-sound.sh")
        if mpv:
            os.mkfifo(fifo)
            with open(script, "w") as f:
                f.write("#!/bin/sh\n# What a dunst rule's script does for a notification's sound.\n"
                        f"{shlex.quote(mpv)} --no-config --no-video --ao=pcm --ao-pcm-file={shlex.quote(fifo)} "
                        '--ao-pcm-waveheader=no "$1"\n')
            os.chmod(script, 0o755)

        for round_index in range(args.warmup + args.runs):
            measured = record if round_index >= args.warmup else None
            tag = f"#{round_index:03d}"
            run_send(card, binary, card_env, payloads, tag + "s", measured, rss)
            start, end, _, _ = Timed([binary, "--version"], card_env).wait()
            if measured:
                record.add("1f", end - start)
            run_send(card, binary, card_env, payloads, tag + "m", measured, rss, attachment)
            run_play(card, binary, card_env, payloads, tag + "p", attachment, measured)
            run_headless_play(binary, play_env, os.path.join(root, "p"), measured)
            if mpv:
                run_mpv(mpv, attachment, fifo, card_env, measured, "4")
                run_mpv(mpv, attachment, fifo, card_env, measured, "4b", script=script)
        print(f"rounds done; load average: {load_average()}", flush=True)

        if "idle" not in skip:
            headless = None
            if not args.no_headless_idle:
                idle_env = places(root, "i")
                headless = HeadlessServer([binary, "serve", "--headless", "--audio", "null"], idle_env,
                                          os.path.join(root, "i"), lines=False)
                started.append(headless)
                wait_for_socket(idle_env, headless, "the headless server")
                Timed([binary, "send", SMALL_PAYLOAD], idle_env).wait()
            title = "NagMe (idle)"
            card.expect("card", lambda text: title in text)
            timed = Timed([binary, "send", tagged_payload(payloads, SMALL_PAYLOAD, "idle", title)], card_env)
            card.wait_for(["card"], timed=timed)
            card.settle(2.0)
            print(f"idle: {args.idle_seconds:g} s with a card shown ...", flush=True)
            idle = measure_idle(card, headless, args.idle_seconds)
            if headless:
                headless.stop()

        status = card.stop()
        if status not in (0, 128 + signal.SIGTERM):
            raise CouldNotRun(f"the card server exited with status {status} on SIGTERM")
        response_template = take_response_template(store_path(card_env))

        if "history" not in skip:
            print(f"filling a store with {HISTORY_COUNT:,} notifications ...", flush=True)
            history_env, attached = prepare_history_store(binary, root, attachment, response_template)
            size, attached_seen, states = verify_history(binary, history_env, root)
            history_note = (f"history store: {HISTORY_COUNT:,} notifications, {attached_seen:,} with an attachment, "
                            f"states {states}; history --json writes {size / 1e6:.1f} MB, parsed as a JSON array "
                            f"of {HISTORY_COUNT:,} (checked once, outside the timed runs)")
            if attached_seen != attached:
                raise CouldNotRun(f"history listed {attached_seen} notifications with attachments, not {attached}")
            for index in range(args.warmup + args.runs):
                measured = record if index >= args.warmup else None
                run_history(binary, history_env, measured, rss, to_pipe=False)
                run_history(binary, history_env, measured, rss, to_pipe=True)

        print(f"load average at the end: {load_average()}")
        print_table(record, rss, idle, history_note)
        print_verdicts(record, idle)
        if LOST_PRESSES:
            print(f"\nthe media button was pressed and the media never started {len(LOST_PRESSES)} time(s) "
                  f"(row 3b and 3c leave those runs out):")
            for lost in LOST_PRESSES:
                print("  " + lost.replace("\n", "\n    "))
        return 0
    except CouldNotRun as failure:
        if record.values or idle:
            print("\nwhat was measured before the failure:")
            print_table(record, rss, idle, history_note)
        sys.stdout.flush()
        sys.stderr.write(f"bench-center: {failure}\n")
        return 2
    finally:
        for server in reversed(started):
            try:
                server.stop()
            except OSError:
                pass
        if root and not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        elif root:
            print(f"kept {root}")


if __name__ == "__main__":
    sys.exit(main())
