"""A watcher of windows being mapped on an X server, for Scripts/bench-freedesktop.py's dunst rows:
the X11 protocol's few requests it needs, spoken over the server's Unix socket with the standard
library (no Xlib). It asks for SubstructureNotify on the root window, so the server sends it a
MapNotify or UnmapNotify event whenever any top-level window (dunst's notification window is one)
is mapped or unmapped; the script takes the time of the read that brings the event.
"""

import socket
import struct

MAP_NOTIFY, UNMAP_NOTIFY = 19, 18
SUBSTRUCTURE_NOTIFY = 0x80000  # the event mask bit
CW_EVENT_MASK = 0x800  # ChangeWindowAttributes' value-mask bit for the event mask


class X11Error(Exception):
    """The X server refused the connection or a request."""


class MapWatcher:
    """A connection to X display `number` (its socket /tmp/.X11-unix/X<number>), no authorization
    (the server is started with -ac), listening for top-level windows mapped and unmapped."""

    def __init__(self, number):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(f"/tmp/.X11-unix/X{number}")
        # The connection set-up: little-endian ('l'), protocol 11.0, no authorization.
        self.sock.sendall(struct.pack("<BxHHHHxx", ord("l"), 11, 0, 0, 0))
        head = self.read_exactly(8)
        status, _, _, _, extra = struct.unpack("<BBHHH", head)
        body = self.read_exactly(extra * 4)
        if status != 1:
            reason = body[:head[1]].decode(errors="replace")
            raise X11Error(f"the X server refused the connection: {reason or status}")
        vendor_length, = struct.unpack_from("<H", body, 16)
        formats = body[21]
        screens_at = 32 + (vendor_length + 3) // 4 * 4 + 8 * formats
        self.root, = struct.unpack_from("<I", body, screens_at)
        # ChangeWindowAttributes(root, event-mask = SubstructureNotify): 4 words.
        self.sock.sendall(struct.pack("<BxHIII", 2, 4, self.root, CW_EVENT_MASK, SUBSTRUCTURE_NOTIFY))
        self.pending = b""

    def read_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise X11Error("the X server closed the connection")
            data += chunk
        return data

    def fileno(self):
        return self.sock.fileno()

    def readable(self):
        """Reads what the socket has; returns the events complete so far as (kind, window), kind
        "map" or "unmap" (other events are dropped). Raises X11Error on an error reply."""
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise X11Error("the X server closed the connection")
        self.pending += chunk
        events = []
        while len(self.pending) >= 32:  # every event and error is 32 bytes; no request here has a reply
            packet, self.pending = self.pending[:32], self.pending[32:]
            code = packet[0] & 0x7F
            if code == 0:
                raise X11Error(f"X error {packet[1]} on request {packet[10]}")
            if code in (MAP_NOTIFY, UNMAP_NOTIFY):
                window, = struct.unpack_from("<I", packet, 8)
                events.append(("map" if code == MAP_NOTIFY else "unmap", window))
        return events

    def close(self):
        self.sock.close()

