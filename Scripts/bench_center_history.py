"""Row 6 of Scripts/bench-center.py, history over 100,000 notifications: the store made by
`serve`, its tables checked against the schema expected, filled with sqlite3 (payloads, states and
responses like real ones; one in ten with an attachment), the newest added by a real send; the
response template taken from the card server's store; history --json checked once; and its runs,
to /dev/null and to a pipe read to its end.
"""

import hashlib
import json
import os
import random
import re
import sqlite3
import time
import uuid

from bench_center_headless import HeadlessServer, wait_for_socket
from bench_center_process import MEMO_PAYLOAD, CouldNotRun, Timed, places, store_path

# MARK: Row 6: history over 100,000 notifications

HISTORY_COUNT = 100_000
SCHEMA = {
    "notification": ["sequence", "identifier", "app", "payload", "threadIdentifier", "categoryIdentifier",
                     "triggerJSON", "sender", "state", "arrivedAt", "deliveredAt", "endedAt", "response", "replacedBy",
                     "nextDate", "dueAt"],
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


def prepare_history_store(binary, root, attachment, response):
    """Rows of the store for row 6: made by serve, filled with sqlite3, the newest by a real send;
    `response` is take_response_template's, for the dismissed ones. Returns (env, the number of
    rows with attachments)."""
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
