import Foundation
import NotiplayTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The center's reliability tests' parts (CenterReliabilityTests.swift): a center of their own,
// bursts of senders, the store read with Python's sqlite3, and a small disk.

/// How long any one process may take before it is taken for hung: a hang guard, never a verdict.
let hangGuard = 600.0

/// A WAV of 8 kHz mono 16-bit samples that `send` accepts: a marker, `sender` and `number` (so no
/// two attachments of a test are the same), then `noise` bytes.
func tinyWAV(sender: Int, number: Int, noise: Int = 0) -> [UInt8] {
    var data: [UInt8] = []
    for sample in [0x4E50, sender, number & 0x7FFF, number >> 15] {
        data += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
    }
    data += pseudoRandomBytes(noise, seed: UInt64(sender * 1_000_003 + number))
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16)
        + [1, 0, 1, 0] + le32(8000) + le32(16000) + [2, 0, 16, 0] + Array("data".utf8) + le32(data.count) + data
}

/// What one `send` did.
struct ReliabilitySend: Sendable {
    var id: String, sender: Int, number: Int, bytes: [UInt8]
    var status: Int32 = -1, started = ContinuousClock.now, stderr = ""
}

/// The sends of a burst, and when the server was killed in it.
struct ReliabilityBurst: Sendable {
    var sends: [String: ReliabilitySend]
    var killedAt: ContinuousClock.Instant?

    /// Records an issue for each sender whose notifications appear out of the order it sent them.
    func expectSendersInOrder(oldestFirst ids: some Sequence<String>) {
        var last: [Int: Int] = [:]
        for id in ids {
            guard let send = sends[id] else { continue }
            #expect(send.number > last[send.sender, default: -1], "\(id) came after a later send of its sender")
            last[send.sender] = send.number
        }
    }

    /// Records an issue unless `rows` is one delivered row with one attachment, the bytes sent.
    func expectWhole(_ id: String, _ rows: [StoreDump.Row]?) {
        let hex = sends[id].map { $0.bytes.map { String(format: "%02x", $0) }.joined() }
        let row = rows?.count == 1 ? rows?.first : nil
        #expect(row?.state == "delivered" && row?.attachments.count == 1, "\(id): \(rows.map { "\($0)" } ?? "no row")")
        #expect(row?.attachments.first?.named == true && row?.attachments.first?.hex == hex, "\(id): not the bytes sent")
    }
}

/// The store as Python's `sqlite3` reads it: `PRAGMA integrity_check`, each notification's rows
/// with its attachments' bytes, the delivered ones as `list --delivered` orders them, and the
/// files in `attachments/` that no row names.
struct StoreDump: Decodable {
    struct File: Decodable { var hex: String; var named: Bool }
    struct Row: Decodable { var state: String; var attachments: [File] }
    var integrity: String
    var rows: [String: [Row]]
    var delivered: [String]
    var leftovers: [String]

    static let script = """
        import hashlib, json, os, sqlite3, sys
        folder = sys.argv[1]
        db = sqlite3.connect(f"file:{folder}/center.sqlite?mode=ro", uri=True)
        out = {"integrity": db.execute("PRAGMA integrity_check").fetchone()[0], "rows": {}, "named": set()}
        for seq, ident, state in db.execute("SELECT sequence, identifier, state FROM notification ORDER BY sequence"):
            files = []
            for sha, count in db.execute(
                    "SELECT sha256, byteCount FROM attachment WHERE notification = ? ORDER BY position", (seq,)):
                data = open(os.path.join(folder, "attachments", sha), "rb").read()
                files.append({"hex": data.hex(), "named": hashlib.sha256(data).hexdigest() == sha and len(data) == count})
                out["named"].add(sha)
            out["rows"].setdefault(ident, []).append({"state": state, "attachments": files})
        out["delivered"] = [r[0] for r in db.execute(
            "SELECT identifier FROM notification WHERE state = 'delivered' ORDER BY deliveredAt, sequence")]
        out["leftovers"] = sorted(set(os.listdir(os.path.join(folder, "attachments"))) - out.pop("named"))
        print(json.dumps(out))
        """
}

/// A store and socket of their own (a short runtime folder: a socket path holds 107 bytes), the
/// servers started on them, and the commands run against them.
final class ReliabilityCenter: Sendable {
    let scratch: URL
    let environment: [String: String]
    let binary: String
    /// The store's folder, `$XDG_STATE_HOME/notiplay`.
    let store: String
    /// Where attachments and payloads are written; `payload` is a small alert.
    let files: String
    let payload: String
    private let servers = Mutex<[ChildProcess]>([])

    init(scratch: URL? = nil, state: String? = nil) throws {
        binary = try E2E.binary()
        self.scratch = try scratch ?? E2E.scratch()
        var environment = E2E.childEnvironment
        environment["XDG_STATE_HOME"] = state ?? self.scratch.appendingPathComponent("state").path
        environment["XDG_RUNTIME_DIR"] = "/tmp/npr-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: environment["XDG_RUNTIME_DIR"]!, withIntermediateDirectories: true)
        self.environment = environment
        store = environment["XDG_STATE_HOME"]! + "/notiplay"
        files = self.scratch.appendingPathComponent("files").path
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        payload = files + "/alert.apns"
        try Data(#"{"aps":{"alert":{"title":"Burst","body":"a reliability check"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
    }

    /// Kills any server still running and removes the folders.
    func tearDown() {
        for server in servers.withLock({ $0 }) { server.send(SIGKILL) }
        try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        E2E.remove(scratch)
    }

    /// Starts `serve --headless` and returns once it printed its first `shown` line, with the
    /// identifier that line shows (`nil`: none).
    func start() async throws -> (server: ChildProcess, shown: String?) {
        let server = ChildProcess(binary, ["serve", "--headless", "--events", "jsonl", "--audio", "null"], environment: environment)
        try await server.start()
        servers.withLock { $0.append(server) }
        let ready = await server.send(0, whenStdout: { Self.shownLine(in: $0) != nil }, timeout: hangGuard)
        guard ready != nil, let line = Self.shownLine(in: server.stdoutSoFar) else {
            throw ServerDidNotStart(result: try await server.finish(timeout: hangGuard))
        }
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (server, object?["identifier"] as? String)
    }

    /// The first complete `shown` line.
    private static func shownLine(in output: Data) -> Substring? {
        let text = String(decoding: output, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.contains(#""event":"shown""#) }
    }

    /// Ends a server with SIGTERM; records an issue unless it exits 143.
    func stop(_ server: ChildProcess) async throws {
        server.send(SIGTERM)
        let result = try await server.finish(timeout: hangGuard)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    /// Runs `notiplay arguments` beside whatever else runs (not in the two child slots: these
    /// are short commands, and running them at once is the point).
    func run(_ arguments: [String], executable: String? = nil) async throws -> RunResult {
        let child = ChildProcess(executable ?? binary, arguments, environment: environment)
        try await child.start()
        return try await child.finish(timeout: hangGuard)
    }

    /// The identifiers `list` or `history` print with `--json`, in their order.
    func identifiers(_ arguments: String...) async throws -> [String] {
        let result = try await run(arguments + ["--json"])
        try #require(result.status == 0, "\(result)")
        let objects = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        return try #require(objects).compactMap { $0["identifier"] as? String }
    }

    /// `senders` tasks, each running `count` sends one after the other with an attachment of its
    /// own and an id like `s3-0042`; with `kill`, SIGKILL to the server once that many exited 0.
    func burst(senders: Int, count: Int, kill: (after: Int, server: ChildProcess)? = nil) async throws -> ReliabilityBurst {
        let planned = try (0..<senders).map { sender in
            try (0..<count).map { number in
                let id = "s\(sender)-" + String(format: "%04d", number)
                let send = ReliabilitySend(id: id, sender: sender, number: number, bytes: tinyWAV(sender: sender, number: number))
                try Data(send.bytes).write(to: URL(fileURLWithPath: "\(files)/\(id).wav"))
                return send
            }
        }
        let tally = Tally()
        let sends = try await withThrowingTaskGroup(of: [ReliabilitySend].self) { group in
            for plan in planned {
                group.addTask {
                    var done: [ReliabilitySend] = []
                    for var send in plan {
                        send.started = .now
                        let result = try await self.run(["send", self.payload, "--attach", "\(self.files)/\(send.id).wav", "--id", send.id])
                        (send.status, send.stderr) = (result.status, result.stderrText)
                        done.append(send)
                        guard result.status == 0, let kill else { continue }
                        tally.state.withLock { tally in
                            tally.acknowledged += 1
                            guard tally.acknowledged == kill.after else { return }
                            tally.killedAt = .now
                            kill.server.send(SIGKILL)
                        }
                    }
                    return done
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return ReliabilityBurst(
            sends: Dictionary(uniqueKeysWithValues: sends.map { ($0.id, $0) }), killedAt: tally.state.withLock { $0.killedAt })
    }

    /// How many sends of a burst exited 0, and when the server was killed.
    private final class Tally: Sendable {
        let state = Mutex<(acknowledged: Int, killedAt: ContinuousClock.Instant?)>((0, nil))
    }

    /// Records an issue for each of `ids` whose bytes no file of `attachments/` holds, and for any
    /// temporary file there.
    func expectStored(_ burst: ReliabilityBurst, _ ids: Set<String>) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: store + "/attachments")
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        let contents = Set(try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: "\(store)/attachments/\($0)"))) })
        for id in ids.sorted() where !contents.contains(burst.sends[id]?.bytes ?? []) {
            Issue.record("\(id): no file in the store holds the bytes sent")
        }
    }

    /// The store read by Python's `sqlite3` (``StoreDump``), or `nil` when python3 is not installed.
    func dump() async throws -> StoreDump? {
        guard let python = E2E.which("python3") else { return nil }
        let result = try await run(["-c", StoreDump.script, store], executable: python)
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode(StoreDump.self, from: result.stdout)
    }
}

/// `serve` ended before it showed its deck.
struct ServerDidNotStart: Error, CustomStringConvertible {
    var result: RunResult
    var description: String { "serve did not start: \(result)" }
}

/// A tmpfs mounted (as root) in a test's scratch folder, for a store that fills up or turns read-only.
struct SmallDisk {
    let path: String

    /// Mounts a tmpfs of `size` on `scratch/disk`; `nil` when mount(2) is refused.
    init?(in scratch: URL, size: String) {
        path = scratch.appendingPathComponent("disk").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)) != nil,
            mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0700") == 0
        else { return nil }
    }

    /// Makes the file system read-only or writable again; refused (EBUSY) while a file on it is
    /// open for writing.
    func remount(readOnly: Bool) -> Bool {
        mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0), nil) == 0
    }

    /// Mounts `folder` onto itself, read-only.
    static func bindReadOnly(_ folder: String) -> Bool {
        mount(folder, folder, nil, UInt(MS_BIND), nil) == 0
            && mount("none", folder, nil, UInt(MS_REMOUNT) | UInt(MS_BIND) | UInt(MS_RDONLY), nil) == 0
    }

    /// Unmounts what is mounted on `path` and below it, lazily (a process with a file open there
    /// does not keep it mounted).
    static func detach(_ path: String) { _ = umount2(path, Int32(MNT_DETACH)) }

    /// Whether this process may mount a tmpfs (root, with the capability to mount).
    static let works: Bool = {
        guard getuid() == 0, let scratch = try? E2E.scratch() else { return false }
        defer { E2E.remove(scratch) }
        guard let disk = SmallDisk(in: scratch, size: "64k") else { return false }
        detach(disk.path)
        return true
    }()
}
