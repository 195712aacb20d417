#!/usr/bin/env python3
"""An example client of notiplay's notification center, in Python 3's standard library alone.

Usage: example_client.py SOCKET PAYLOAD_FILE [ATTACHMENT ...]

Connects to the server at SOCKET (`notiplay serve` listens on
$XDG_RUNTIME_DIR/notiplay/center.sock), sends `ping`, then `send` with PAYLOAD_FILE's text and
the attachments inline, and prints each reply as one line of JSON. Exits 1 if a reply is a
failure, 69 if no server is running. The protocol is described in
Sources/NotiplayCenter/NotiplayCenter.docc/Protocol.md.
"""
import base64
import json
import os
import socket
import struct
import sys

AUDIO = {".wav", ".aif", ".aiff", ".mp3", ".m4a", ".caf", ".ogg", ".flac"}


def send_frame(sock, message):
    """A frame: a 4-byte big-endian length, then that many bytes of UTF-8 JSON."""
    body = json.dumps(message).encode("utf-8")
    sock.sendall(struct.pack(">I", len(body)) + body)


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


def read_frame(sock):
    (length,) = struct.unpack(">I", read_exactly(sock, 4))
    return json.loads(read_exactly(sock, length).decode("utf-8"))


def read_reply(sock, request_id):
    """The reply to `request_id` (events pushed meanwhile are skipped here)."""
    while True:
        message = read_frame(sock)
        if "event" not in message and message.get("id") in (request_id, None):
            return message


def attachment(path):
    with open(path, "rb") as f:
        data = f.read()
    kind = "audio" if os.path.splitext(path)[1].lower() in AUDIO else "image"
    return {"name": os.path.basename(path), "kind": kind, "data": base64.b64encode(data).decode("ascii")}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: example_client.py SOCKET PAYLOAD_FILE [ATTACHMENT ...]")
    path, payload_file, attachments = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(payload_file, encoding="utf-8") as f:
        payload = f.read()
    requests = [
        {"v": 1, "id": 1, "op": "ping"},
        {"v": 1, "id": 2, "op": "send", "app": "Example", "payload": payload,
         "identifier": "example-1", "attachments": [attachment(a) for a in attachments]},
    ]
    failed = False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            print(f"no notification center is running at {path}; start one with `notiplay serve`", file=sys.stderr)
            sys.exit(69)
        for request in requests:
            send_frame(sock, request)
            reply = read_reply(sock, request["id"])
            print(json.dumps(reply, sort_keys=True), flush=True)
            failed = failed or not reply.get("ok")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
