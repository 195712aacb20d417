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

    Scripts/bench-center.py
    Scripts/bench-center.py --bin .build-release/release/notiplay --runs 15 --idle-seconds 60
"""

import argparse
import codecs
import errno
import fcntl
import hashlib
import json
import os
import pty
import random
import re
import select
import shlex
import shutil
import signal
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unicodedata
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEDIA = os.path.join(ROOT, "Media")
SMALL_PAYLOAD = os.path.join(MEDIA, "nagme.apns")
MEMO_PAYLOAD = os.path.join(MEDIA, "voice-memo.apns")
ROWS, COLUMNS = 24, 80
HISTORY_COUNT = 100_000
BUDGETS = {"send": 15.0, "frame": 20.0, "play": 40.0, "idle": 0.1, "history": 100.0}
WAIT = 10.0  # seconds any one expected thing may take before the run is called failed


class CouldNotRun(Exception):
    """Something the benchmark needs did not happen; main() prints it and exits 2."""


# MARK: Building


def build():
    """Builds the release binary as it ships (Scripts/release-build-flags); returns its path."""
    flags = subprocess.run([os.path.join(ROOT, "Scripts", "release-build-flags")], capture_output=True,
                           text=True, check=True).stdout.split()
    command = ["swift", "build"] + flags
    print("building:", shlex.join(command), flush=True)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        raise CouldNotRun(f"the build failed (status {done.returncode})")
    folder = subprocess.run(command + ["--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
    return os.path.join(folder, "notiplay")


# The timing helper: runs argv[1:] as its child and writes "START END MAXRSS STATUS" to descriptor 3
# once the child has exited (START and END in seconds of CLOCK_MONOTONIC, MAXRSS in KiB). The
# child does not inherit descriptor 3, so the report's pipe ends exactly when the helper does.
HELPER_SOURCE = r"""
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
extern char **environ;
static double seconds(struct timespec t) { return (double)t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    if (argc < 2) return 125;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, 3);
    struct timespec start, end;
    pid_t child;
    int status;
    struct rusage usage;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (posix_spawn(&child, argv[1], &actions, NULL, argv + 1, environ) != 0) return 127;
    if (wait4(child, &status, 0, &usage) != child) return 126;
    clock_gettime(CLOCK_MONOTONIC, &end);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    dprintf(3, "%.9f %.9f %ld %d\n", seconds(start), seconds(end), usage.ru_maxrss, code);
    return 0;
}
"""


def build_helper(folder):
    """Compiles HELPER_SOURCE with the Swift toolchain's clang, or cc; returns the binary's path."""
    candidates = []
    swiftc = shutil.which("swiftc")
    if swiftc:
        candidates.append(os.path.join(os.path.dirname(os.path.realpath(swiftc)), "clang"))
    candidates += [shutil.which(name) for name in ("cc", "clang", "gcc")]
    compiler = next((c for c in candidates if c and os.access(c, os.X_OK)), None)
    if compiler is None:
        raise CouldNotRun("no C compiler (the Swift toolchain's clang, or cc) for the timing helper")
    source = os.path.join(folder, "timed.c")
    with open(source, "w") as f:
        f.write(HELPER_SOURCE)
    binary = os.path.join(folder, "timed")
    done = subprocess.run([compiler, "-O2", "-o", binary, source], capture_output=True, text=True)
    if done.returncode != 0:
        raise CouldNotRun(f"the timing helper did not compile:\n{done.stdout}{done.stderr}")
    return binary


# MARK: Processes


class Timed:
    """One run of argv through the timing helper, started at once; the report comes on `fd`.

    `stdout` is a path (opened for writing) or a descriptor to give the command as its standard
    output. Call `readable()` whenever select() finds `fd` readable; `result` is then set to
    (start, end, peak KiB, exit status) once the command has exited."""

    helper = None

    def __init__(self, argv, env, stdout=os.devnull):
        read_end, write_end = os.pipe()
        if write_end == 3:  # dup2 onto itself would leave close-on-exec set
            moved = os.dup(write_end)
            os.close(write_end)
            write_end = moved
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
        if isinstance(stdout, int):
            actions.append((os.POSIX_SPAWN_DUP2, stdout, 1))
        else:
            actions.append((os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        actions += [(os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_DUP2, write_end, 3)]
        self.argv = argv
        self.env = env
        self.pid = os.posix_spawn(Timed.helper, [Timed.helper] + argv, env, file_actions=actions)
        os.close(write_end)
        self.fd = read_end
        self.report = b""
        self.result = None

    def readable(self):
        """Reads what the report pipe has; True once the report is complete."""
        chunk = os.read(self.fd, 4096)
        if chunk:
            self.report += chunk
            return False
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        fields = self.report.split()
        if os.waitstatus_to_exitcode(status) != 0 or len(fields) != 4:
            raise CouldNotRun(f"the timing helper failed (status {os.waitstatus_to_exitcode(status)}) on "
                              f"{shlex.join(self.argv)}")
        self.result = (float(fields[0]), float(fields[1]), int(fields[2]), int(fields[3]))
        if self.result[3] != 0:
            raise CouldNotRun(f"exit status {self.result[3]}: {shlex.join(self.argv)}\n"
                              f"  again, with its standard error: {rerun_for_stderr(self.argv, self.env)}")
        return True

    def wait(self):
        """Blocks until the report is complete; returns `result`."""
        while not self.readable():
            pass
        return self.result


def rerun_for_stderr(argv, env):
    """Runs argv once more to show what it prints on standard error (for a failure's message)."""
    done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace", timeout=30)
    return f"status {done.returncode}: {done.stderr.strip() or '(nothing)'}"


def stop_process(pid, name):
    """SIGTERM, then SIGKILL after 10 s; reaps it. Returns its exit status (None if already gone)."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done == pid:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    sys.stderr.write(f"bench-center: {name} (pid {pid}) did not stop on SIGTERM within 10 s; killing it\n")
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def places(root, name):
    """A server's own XDG folders under root/name; returns the environment for it and its clients."""
    base = os.path.join(root, name)
    env = dict(os.environ)
    for key, folder in (("XDG_RUNTIME_DIR", "run"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
        path = os.path.join(base, folder)
        os.makedirs(path, mode=0o700, exist_ok=True)
        env[key] = path
    env.pop("NOTIPLAY_CACHE_DIR", None)
    env.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    env.pop("COLORTERM", None)
    return env


def socket_path(env):
    return os.path.join(env["XDG_RUNTIME_DIR"], "notiplay", "center.sock")


def store_path(env):
    return os.path.join(env["XDG_STATE_HOME"], "notiplay", "center.sqlite")


# MARK: The terminal


class Screen:
    """What a terminal shows, for the part of the terminal protocol notiplay's frames use.

    Printable characters (wide ones over two cells, combining ones onto the cell before), CR, LF,
    BS, TAB; CSI cursor moves (H f A B C D E F G d), erases (J K), save and restore (s u, ESC 7
    and 8), the alternate screen (?1049 h/l, cleared); SGR, other modes, OSC and charset
    designations are read and ignored. A sequence cut between two reads waits for its end."""

    def __init__(self, rows, columns):
        self.rows, self.columns = rows, columns
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.rest = ""
        self.row = self.column = 0
        self.saved = (0, 0)
        self.cells = []
        self.erase(0, 0, rows - 1, columns)

    def text(self):
        return "\n".join("".join(line) for line in self.cells)

    def erase(self, row0, column0, row1, column1):
        """Blanks from (row0, column0) to just before (row1, column1), row by row."""
        while len(self.cells) < self.rows:
            self.cells.append([" "] * self.columns)
        for row in range(row0, row1 + 1):
            first = column0 if row == row0 else 0
            last = column1 if row == row1 else self.columns
            for column in range(first, min(last, self.columns)):
                self.cells[row][column] = " "

    def feed(self, data):
        text = self.rest + self.decoder.decode(data)
        self.rest = ""
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "\x1b":
                end = self.escape(text, i)
                if end is None:
                    self.rest = text[i:]
                    return
                i = end
                continue
            if c == "\r":
                self.column = 0
            elif c == "\n":
                self.line_feed()
            elif c == "\b":
                self.column = max(0, min(self.column, self.columns - 1) - 1)
            elif c == "\t":
                self.column = min(self.columns - 1, (self.column // 8 + 1) * 8)
            elif c >= " " and c != "\x7f" and not "\x80" <= c <= "\x9f":
                self.put(c)
            i += 1

    def escape(self, text, i):
        """Handles the escape sequence at i; returns the index after it, or None if it is cut."""
        n = len(text)
        if i + 1 >= n:
            return None
        kind = text[i + 1]
        if kind == "[":
            j = i + 2
            while j < n and not "\x40" <= text[j] <= "\x7e":
                j += 1
            if j >= n:
                return None
            self.csi(text[i + 2:j], text[j])
            return j + 1
        if kind in "]P^_X":  # a string, ended by BEL or ST
            j = i + 2
            while j < n:
                if text[j] == "\x07":
                    return j + 1
                if text[j] == "\x1b":
                    if j + 1 >= n:
                        return None
                    if text[j + 1] == "\\":
                        return j + 2
                j += 1
            return None
        if kind in "()*+":
            return i + 3 if i + 2 < n else None
        if kind == "7":
            self.saved = (self.row, self.column)
        elif kind == "8":
            self.row, self.column = self.saved
        return i + 2

    def csi(self, parameters, final):
        private = parameters[:1] in ("?", ">", "<", "=")
        numbers = [int(p) if p.isdigit() else 0 for p in parameters.lstrip("?><=").split(";")] if parameters else []
        if private:
            if final in "hl" and any(p in (47, 1047, 1049) for p in numbers):
                self.erase(0, 0, self.rows - 1, self.columns)
                self.row = self.column = 0
            return
        count = max(1, numbers[0]) if numbers else 1
        column = min(self.column, self.columns - 1)
        if final in "Hf":
            self.row = min(self.rows, max(1, numbers[0] if numbers else 1)) - 1
            self.column = min(self.columns, max(1, numbers[1] if len(numbers) > 1 else 1)) - 1
        elif final == "A":
            self.row = max(0, self.row - count)
        elif final == "B":
            self.row = min(self.rows - 1, self.row + count)
        elif final == "C":
            self.column = min(self.columns - 1, column + count)
        elif final == "D":
            self.column = max(0, column - count)
        elif final in "EF":
            self.row = min(self.rows - 1, self.row + count) if final == "E" else max(0, self.row - count)
            self.column = 0
        elif final == "G":
            self.column = min(self.columns, count) - 1
        elif final == "d":
            self.row = min(self.rows, count) - 1
        elif final == "J":
            mode = numbers[0] if numbers else 0
            if mode == 0:
                self.erase(self.row, column, self.rows - 1, self.columns)
            elif mode == 1:
                self.erase(0, 0, self.row, column + 1)
            else:
                self.erase(0, 0, self.rows - 1, self.columns)
        elif final == "K":
            mode = numbers[0] if numbers else 0
            first, last = {0: (column, self.columns), 1: (0, column + 1)}.get(mode, (0, self.columns))
            self.erase(self.row, first, self.row, last)
        elif final == "s":
            self.saved = (self.row, self.column)
        elif final == "u":
            self.row, self.column = self.saved

    def line_feed(self):
        if self.row + 1 < self.rows:
            self.row += 1
        else:
            self.cells.pop(0)
            self.cells.append([" "] * self.columns)

    def put(self, c):
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            if self.column > 0:
                self.cells[self.row][min(self.column, self.columns) - 1] += c
            return
        width = 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
        if self.column + width > self.columns:  # the autowrap notiplay never relies on
            self.column = 0
            self.line_feed()
        self.cells[self.row][self.column] = c
        if width == 2 and self.column + 1 < self.columns:
            self.cells[self.row][self.column + 1] = ""
        self.column += width


class PtyServer:
    """`notiplay serve` on a pseudo terminal of ROWS x COLUMNS whose master this script reads.

    `expect(name, test)` registers something to see on the screen: after every read the screen's
    text is given to each test not yet passed, and the first read after which it passes has its
    time recorded in `seen[name]`."""

    def __init__(self, argv, env):
        self.argv = argv
        pid, fd = pty.fork()
        if pid == 0:  # the child: the terminal's size, then the server
            try:
                fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        os.set_inheritable(fd, False)
        os.set_blocking(fd, False)
        self.screen = Screen(ROWS, COLUMNS)
        self.tests = {}
        self.seen = {}
        self.reads = 0
        self.bytes = 0
        self.closed = False
        self.exit_status = None

    def expect(self, name, test):
        self.seen.pop(name, None)
        self.tests[name] = test
        if test(self.screen.text()):  # already on the screen: seen now
            self.seen[name] = time.monotonic()
            del self.tests[name]

    def pump(self, timeout, others=()):
        """Waits up to timeout for output or for one of the other descriptors; reads the output
        once. Returns (the time select returned, the other descriptors found readable)."""
        watched = list(others) + ([] if self.closed else [self.fd])
        ready = select.select(watched, [], [], max(0.0, timeout))[0] if watched else time.sleep(timeout) or []
        now = time.monotonic()
        if self.fd in ready:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                data = None
            except OSError as error:  # EIO: the server's side of the terminal is closed
                if error.errno != errno.EIO:
                    raise
                data = b""
            if data:
                self.reads += 1
                self.bytes += len(data)
                self.screen.feed(data)
                if self.tests:
                    text = self.screen.text()
                    for name, test in list(self.tests.items()):
                        if test(text):
                            self.seen[name] = now
                            del self.tests[name]
            elif data == b"":
                self.closed = True
        return now, [fd for fd in ready if fd != self.fd]

    def wait_for(self, names, timeout=WAIT, timed=None):
        """Pumps until every name in names was seen and the Timed `timed` (if any) has its report."""
        deadline = time.monotonic() + timeout
        while any(name not in self.seen for name in names) or (timed and timed.result is None):
            if self.closed and any(name not in self.seen for name in names):
                raise CouldNotRun(f"the server's terminal closed while waiting for {names}:\n{self.screen.text()}")
            left = deadline - time.monotonic()
            if left <= 0:
                missing = [n for n in names if n not in self.seen]
                raise CouldNotRun(f"not seen within {timeout} s: {missing or 'the exit of ' + shlex.join(timed.argv)}; "
                                  f"the screen:\n{self.screen.text()}")
            _, ready = self.pump(left, [timed.fd] if timed and timed.result is None else [])
            if ready:
                timed.readable()

    def write(self, data):
        """Writes keys to the terminal; returns the time just before the write."""
        now = time.monotonic()
        os.write(self.fd, data)
        return now

    def settle(self, seconds):
        """Keeps reading for a while (nothing expected)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(end - time.monotonic())

    def stop(self):
        if self.exit_status is None:
            self.exit_status = stop_process(self.pid, "the card server")
            try:  # what it wrote last (the terminal restored), until the terminal is closed
                while not self.closed and select.select([self.fd], [], [], 0)[0]:
                    self.pump(0)
            except OSError:
                pass
            os.close(self.fd)
        return self.exit_status


class HeadlessServer:
    """`notiplay serve --headless ...` with its standard output on a pipe (read line by line) or
    /dev/null; standard error kept in a file, for a failure's message."""

    def __init__(self, argv, env, folder, lines=True):
        self.argv = argv
        self.errors = os.path.join(folder, "serve-stderr.txt")
        with open(self.errors, "w") as errors:
            self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE if lines else subprocess.DEVNULL, stderr=errors)
        self.pid = self.process.pid
        self.buffer = b""

    def next_line(self, deadline):
        """The next line of its output as a dict (JSON), or raises once deadline passes."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                raise CouldNotRun(f"no event from {shlex.join(self.argv)} in time ({self.stderr()})")
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise CouldNotRun(f"{shlex.join(self.argv)} ended its output early ({self.stderr()})")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def stderr(self):
        with open(self.errors, errors="replace") as f:
            return "standard error: " + (f.read().strip() or "(nothing)")

    def stop(self):
        if self.process.returncode is None:
            self.process.returncode = stop_process(self.pid, "a headless server")
        if self.process.stdout:
            self.process.stdout.close()
        return self.process.returncode


def wait_for_socket(env, server, what):
    """Waits until the server accepts connections on its socket (a file left by the server before
    it may be there already): connects, and closes at once."""
    deadline = time.monotonic() + WAIT
    path = socket_path(env)
    while True:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
                return
            except OSError:
                pass
        if time.monotonic() > deadline or server.process.poll() is not None:
            raise CouldNotRun(f"{what} does not listen at {path} ({server.stderr()})")
        time.sleep(0.01)


# MARK: Payloads


def tagged_payload(folder, source, tag, title, drop=()):
    """A copy of the payload file `source` in folder, its alert title set to `title` (which holds
    the run's tag), as clients write them (indented JSON); `drop` names top-level keys left out."""
    with open(source) as f:
        payload = json.load(f)
    for key in drop:
        payload.pop(key, None)
    payload["aps"]["alert"]["title"] = title
    path = os.path.join(folder, f"{tag}.apns")
    with open(path, "w") as f:
        json.dump(payload, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return path


# MARK: Rows 1-4: the card server's rounds


class Recorder:
    """Milliseconds per row, in the order rows were first recorded."""

    def __init__(self):
        self.values = {}

    def add(self, row, seconds):
        self.values.setdefault(row, []).append(seconds * 1000)


def dismiss(server):
    """Dismisses the shown card (d) and waits for the empty deck."""
    server.expect("empty", lambda text: "no notifications" in text)
    server.write(b"d")
    server.wait_for(["empty"])


def run_small(server, binary, env, folder, tag, record, rss):
    title = f"NagMe {tag}"
    payload = tagged_payload(folder, SMALL_PAYLOAD, tag, title)
    server.expect("card", lambda text: title in text)
    timed = Timed([binary, "send", payload], env)
    server.wait_for(["card"], timed=timed)
    start, end, peak, _ = timed.result
    if record:
        record.add("1", end - start)
        record.add("2", server.seen["card"] - start)
        rss.setdefault("small", []).append(peak)
    dismiss(server)


def run_memo(server, binary, env, folder, tag, attachment, record, rss):
    title = f"Voice memo {tag}"
    payload = tagged_payload(folder, MEMO_PAYLOAD, tag, title)
    server.expect("card", lambda text: title in text and "▶" in text)
    timed = Timed([binary, "send", payload, "--attach", attachment], env)
    server.wait_for(["card"], timed=timed)
    start, end, peak, _ = timed.result
    if record:
        record.add("1b", end - start)
        record.add("2b", server.seen["card"] - start)
        rss.setdefault("memo", []).append(peak)
    dismiss(server)


PLAYING = "⏸"
DURATION_SHOWN = re.compile(r"\d:\d\d / \d:\d\d")


def run_play(server, binary, env, folder, tag, attachment, record):
    title = f"Voice memo {tag}"
    payload = tagged_payload(folder, MEMO_PAYLOAD, tag, title)
    server.expect("card", lambda text: title in text and "▶" in text)
    timed = Timed([binary, "send", payload, "--attach", attachment], env)
    deadline = time.monotonic() + WAIT
    while "card" not in server.seen:  # the key goes the moment the card's frame is read
        if time.monotonic() > deadline:
            raise CouldNotRun(f"the voice memo's card did not show; the screen:\n{server.screen.text()}")
        _, ready = server.pump(deadline - time.monotonic(), [] if timed.result else [timed.fd])
        if ready:
            timed.readable()
    server.expect("playing", lambda text: PLAYING in text)
    server.expect("loaded", lambda text: DURATION_SHOWN.search(text) is not None)
    key = server.write(b" ")
    server.wait_for(["playing"], timed=timed)
    try:
        server.wait_for(["loaded"], timeout=3.0)
    except CouldNotRun:
        # The press was taken (⏸), but the clock never showed the duration: the media did not
        # start. Counted and shown, not timed; the benchmark goes on.
        LOST_PRESSES.append(f"{tag}: ⏸ at {1000 * (server.seen['playing'] - key):.1f} ms after the key, then "
                            f"no duration for 3 s; the button now shows {'⏸' if PLAYING in server.screen.text() else '▶'}:\n"
                            + "\n".join(line for line in server.screen.text().split("\n") if line.strip()))
        server.seen.pop("loaded", None)
        server.tests.pop("loaded", None)
    start = timed.result[0]
    if record:
        record.add("3", server.seen["playing"] - start)
        record.add("3a", server.seen["playing"] - key)
        if "loaded" in server.seen:
            record.add("3b", server.seen["loaded"] - key)
            record.add("3c", server.seen["loaded"] - start)
    dismiss(server)


LOST_PRESSES = []  # presses of the media button after which the media never started


def run_headless_play(binary, env, folder, record):
    """Row 3d: a headless server restarted on the stored voice memo, the key fed after 1 s."""
    argv = [binary, "serve", "--headless", "--events", "jsonl", "--audio", "null", "--keys", "~1s space"]
    server = HeadlessServer(argv, env, folder)
    try:
        deadline = time.monotonic() + WAIT
        key = None
        while True:
            event = server.next_line(deadline)
            if event.get("event") == "mediaPlay":
                key = event["t"]
            if event.get("event") == "playback" and event.get("state") == "started":
                if key is None:
                    raise CouldNotRun("the headless server reported playback before the key's mediaPlay event")
                if record:
                    record.add("3d", event["t"] - key)
                break
            if event.get("event") == "error":
                raise CouldNotRun(f"the headless server reported an error: {event}")
    finally:
        server.stop()


def run_mpv(mpv, audio, fifo, env, record, row, script=None):
    """Rows 4 and 4b: spawn to the first bytes mpv's pcm output writes into the FIFO."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # before mpv: its open for writing succeeds at once
    try:
        if script:
            argv = [script, audio]
        else:
            argv = [mpv, "--no-config", "--no-video", "--ao=pcm", f"--ao-pcm-file={fifo}",
                    "--ao-pcm-waveheader=no", audio]
        timed = Timed(argv, env)
        first = None
        deadline = time.monotonic() + WAIT
        while timed.result is None or first is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CouldNotRun(f"no sample from {shlex.join(argv)} within {WAIT} s")
            watched = ([reader] if first is None or timed.result is None else []) + ([timed.fd] if timed.result is None else [])
            ready = select.select(watched, [], [], left)[0]
            now = time.monotonic()
            if reader in ready:
                try:
                    data = os.read(reader, 1 << 16)
                except BlockingIOError:
                    data = None
                if data and first is None:
                    first = now
                if data == b"" and first is not None:  # the end of what mpv wrote
                    os.close(reader)
                    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # no writer now: never readable
            if timed.fd in ready:
                timed.readable()
        if record:
            record.add(row, first - timed.result[0])
    finally:
        os.close(reader)


# MARK: Row 5: idle


def task_counts(pid):
    """Per live thread: (run time ns from schedstat, voluntary + involuntary context switches)."""
    counts = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return counts
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                ran = int(f.read().split()[0])
            voluntary = involuntary = 0
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        voluntary = int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        involuntary = int(line.split()[1])
            with open(f"/proc/{pid}/task/{task}/comm") as f:
                name = f.read().strip()
            counts[task] = (ran, voluntary, involuntary, name)
        except (OSError, ValueError, IndexError):
            pass  # the thread ended meanwhile
    return counts


def stat_ticks(pid):
    """utime + stime of the whole process (every thread, ended ones too), in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


class IdleWatch:
    """Follows one process's threads over a window: each thread counts from its first sample (0 if
    it started in the window) to its last, so one that ends takes nothing with it."""

    def __init__(self, pid):
        self.pid = pid
        self.first = task_counts(pid)
        self.last = dict(self.first)
        self.ticks = stat_ticks(pid)
        self.start = time.monotonic()

    def sample(self):
        self.last.update(task_counts(self.pid))

    def finish(self):
        self.sample()
        seconds = time.monotonic() - self.start
        zero = (0, 0, 0, "")
        ran = sum(v[0] - self.first.get(t, zero)[0] for t, v in self.last.items()) / 1e9
        voluntary = sum(v[1] - self.first.get(t, zero)[1] for t, v in self.last.items())
        involuntary = sum(v[2] - self.first.get(t, zero)[2] for t, v in self.last.items())
        by_thread = {}
        for t, v in self.last.items():
            woke = v[1] - self.first.get(t, zero)[1]
            if woke:
                by_thread[f"{v[3]} ({t})"] = woke
        ticks = stat_ticks(self.pid) - self.ticks
        return {"seconds": seconds, "schedstat": ran, "stat": ticks / os.sysconf("SC_CLK_TCK"),
                "wakeups": voluntary, "involuntary": involuntary, "threads": len(self.last), "by_thread": by_thread}


def measure_idle(card, headless, seconds):
    """Samples both idle servers side by side every 0.5 s; the card's terminal is read meanwhile."""
    reads, data = card.reads, card.bytes
    watches = {"5": IdleWatch(card.pid)}
    if headless:
        watches["5b"] = IdleWatch(headless.pid)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        step_end = min(end, time.monotonic() + 0.5)
        while time.monotonic() < step_end:
            card.pump(step_end - time.monotonic())
        for watch in watches.values():
            watch.sample()
    results = {row: watch.finish() for row, watch in watches.items()}
    results["5"]["frames"] = card.reads - reads
    results["5"]["frame_bytes"] = card.bytes - data
    return results


# MARK: Row 6: history over 100,000 notifications

SCHEMA = {
    "notification": ["sequence", "identifier", "app", "payload", "threadIdentifier", "categoryIdentifier",
                     "triggerJSON", "sender", "state", "arrivedAt", "deliveredAt", "endedAt", "response", "replacedBy"],
    "attachment": ["notification", "position", "name", "kind", "sha256", "byteCount"],
}

APPS = [
    ("notiplay", "chores", "reminder", ["Water the plants", "Take out the recycling", "Call the dentist back"]),
    ("NagMe", "chores", "reminder", ["Pay the electricity bill", "Renew the parking permit", "Book the MOT"]),
    ("Mail", "inbox", "message", ["Re: Quarterly numbers", "Your order has shipped", "Invitation: Design review"]),
    ("Chat", "sam", "voice-memo", ["Voice memo from Sam", "Kim: are we still on for tonight?", "Léa a réagi : 👍"]),
    ("CI", "ci", "build", ["Build 4512 passed", "Build 4513 failed: 3 tests", "Deploy to staging done — 2 min"]),
]
BODIES = ["The build of main finished: 1,024 tests passed.", "Tap to open.", "Due today at 18:00.",
          "Sam: “see you at the station, platform 4”", "3 new messages in #release-notes",
          "Ends in 10 minutes.", "Press space to listen."]


def prepare_history_store(binary, root, attachment):
    """Rows of the store for row 6: made by serve, filled with sqlite3, the newest by a real send.
    Returns (env, the number of rows with attachments)."""
    env = places(root, "h")
    folder = os.path.join(root, "h")
    server = HeadlessServer([binary, "serve", "--headless", "--audio", "null"], env, folder, lines=False)
    try:
        wait_for_socket(env, server, "serve (for the history store)")
    finally:
        server.stop()
    database = store_path(env)
    with open(attachment, "rb") as f:
        content = f.read()
    digest = hashlib.sha256(content).hexdigest()
    response = history_response_template
    rng = random.Random(2025)
    connection = sqlite3.connect(database, isolation_level=None)
    try:
        for table, columns in SCHEMA.items():
            found = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise CouldNotRun(f"the store's table {table} has columns {found}, not the {columns} this script "
                                  "writes (Sources/NotiplayCenter/Store/StoreSchema.swift changed?)")
        if connection.execute("SELECT count(*) FROM notification").fetchone()[0] != 0:
            raise CouldNotRun("the new store is not empty")
        count = HISTORY_COUNT - 1
        now = time.time() - 60
        span = 30 * 86400
        with_attachment = 0
        connection.execute("BEGIN")
        previous = None
        for index in range(count):
            app, thread, category, titles = APPS[index % len(APPS)]
            arrived = now - span + span * index / count + rng.uniform(0, 1)
            payload = {"aps": {"alert": {"title": rng.choice(titles), "body": rng.choice(BODIES)},
                               "thread-id": thread, "category": category, "sound": "default"}}
            if index % 3 == 0:
                payload["aps"]["alert"]["subtitle"] = f"{rng.randint(1, 59)} minutes ago"
            if index % 4 == 0:
                payload["message-id"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            text = json.dumps(payload, indent=2 if index % 2 else None, ensure_ascii=False)
            live = index >= count - 20
            replacing = previous is not None and not live and rng.random() < 0.05
            identifier = previous[1] if replacing else str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
            roll = rng.random()
            if live:
                state, ended, answer = "delivered", None, None
            elif roll < 0.85:
                ended = arrived + rng.uniform(2, 3600)
                state, answer = "dismissed", response.replace("IDENTIFIER", identifier).replace(
                    "SECONDS", f"{rng.uniform(1, 600):.6f}")
            else:
                state, ended, answer = "removed", arrived + rng.uniform(2, 86400), None
            cursor = connection.execute(
                "INSERT INTO notification (identifier, app, payload, threadIdentifier, categoryIdentifier, "
                "triggerJSON, sender, state, arrivedAt, deliveredAt, endedAt, response, replacedBy) "
                "VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, NULL)",
                (identifier, app, text, thread, category, state, arrived, arrived, ended, answer))
            sequence = cursor.lastrowid
            if replacing:
                connection.execute("UPDATE notification SET state = 'removed', endedAt = ?, response = NULL, "
                                   "replacedBy = ? WHERE sequence = ?", (arrived, sequence, previous[0]))
            if index % 10 == 0:
                connection.execute(
                    "INSERT INTO attachment (notification, position, name, kind, sha256, byteCount) "
                    "VALUES (?, 0, ?, 'audio', ?, ?)",
                    (sequence, os.path.basename(attachment), digest, len(content)))
                with_attachment += 1
            previous = (sequence, identifier)
        connection.execute("COMMIT")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    # The newest, by a real send: its attachment's file is the one the inserted rows name.
    server = HeadlessServer([binary, "serve", "--headless", "--audio", "null"], env, folder, lines=False)
    try:
        wait_for_socket(env, server, "serve (for the history store)")
        Timed([binary, "send", MEMO_PAYLOAD, "--attach", attachment], env).wait()
    finally:
        server.stop()
    stored = os.path.join(env["XDG_STATE_HOME"], "notiplay", "attachments", digest)
    if not os.path.exists(stored):
        raise CouldNotRun(f"the real send did not store its attachment as {stored} (SHA-256 naming changed?)")
    return env, with_attachment + 1


history_response_template = None


def take_response_template(database):
    """A response the card server recorded for a dismissal, with IDENTIFIER and SECONDS where the
    notification's identifier and the event's time were."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        row = connection.execute("SELECT identifier, response FROM notification WHERE state = 'dismissed' "
                                 "AND response IS NOT NULL ORDER BY sequence DESC LIMIT 1").fetchone()
    finally:
        connection.close()
    if row is None:
        raise CouldNotRun("the card server recorded no response for a dismissed card")
    identifier, response = row
    template = response.replace(identifier, "IDENTIFIER")
    return re.sub(r'"t":[0-9.e+-]+', '"t":SECONDS', template)


def verify_history(binary, env, folder):
    """Runs history once to a file and checks it is a JSON array of HISTORY_COUNT notifications."""
    output = os.path.join(folder, "history.json")
    argv = [binary, "history", "--json", "--limit", str(HISTORY_COUNT)]
    Timed(argv, env, stdout=output).wait()
    size = os.path.getsize(output)
    with open(output, encoding="utf-8") as f:
        history = json.load(f)
    os.remove(output)
    if not isinstance(history, list) or len(history) != HISTORY_COUNT:
        raise CouldNotRun(f"history --json gave {type(history).__name__} of {len(history)}, not {HISTORY_COUNT}")
    sequences = [item["sequence"] for item in history]
    if sequences != sorted(sequences, reverse=True) or len(set(sequences)) != HISTORY_COUNT:
        raise CouldNotRun("history --json is not newest first, or repeats a notification")
    attached = sum(1 for item in history if item["attachments"])
    states = {}
    for item in history:
        states[item["state"]] = states.get(item["state"], 0) + 1
    return size, attached, states


def run_history(binary, env, record, rss, to_pipe):
    argv = [binary, "history", "--json", "--limit", str(HISTORY_COUNT)]
    if not to_pipe:
        start, end, peak, _ = Timed(argv, env).wait()
        row = "6"
    else:
        read_end, write_end = os.pipe()
        try:
            timed = Timed(argv, env, stdout=write_end)
        finally:
            os.close(write_end)
        buffer = bytearray(1 << 20)  # read into, as cat does: no new buffer per read
        with os.fdopen(read_end, "rb", buffering=0) as output:
            while output.readinto(buffer):
                pass
        start, end, peak, _ = timed.wait()
        row = "6b"
    if record:
        record.add(row, end - start)
        rss.setdefault(row, []).append(peak)


# MARK: Output

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
            run_small(card, binary, card_env, payloads, tag + "s", measured, rss)
            start, end, _, _ = Timed([binary, "--version"], card_env).wait()
            if measured:
                record.add("1f", end - start)
            run_memo(card, binary, card_env, payloads, tag + "m", attachment, measured, rss)
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
        global history_response_template
        history_response_template = take_response_template(store_path(card_env))

        if "history" not in skip:
            print(f"filling a store with {HISTORY_COUNT:,} notifications ...", flush=True)
            history_env, attached = prepare_history_store(binary, root, attachment)
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
