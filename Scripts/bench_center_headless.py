"""The headless servers of Scripts/bench-center.py: `notiplay serve --headless` with its events
read line by line as JSON (or its output on /dev/null) and its standard error kept for a failure's
message (HeadlessServer), and waiting until a server accepts connections on its socket.
"""

import json
import os
import select
import shlex
import socket
import subprocess
import time

from bench_center_process import WAIT, CouldNotRun, socket_path, stop_process


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
