"""Row 5 of Scripts/bench-center.py, idle servers: each thread's run time (schedstat) and context
switches read from /proc, the process's utime + stime, IdleWatch that follows one server's threads
over a window, and measure_idle that samples the card server and the headless one side by side
while the card's terminal is read.
"""

import os
import time


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
