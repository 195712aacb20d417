"""The card server of Scripts/bench-center.py: `notiplay serve` on a pseudo terminal the script
owns (PtyServer), whose output feeds a small model of a terminal (Screen: cursor moves, erases, the
alternate screen, wide characters) so that the script knows what the screen shows after each read
and when a frame first shows what it waits for.
"""

import codecs
import errno
import fcntl
import os
import pty
import select
import shlex
import struct
import termios
import time
import unicodedata

from bench_center_process import WAIT, CouldNotRun, stop_process

ROWS, COLUMNS = 24, 80


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
