/// Raw clients of the center's socket, in Python: what no `notiplay` command would send.
extension CenterTests {
    /// The socket's framing (a 4-byte big-endian length, then JSON): `connect(path)`,
    /// `frame(sock, message)`, and `reply(sock)`, the next reply with event lines skipped.
    static let rawClientPrelude = #"""
        import base64, json, socket, struct, sys
        def connect(path):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(60)
            sock.connect(path)
            return sock
        def frame(sock, message):
            body = json.dumps(message).encode()
            sock.sendall(struct.pack(">I", len(body)) + body)
        def read(sock, n):
            data = b""
            while len(data) < n:
                chunk = sock.recv(n - len(data))
                if not chunk: raise ConnectionError("closed")
                data += chunk
            return data
        def reply(sock):
            while True:
                (length,) = struct.unpack(">I", read(sock, 4))
                message = json.loads(read(sock, length))
                if "event" not in message: return message
        """#

    /// Runs the raw client `body` (after ``rawClientPrelude``) with the center's socket as `sys.argv[1]`.
    func rawClient(_ body: String, timeout: Double = 60) async throws -> RunResult {
        let socket = environment["XDG_RUNTIME_DIR"]! + "/notiplay/center.sock"
        return try await run(
            "/usr/bin/env", ["python3", "-c", Self.rawClientPrelude + "\n" + body, socket], timeout: timeout, environment: environment)
    }
}
