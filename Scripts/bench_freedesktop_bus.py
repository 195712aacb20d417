"""The session buses and clients of Scripts/bench-freedesktop.py: a private dbus-daemon per server
(PrivateBus), the environment a server and its clients run with on it, waiting until a name has
its owner, the clients' command lines (notify-send, gdbus), and TimedAny, a Timed run that may
end with any status (notify-send to a bus where nobody owns the name fails, as it should).
"""

import os
import shlex
import shutil
import subprocess
import time

from bench_center_process import WAIT, CouldNotRun, Timed, places, stop_process

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"

# A session bus of its own: listening in its folder, no service files (so a call to a name nobody
# owns fails at once instead of starting dunst or any other daemon installed here), everything
# allowed. What `dbus-daemon --session` would read from /usr/share/dbus-1 minus the activation.
CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class PrivateBus:
    """`dbus-daemon --config-file=CONFIG --nofork --print-address=1`, its address read from its
    first line of output; its standard error (a warning about the descriptor limit, which a
    user without privileges cannot raise) kept in a file."""

    def __init__(self, folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
        config = os.path.join(folder, "bus.conf")
        with open(config, "w") as f:
            f.write(CONFIG.format(folder=folder))
        self.errors = os.path.join(folder, "bus-stderr.txt")
        with open(self.errors, "w") as errors:
            self.process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
                                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors)
        self.pid = self.process.pid
        line = self.process.stdout.readline().decode().strip()
        self.process.stdout.close()
        if not line:
            self.stop()
            with open(self.errors, errors="replace") as f:
                raise CouldNotRun(f"dbus-daemon gave no address: {f.read().strip() or '(nothing)'}")
        self.address = line

    def stop(self):
        if self.process.returncode is None:
            self.process.returncode = stop_process(self.pid, "dbus-daemon")
        return self.process.returncode


def bus_places(root, name, bus):
    """places() (the XDG runtime, state and cache folders under root/name) plus XDG_CONFIG_HOME
    there too, and the bus's address as the session bus."""
    env = places(root, name)
    config = os.path.join(root, name, "config")
    os.makedirs(config, mode=0o700, exist_ok=True)
    env.update(XDG_CONFIG_HOME=config, DBUS_SESSION_BUS_ADDRESS=bus.address)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def name_has_owner(env, name=NAME):
    done = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                           "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                          env=env, capture_output=True, text=True, timeout=WAIT)
    return done.stdout.strip() == "(true,)"


def wait_for_owner(env, what, alive):
    """Waits until NAME has an owner on env's bus; `alive()` says whether the server still runs."""
    deadline = time.monotonic() + WAIT
    while not name_has_owner(env):
        if not alive():
            raise CouldNotRun(f"{what} ended before it owned {NAME}")
        if time.monotonic() > deadline:
            raise CouldNotRun(f"{what} did not own {NAME} within {WAIT} s")
        time.sleep(0.02)


# MARK: The clients


def tool(name):
    """A program's absolute path (the timing helper's posix_spawn does not search PATH)."""
    return shutil.which(name) or name


def notify_send(summary, sound=None, print_id=False):
    argv = [tool("notify-send")] + (["-p"] if print_id else [])
    if sound:
        argv += ["-h", f"string:sound-file:{sound}"]
    return argv + [summary]


def gdbus_notify(summary, sound=None):
    """`gdbus call ... Notify`: app "gdbus", no icon, no body, no actions, expire_timeout -1."""
    hints = "{'sound-file': <'%s'>}" % sound.replace("'", "\\'") if sound else "@a{sv} {}"
    return [tool("gdbus"), "call", "--session", "--dest", NAME, "--object-path", PATH, "--method", f"{NAME}.Notify",
            "--", "gdbus", "0", "", summary, "", "@as []", hints, "-1"]


def gdbus_method(method, *arguments):
    return [tool("gdbus"), "call", "--session", "--dest", NAME, "--object-path", PATH, "--method",
            f"{NAME}.{method}"] + list(arguments)


class TimedAny(Timed):
    """A Timed run whose command may exit with any status: `result[3]` says which."""

    def readable(self):
        chunk = os.read(self.fd, 4096)
        if chunk:
            self.report += chunk
            return False
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        fields = self.report.split()
        if os.waitstatus_to_exitcode(status) != 0 or len(fields) != 4:
            raise CouldNotRun(f"the timing helper failed on {shlex.join(self.argv)}")
        self.result = (float(fields[0]), float(fields[1]), int(fields[2]), int(fields[3]))
        return True


def read_id(path):
    """The notification id `notify-send -p` printed into the file at path."""
    with open(path) as f:
        text = f.read().strip()
    if not text.isdigit():
        raise CouldNotRun(f"notify-send -p printed {text!r}, not an id")
    return text
