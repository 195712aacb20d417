"""What Scripts/center-reliability.py runs its phases with: a center (a store and socket of its
own, `notiplay serve` on them, the commands run against it, its store read with sqlite3), bursts
of `notiplay send` from parallel threads, and the tiny WAVs they attach. Standard library only.
"""
import concurrent.futures, contextlib, hashlib, json, os, random, signal, sqlite3, statistics, struct  # noqa: E401
import subprocess, threading, time  # noqa: E401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG = 300  # seconds: a guard against a command that never ends, never a verdict
SERVERS = []  # every server started, killed at the end if one still runs


def build():
    flags = subprocess.run([os.path.join(ROOT, "Scripts", "release-build-flags")], capture_output=True,
                           text=True, check=True).stdout.split()
    out = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    if not os.access(os.path.join(out, "notiplay"), os.X_OK):
        subprocess.run(["swift", "build", *flags], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out, "notiplay")


def wav(sender, number, noise=0):
    """A WAV `send` accepts (8 kHz mono 16-bit): a marker, `sender` and `number` as samples, then
    `noise` bytes seeded by both."""
    data = struct.pack("<4h", 0x4E50, sender, number & 0x7FFF, number >> 15)
    data += random.Random(sender * 1_000_003 + number).randbytes(noise)
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt "
            + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16) + b"data" + struct.pack("<I", len(data)) + data)


def sha256_of(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as error:
        return str(error)


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


class StartFailed(Exception):
    def __init__(self, status, stderr):
        super().__init__(f"serve did not start: exit {status}: {stderr}")
        self.status, self.stderr = status, stderr


class Faults(list):
    def check(self, ok, fault):
        if not ok:
            self.append(fault)


class Center:
    """A store and socket of their own, the server on them, and the commands run against it."""

    def __init__(self, binary, root, state=None):
        self.binary, self.root, self.server, self.shown = binary, root, None, None
        self.env = dict(os.environ, XDG_STATE_HOME=state or os.path.join(root, "state"),
                        XDG_RUNTIME_DIR=os.path.join(root, "run"))
        self.env.pop("NOTIPLAY_LOG", None)
        os.makedirs(self.env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        self.store = os.path.join(self.env["XDG_STATE_HOME"], "notiplay")
        self.files = os.path.join(root, "files")
        os.makedirs(self.files, exist_ok=True)

    def start(self):
        """Starts `serve`; returns once it printed its first `shown` line (whose identifier is kept)."""
        server = self.server = subprocess.Popen(
            [self.binary, "serve", "--headless", "--events", "jsonl", "--audio", "null"], env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        SERVERS.append(server)
        ready, shown, stderr = threading.Event(), [], []

        def drain():  # to the end: a full pipe would stop the server
            for line in server.stdout:
                if not shown and b'"event":"shown"' in line:
                    shown.append(json.loads(line).get("identifier"))
                    ready.set()
            ready.set()

        threading.Thread(target=drain, daemon=True).start()
        threading.Thread(target=lambda: stderr.extend(server.stderr), daemon=True).start()
        ready.wait(HANG)
        if not shown:
            server.kill()
            server.wait(HANG)
            raise StartFailed(server.returncode, b"".join(stderr).decode(errors="replace").strip())
        self.shown = shown[0]

    def stop(self):
        """SIGTERM; the exit status (143 expected)."""
        self.server.send_signal(signal.SIGTERM)
        return self.server.wait(HANG)

    def run(self, *args):
        return subprocess.run([self.binary, *args], env=self.env, capture_output=True, timeout=HANG)

    def ids(self, *args):
        """The identifiers `list` or `history` print as JSON, in their order."""
        r = self.run(*args, "--json")
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} exited {r.returncode}: {r.stderr.decode()}")
        return [n["identifier"] for n in json.loads(r.stdout)]

    def read(self, folder=None):
        """identifier -> [(sequence, state, [(position, sha256, byteCount)])], the delivered ones in
        `list --delivered`'s order, and integrity_check's answer, from the store (or a copy of it)."""
        path = os.path.join(folder or self.store, "center.sqlite")
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            rows, files = {}, {}
            for seq, pos, sha, count in db.execute("SELECT notification, position, sha256, byteCount FROM attachment"):
                files.setdefault(seq, []).append((pos, sha, count))
            for seq, ident, state in db.execute("SELECT sequence, identifier, state FROM notification"):
                rows.setdefault(ident, []).append((seq, state, sorted(files.get(seq, []))))
            delivered = [r[0] for r in db.execute(
                "SELECT identifier FROM notification WHERE state = 'delivered' ORDER BY deliveredAt, sequence")]
            return rows, delivered, db.execute("PRAGMA integrity_check").fetchone()[0]

    def leftovers(self, rows):
        """The temporary files, and the files no row names, in attachments/."""
        names = os.listdir(os.path.join(self.store, "attachments"))
        named = {sha for versions in rows.values() for _, _, atts in versions for _, sha, _ in atts}
        return [n for n in names if n.startswith(".")], [n for n in names if n[0] != "." and n not in named]


class Burst:
    """SENDERS threads, each running COUNT sends one after the other; attachments written first."""

    def __init__(self, center, senders, count, tag):
        self.center, self.senders, self.count = center, senders, count
        width = max(4, len(str(count - 1)))
        self.order = [[f"{tag}{s}-{i:0{width}d}" for i in range(count)] for s in range(senders)]
        self.payloads = [write(os.path.join(center.files, f"sender{s}.apns"), json.dumps(
            {"aps": {"alert": {"title": f"Sender {s}", "body": "reliability burst"}}})) for s in range(senders)]
        self.files, self.digests = {}, {}
        for s, order in enumerate(self.order):
            for i, ident in enumerate(order):
                self.files[ident] = write(os.path.join(center.files, ident + ".wav"), wav(s, i))
                self.digests[ident] = hashlib.sha256(wav(s, i)).hexdigest()
        self.results = {}  # id -> (exit status, started, ended, stderr)

    def run(self, on_acknowledged=None):
        lock, count = threading.Lock(), [0]

        def sender(s):
            for ident in self.order[s]:
                started = time.monotonic()
                r = self.center.run("send", self.payloads[s], "--attach", self.files[ident], "--id", ident)
                with lock:
                    self.results[ident] = (r.returncode, started, time.monotonic(), r.stderr.decode(errors="replace"))
                    if r.returncode == 0 and on_acknowledged:
                        count[0] += 1
                        on_acknowledged(count[0])

        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(self.senders) as pool:
            list(pool.map(sender, range(self.senders)))
        self.seconds = time.monotonic() - t0
        self.acked = {i for i, r in self.results.items() if r[0] == 0}

    def figures(self):
        times = sorted(r[2] - r[1] for r in self.results.values())
        return (f"{self.senders} senders x {self.count} = {len(self.results)} sends in {self.seconds:.1f} s "
                f"({len(self.acked) / self.seconds:.0f} acknowledged/s); a send took median "
                f"{statistics.median(times) * 1000:.0f} ms, p99 {times[int(len(times) * 0.99) - 1] * 1000:.0f} ms, "
                f"max {times[-1] * 1000:.0f} ms")

    def faults(self, rows, ids):
        """What is wrong with how `ids` are stored: not one delivered row with one attachment whose
        file holds the bytes sent; and senders whose rows are out of the order they sent them in."""
        faults = []
        for ident in sorted(ids):
            digest, versions = self.digests[ident], rows.get(ident, [])
            expected = [(0, digest, os.path.getsize(self.files[ident]))]
            if len(versions) != 1 or versions[0][1:] != ("delivered", expected):
                faults.append(f"{ident}: stored as {versions}, expected one delivered row with {expected}")
            elif sha256_of(os.path.join(self.center.store, "attachments", digest)) != digest:
                faults.append(f"{ident}: its attachment's file does not hold the bytes sent")
        return faults + [f"sender {s}: stored out of the order it sent in" for s, order in enumerate(self.order)
                         if (seen := [rows[i][0][0] for i in order if i in ids and i in rows]) != sorted(seen)]


def verdict(name, faults):
    print(f"FAIL {name}: {len(faults)} problem(s)" if faults else f"PASS {name}")
    for fault in faults[:20]:
        print(f"  - {fault}")
    return not faults
