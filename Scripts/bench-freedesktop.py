#!/usr/bin/env python3
"""The freedesktop bridge's figures: notify-send -> the card's first frame, -> the sound started.

`notiplay serve --freedesktop` owns org.freedesktop.Notifications on the session bus; a Notify
call (notify-send, gdbus) becomes a card, and a sound-file hint makes the card's media button
pressed on arrival, so that libmpv plays the file. This script runs each server on a session bus
of its own (a private dbus-daemon, no service files: nothing is started on demand) with private
XDG_RUNTIME_DIR, XDG_STATE_HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME under /tmp/nf-XXXXXXXX, and
with the null audio output (the machine has no sound card):

  card server      notiplay serve --freedesktop --audio null
                   on a pseudo terminal this script owns and reads all the time (80x24, as
                   Scripts/bench-center.py does: bench_center_terminal's PtyServer and Screen);
                   "the frame that shows X" is the first read after which the screen holds X,
                   timed when select() returned for that read
  headless server  notiplay serve --headless --events jsonl --freedesktop --audio null
                   its event lines read as they come, each timed when select() returned for the
                   read that brought it

Every time is on CLOCK_MONOTONIC (Python's time.monotonic()); a client's start is the instant
just before posix_spawn in Scripts/bench-center.py's small C helper, which also takes its exit.
Each round runs every kind once, in the same order, after warm-up rounds (the medians of all
rows feel the machine's drift alike); the notification's summary carries the round's tag, so no
frame or line is mistaken for an earlier one. Between runs the card is dismissed (d) or the
notification closed (CloseNotification), so every Notify meets an empty deck.

Rows (spawn = the client's spawn):
  ns         notify-send "Build done #NNN" to the card server: spawn -> exit
  frame      spawn -> the card's first frame showing the summary. Budget 20 ms.
  gd, gd-frame   the same with `gdbus call ... Notify` as the client
  s-ns, s-frame  notify-send -h string:sound-file:FILE "Build done #NNN" to the card server
  s-pause    spawn -> the frame showing ⏸ (the media button pressed: the engine has the file).
             Budget 50 ms.
  s-clock    spawn -> the first frame whose clock shows the file's duration ("0:00 / 0:02"): the
             card redraws it on the engine's first position event, as rendering starts
  a-ns ... a-clock   the same four, and a-frame, for a viewer: `notiplay attach` on a pseudo
             terminal of its own, attached to `serve --headless --freedesktop --audio null` (the
             server keeps the card; the viewer draws what the server's terminal driver sends it).
             Budgets as for the card server: first frame 20 ms, ⏸ 50 ms
  h-ns ... h-started   the sound-file Notify to the headless server: spawn -> exit, -> the
             `arrived` line (the notification stored in the center), -> `mediaPlay` (the button
             pressed), -> `playback` `started`. "Sound started" is that last line: libmpv's
             PLAYBACK_RESTART for the file, when its first samples go to the (null) output; a
             real device adds its own buffer. Budget 50 ms.
  h-mapped   the same `started` by the line's own "t" (server seconds since its start), mapped
             onto this script's clock with the smallest (read time - t) over the whole session:
             no pipe or scheduling delay in it, an upper bound on the true time
  h-engine   mediaPlay -> started, both on the server's clock
  gd-info    gdbus GetServerInformation to the card server, spawn -> exit: a GLib client's start,
             bus connection and one round trip: the floor of any gdbus row
  ns-version notify-send --version: the process and GLib's start, no bus
  ns-empty   notify-send "Build done" on a bus where nobody owns the name (it fails at once):
             notify-send's whole own cost with no server, the fairest floor of `ns`
  d-*        with --dunst, dunst 1.9 with a sound script (Scripts/bench_freedesktop_dunst.py):
             spawn -> exit, -> its window mapped on Xvfb, -> the script started, -> mpv's
             playback-restart (the same libmpv event as h-started)

Exit status: 0 when every budget holds, 1 when one is over (like Scripts/bench-play.py), 2 when
something could not run (the build, a server, a frame or a line that never comes). dunst, Xvfb or
mpv missing only leaves out the d-* rows. Every process started here is stopped, and the folder
removed, on every way out.

By default it first builds the release binary the way it ships (swift build
$(Scripts/release-build-flags)). Python's standard library, dbus-daemon, notify-send, gdbus, a C
compiler; for --dunst also dunst, Xvfb and mpv.

    Scripts/bench-freedesktop.py
    Scripts/bench-freedesktop.py --bin .build-release/release/notiplay --runs 30 --dunst
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from bench_center_headless import HeadlessServer  # noqa: E402 (beside this script)
from bench_center_process import MEDIA, CouldNotRun, Timed, build, build_helper  # noqa: E402
from bench_center_rounds import Recorder  # noqa: E402
from bench_center_terminal import PtyServer  # noqa: E402
from bench_freedesktop_bus import (  # noqa: E402
    PrivateBus, bus_places, gdbus_method, gdbus_notify, notify_send, tool, wait_for_owner)
import bench_freedesktop_dunst as dunst  # noqa: E402
from bench_freedesktop_rounds import LOST, EventReader, run_card, run_floor, run_headless  # noqa: E402

BUDGETS = {"frame": 20.0, "sound": 50.0}
ROW_BUDGET = {"frame": "frame", "s-pause": "sound", "h-started": "sound", "a-frame": "frame", "as-pause": "sound"}
LABELS = {
    "ns": "notify-send -> card server, spawn to exit",
    "frame": "notify-send -> card's first frame",
    "gd": "gdbus Notify -> card server, spawn to exit",
    "gd-frame": "gdbus Notify -> card's first frame",
    "s-ns": "notify-send sound-file, spawn to exit",
    "s-frame": "notify-send sound-file -> first frame",
    "s-pause": "notify-send sound-file -> ⏸ frame",
    "s-clock": "notify-send sound-file -> clock shows 0:02",
    "a-ns": "attached: notify-send, spawn to exit",
    "a-frame": "attached: notify-send -> first frame",
    "as-ns": "attached: notify-send sound, spawn to exit",
    "as-frame": "attached: sound -> first frame",
    "as-pause": "attached: sound -> ⏸ frame",
    "as-clock": "attached: sound -> clock shows 0:02",
    "h-ns": "headless: notify-send sound, spawn to exit",
    "h-arrived": "headless: -> arrived line read",
    "h-play": "headless: -> mediaPlay line read",
    "h-started": "headless: -> playback started line read",
    "h-mapped": "headless: -> started, its t mapped",
    "h-engine": "headless: mediaPlay -> started (server t)",
    "gd-info": "gdbus GetServerInformation, spawn to exit",
    "ns-version": "notify-send --version, spawn to exit",
    "ns-empty": "notify-send, name not owned, spawn to exit",
    "d-ns": "dunst: notify-send sound, spawn to exit",
    "d-map": "dunst: -> window mapped (Xvfb)",
    "d-script": "dunst: -> sound script started",
    "d-restart": "dunst: -> mpv playback-restart",
}


def quartiles(values):
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def print_table(record):
    print()
    print(f"{'row':<11}{'what':<44}{'N':>4}{'median':>8}{'q1-q3':>14}{'min-max':>15}   budget (ms)")
    for row, label in LABELS.items():
        values = record.values.get(row)
        if not values:
            continue
        low, high = quartiles(values)
        budget = f"<= {BUDGETS[ROW_BUDGET[row]]:g}" if row in ROW_BUDGET else ""
        print(f"{row:<11}{label:<44}{len(values):>4}{statistics.median(values):>8.1f}"
              f"{f'{low:.1f}-{high:.1f}':>14}{f'{min(values):.1f}-{max(values):.1f}':>15}   {budget}")


def print_verdicts(record):
    """Prints a PASS/OVER line per budget and the floors' share; returns True if all pass."""
    print()
    print("budgets (medians):")
    passed = True
    for row, name in (("frame", "notify-send -> first frame"), ("s-pause", "notify-send sound -> ⏸ frame"),
                      ("h-started", "notify-send sound -> playback started"),
                      ("a-frame", "attached: notify-send -> first frame"),
                      ("as-pause", "attached: notify-send sound -> ⏸ frame")):
        if row not in record.values:
            continue
        value, limit = statistics.median(record.values[row]), BUDGETS[ROW_BUDGET[row]]
        passed &= value <= limit
        print(f"  {'PASS' if value <= limit else 'OVER'}  {name:<40}{value:>7.1f} ms (<= {limit:g} ms)")
    median = {row: statistics.median(values) for row, values in record.values.items()}
    if "frame" in median and "ns-empty" in median:
        print(f"  of the {median['frame']:.1f} ms to the first frame, notify-send's own run with no server takes "
              f"{median['ns-empty']:.1f} ms (ns-empty; --version alone {median.get('ns-version', float('nan')):.1f} ms)")
    if "h-started" in median and "h-arrived" in median:
        print(f"  headless: Notify stored {median['h-arrived']:.1f} ms after the spawn, playback started "
              f"{median['h-started'] - median['h-arrived']:.1f} ms later (medians' difference)")
    if "d-restart" in median and "h-started" in median:
        print(f"  for comparison: dunst + sh + mpv start the sound {median['d-restart']:.1f} ms after the spawn "
              f"(window mapped {median.get('d-map', float('nan')):.1f} ms), notiplay {median['h-started']:.1f} ms "
              f"(first frame {median.get('frame', float('nan')):.1f} ms)")
    return passed


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="measured rounds (default 30)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first (default 3)")
    parser.add_argument("--bin", help="the notiplay binary (default: build the release binary)")
    parser.add_argument("--sound", default=os.path.join(MEDIA, "chime.wav"),
                        help="the sound-file hint's file (default Media/chime.wav)")
    parser.add_argument("--dunst", action="store_true", help="also time dunst with a sound script (on Xvfb)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1, --warmup at least 0")

    started = []  # what to stop on every way out, in reverse
    record, raw, root = Recorder(), [], None
    try:
        needed = [name for name in ("dbus-daemon", "notify-send", "gdbus") if shutil.which(name) is None]
        if needed:
            raise CouldNotRun(f"not found on PATH: {', '.join(needed)}")
        binary = os.path.abspath(args.bin) if args.bin else build()
        sound = os.path.abspath(args.sound)
        for what, path in (("notiplay", binary), ("sound", sound)):
            if not os.path.exists(path):
                raise CouldNotRun(f"{what} not found: {path}")
        root = tempfile.mkdtemp(prefix="nf-", dir="/tmp")
        Timed.helper = build_helper(root)
        print(f"notiplay = {binary}\nsound = {sound}\nfolder = {root}\nload average at start: {load_average()}")

        buses = {}
        for name in ("a", "h", "e", "v"):  # the card server's, the headless server's, nobody's, the viewer's
            buses[name] = PrivateBus(os.path.join(root, "bus-" + name))
            started.append(buses[name])
        card_env = bus_places(root, "a", buses["a"])
        card = PtyServer([binary, "serve", "--freedesktop", "--audio", "null"], card_env)
        started.append(card)
        card.expect("empty", lambda text: "no notifications" in text)
        card.wait_for(["empty"])
        wait_for_owner(card_env, "the card server", lambda: not card.closed)

        headless_env = bus_places(root, "h", buses["h"])
        headless = HeadlessServer([binary, "serve", "--headless", "--events", "jsonl", "--freedesktop", "--audio",
                                   "null"], headless_env, os.path.join(root, "h"))
        started.append(headless)
        wait_for_owner(headless_env, "the headless server", lambda: headless.process.poll() is None)
        reader = EventReader(headless)
        empty_env = bus_places(root, "e", buses["e"])

        viewed_env = bus_places(root, "v", buses["v"])
        viewed = HeadlessServer([binary, "serve", "--headless", "--freedesktop", "--audio", "null"], viewed_env,
                                os.path.join(root, "v"), lines=False)
        started.append(viewed)
        wait_for_owner(viewed_env, "the viewed headless server", lambda: viewed.process.poll() is None)
        viewer = PtyServer([binary, "attach"], viewed_env)
        started.append(viewer)
        viewer.expect("empty", lambda text: "no notifications" in text)
        viewer.wait_for(["empty"])

        rig = None
        if args.dunst:
            lacking = dunst.missing()
            if lacking:
                print(f"--dunst: skipped, not found on PATH: {', '.join(lacking)}")
            else:
                rig = dunst.DunstRig(root, sound)
                started.append(rig)
                print(f"dunst on Xvfb :{rig.display}, its own bus; script {os.path.join(rig.folder, 'play-sound.sh')}")
        print(f"{args.warmup} warm-up round(s), then {args.runs} rounds of: notify-send, gdbus Notify, notify-send "
              f"sound-file (card server); the same two to a viewer attached to a headless server; notify-send sound-file (headless); gdbus GetServerInformation, "
              f"notify-send --version, notify-send to nobody" + ("; dunst" if rig else ""), flush=True)

        id_file = os.path.join(root, "id.txt")
        for index in range(args.warmup + args.runs):
            measured = record if index >= args.warmup else None
            tag = f"#{index:03d}"
            title = f"Build done {tag}a"
            run_card(card, card_env, notify_send(title), title, measured, ("ns", "frame"), sound=False)
            title = f"Build done {tag}b"
            run_card(card, card_env, gdbus_notify(title), title, measured, ("gd", "gd-frame"), sound=False)
            title = f"Build done {tag}c"
            run_card(card, card_env, notify_send(title, sound), title, measured,
                     ("s-ns", "s-frame", "s-pause", "s-clock"), sound=True)
            title = f"Build done {tag}v"
            run_card(viewer, viewed_env, notify_send(title), title, measured, ("a-ns", "a-frame"), sound=False)
            title = f"Build done {tag}w"
            run_card(viewer, viewed_env, notify_send(title, sound), title, measured,
                     ("as-ns", "as-frame", "as-pause", "as-clock"), sound=True)
            run_headless(reader, headless_env, sound, f"Build done {tag}h", id_file, measured, raw)
            run_floor(gdbus_method("GetServerInformation"), card_env, measured, "gd-info")
            run_floor([tool("notify-send"), "--version"], card_env, measured, "ns-version")
            run_floor(notify_send("Build done"), empty_env, measured, "ns-empty", expect_failure=True)
            if rig:
                rig.run(f"{tag}d", measured)
            if index + 1 == args.warmup:
                print("warm-up done", flush=True)
        offset = min(reader.offsets)
        for start, _, started_t in raw:
            record.add("h-mapped", started_t + offset - start)
        print(f"rounds done; load average: {load_average()}")
        print_table(record)
        passed = print_verdicts(record)
        if LOST:
            print(f"\nthe card's clock never showed the duration {len(LOST)} time(s) (left out of s-clock):")
            for line in LOST:
                print("  " + line)
        return 0 if passed else 1
    except CouldNotRun as failure:
        if record.values:
            print("\nwhat was measured before the failure:")
            print_table(record)
        sys.stdout.flush()
        sys.stderr.write(f"bench-freedesktop: {failure}\n")
        return 2
    finally:
        for process in reversed(started):
            try:
                process.stop()
            except OSError:
                pass
        if root and not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        elif root:
            print(f"kept {root}")


if __name__ == "__main__":
    sys.exit(main())
