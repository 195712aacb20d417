"""The ground Scripts/bench-center.py stands on: its paths and time limit, CouldNotRun, building
the release binary and the small C timing helper, Timed (one command run through that helper, its
start, end, peak RSS and exit status), stopping a server (SIGTERM, then SIGKILL), and the private
XDG folders each server and its clients use, with the socket's and the store's paths in them.
"""

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

from bench_release import BuildFailed, release_binary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEDIA = os.path.join(ROOT, "Media")
SMALL_PAYLOAD = os.path.join(MEDIA, "nagme.apns")
MEMO_PAYLOAD = os.path.join(MEDIA, "voice-memo.apns")
WAIT = 10.0  # seconds any one expected thing may take before the run is called failed


class CouldNotRun(Exception):
    """Something the benchmark needs did not happen; main() prints it and exits 2."""


# MARK: Building


def build():
    """Builds the release binary as it ships (Scripts/bench_release.py); returns its path."""
    try:
        return release_binary()
    except BuildFailed as failure:
        raise CouldNotRun(str(failure))


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
