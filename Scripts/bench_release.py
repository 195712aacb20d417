"""The release binary the benchmarks measure, built the way it ships (Scripts/release-build-flags).

Shared by the bench-*.py scripts: `release_binary()` builds it in the repository root (the
build's output is shown only when it fails) and returns its path, or raises BuildFailed.
"""

import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BuildFailed(Exception):
    """The release build failed; its output was written to standard error."""


def release_binary():
    """Builds the release binary as Scripts/release-build-flags says; returns its path."""
    flags = subprocess.run([os.path.join(ROOT, "Scripts", "release-build-flags")], capture_output=True,
                           text=True, check=True).stdout.split()
    command = ["swift", "build"] + flags
    print("building:", shlex.join(command), flush=True)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        raise BuildFailed(f"the build failed (status {done.returncode})")
    folder = subprocess.run(command + ["--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
    return os.path.join(folder, "notiplay")
