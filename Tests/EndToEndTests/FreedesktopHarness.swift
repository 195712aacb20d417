import Foundation
import NotiplayTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The programs the freedesktop tests need besides `notiplay`, found on `PATH`: a bus
/// (`dbus-daemon`, package dbus) and two real clients (`notify-send` from libnotify-bin, `gdbus`
/// from libglib2.0-bin). `Scripts/ensure-deps.sh` installs them.
enum FreedesktopTools {
    static let dbusDaemon = E2E.which("dbus-daemon")
    static let notifySend = E2E.which("notify-send")
    static let gdbus = E2E.which("gdbus")
    /// From dbus-bin, installed with dbus: the one client here that sends arguments of any type
    /// (`gdbus call` checks them against the server's introspection data before sending).
    static let dbusSend = E2E.which("dbus-send")
    /// All three of the required programs are there.
    static let present = dbusDaemon != nil && notifySend != nil && gdbus != nil

    static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
}

/// A message bus of the test's own: `dbus-daemon --nofork --print-address` with a configuration
/// written here (a session bus listening in the test's folder, anyone may own any name, no
/// service is ever activated), ended with the test.
final class TestBus: Sendable {
    /// The address for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    private let daemon: ChildProcess

    private init(address: String, daemon: ChildProcess) {
        self.address = address
        self.daemon = daemon
    }

    /// Starts a bus listening in `folder`; returns once it printed its address.
    static func start(in folder: URL) async throws -> TestBus {
        let daemonPath = try #require(FreedesktopTools.dbusDaemon, "dbus-daemon is not installed")
        let configuration = folder.appendingPathComponent("bus.conf")
        try TestBusConfiguration.text(listeningIn: folder.path).write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = ChildProcess(daemonPath, ["--config-file=\(configuration.path)", "--nofork", "--print-address"])
        try await daemon.start()
        // Signal 0 sends nothing: this waits for the address's line.
        let printed = await daemon.send(0, whenStdout: { $0.contains(UInt8(ascii: "\n")) }, timeout: 30)
        let address = String(decoding: daemon.stdoutSoFar, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard printed != nil, !address.isEmpty else {
            daemon.send(SIGKILL)
            let ended = try? await daemon.finish(timeout: 30)
            throw ChildNotStarted(command: daemon.command, reason: "dbus-daemon printed no address: \(ended?.description ?? "")")
        }
        return TestBus(address: address, daemon: daemon)
    }

    /// Ends the bus: every connection on it is dropped.
    func stop() async {
        daemon.send(SIGTERM)
        _ = try? await daemon.finish(timeout: 30)
    }
}

/// One test's world: a folder `/tmp/npe-XXXXXXXX` (short: the center's socket path must fit in
/// 107 bytes) holding the XDG folders, a bus of its own, a FIFO the headless server reads its
/// keys from, and every long-running child the test started, all ended by ``tearDown()``.
final class FreedesktopFixture: Sendable {
    let root: URL
    let bus: TestBus
    /// The environment of the server and of every client: the XDG folders and the bus.
    let environment: [String: String]
    private let keysPath: String
    /// Held open for reading and writing, so the server's open never waits and its end never comes.
    private let keys: Int32
    private let children = Mutex<[ChildProcess]>([])

    private init(root: URL, bus: TestBus, environment: [String: String], keysPath: String, keys: Int32) {
        self.root = root
        self.bus = bus
        self.environment = environment
        self.keysPath = keysPath
        self.keys = keys
    }

    /// A new folder, bus and environment; no server yet.
    static func make() async throws -> FreedesktopFixture {
        let root = URL(fileURLWithPath: "/tmp/npe-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        do {
            let bus = try await TestBus.start(in: root)
            let keysPath = root.appendingPathComponent("keys").path
            guard mkfifo(keysPath, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            let keys = open(keysPath, O_RDWR | O_CLOEXEC)
            guard keys >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var environment = E2E.childEnvironment
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            for (key, value) in try Self.folders(in: root, prefix: "") { environment[key] = value }
            return FreedesktopFixture(root: root, bus: bus, environment: environment, keysPath: keysPath, keys: keys)
        } catch {
            E2E.remove(root)
            throw error
        }
    }

    /// The XDG folders of one server under `root` (a second server gets a `prefix` of its own).
    private static func folders(in root: URL, prefix: String) throws -> [String: String] {
        var folders: [String: String] = [:]
        for (key, name) in [
            ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_DATA_DIRS", "share"),
            ("XDG_RUNTIME_DIR", "run"),
        ] {
            let path = root.appendingPathComponent(prefix + name).path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            folders[key] = path
        }
        chmod(folders["XDG_RUNTIME_DIR"]!, 0o700)
        return folders
    }

    /// The environment of another server on the same bus, with XDG folders of its own.
    func otherServerEnvironment(_ prefix: String) throws -> [String: String] {
        var environment = environment
        for (key, value) in try Self.folders(in: root, prefix: prefix + "-") { environment[key] = value }
        return environment
    }

    /// Keeps `child` to be killed by ``tearDown()`` if the test does not end it.
    @discardableResult
    func track(_ child: ChildProcess) -> ChildProcess {
        children.withLock { $0.append(child) }
        return child
    }

    /// `--expire 0`: a card that leaves expire_timeout to the server stays until dismissed, so that
    /// no verdict depends on how fast a loaded machine gets to its next step (the default, 10 s,
    /// is tested on its own with a short `--expire`).
    static let noExpiry = ["--expire", "0"]

    /// Starts `notiplay serve --headless --events jsonl --freedesktop [--expire 0] ARGUMENTS`, reading keys from
    /// the fixture's FIFO (or `/dev/null` when `keys` is false); with `mergingErrors` its standard
    /// error goes to its standard output too. Returns once it showed its first card (the bus name
    /// is taken before that).
    func startServer(
        _ arguments: [String] = ["--audio", "null"], environment: [String: String]? = nil, keys: Bool = true,
        mergingErrors: Bool = false
    ) async throws -> ChildProcess {
        let script = "input=$1; shift; exec \"$0\" \"$@\" < \"$input\"" + (mergingErrors ? " 2>&1" : "")
        let server = track(ChildProcess(
            "/bin/sh",
            ["-c", script, try E2E.binary(), keys ? keysPath : "/dev/null", "serve", "--headless", "--events", "jsonl", "--freedesktop"]
                + (arguments.contains("--expire") ? [] : Self.noExpiry) + arguments, environment: environment ?? self.environment))
        try await Self.untilStarted(server)
        return server
    }

    /// Starts `server` and returns once it showed its first card (the empty deck, or a
    /// notification restored from the store); kills it and fails the test if it never does.
    static func untilStarted(_ server: ChildProcess) async throws {
        try await server.start()
        if await !server.until(["\"event\":\"shown\""]) {
            server.send(SIGKILL)
            let ended = try? await server.finish(timeout: 30)
            try #require(Bool(false), "the server did not start: \(ended?.description ?? server.stdoutText)")
        }
    }

    /// Stops `server` with SIGTERM and says how it ended.
    func stop(_ server: ChildProcess) async throws -> RunResult {
        server.send(SIGTERM)
        return try await server.finish(timeout: 30)
    }

    /// Types `line` (a key script: `2`, `esc`, `space ~end`) on the server's standard input.
    func type(_ line: String) {
        let text = line + "\n"
        _ = text.utf8CString.withUnsafeBufferPointer { write(keys, $0.baseAddress, text.utf8.count) }
    }

    /// Kills every child still running, ends the bus, removes the folder.
    func tearDown() async {
        for child in children.withLock({ $0 }) where child.endedAt == nil {
            child.send(SIGKILL)
            _ = try? await child.finish(timeout: 30)
        }
        await bus.stop()
        close(keys)
        E2E.remove(root)
    }
}

// MARK: Clients

extension FreedesktopFixture {
    /// `notify-send ARGUMENTS` to its end.
    func notifySend(_ arguments: String...) async throws -> RunResult {
        try await run(try #require(FreedesktopTools.notifySend), arguments, environment: environment)
    }

    /// Starts `notify-send ARGUMENTS` (`--wait`: it runs until the notification is closed).
    func startNotifySend(_ arguments: String...) async throws -> ChildProcess {
        let child = track(ChildProcess(try #require(FreedesktopTools.notifySend), arguments, environment: environment))
        try await child.start()
        return child
    }

    /// `gdbus call` of `org.freedesktop.Notifications.METHOD ARGUMENTS` (GVariant text) to its end.
    func gdbusCall(_ method: String, _ arguments: String...) async throws -> RunResult {
        try await run(
            try #require(FreedesktopTools.gdbus),
            ["call", "--session", "--dest", FreedesktopTools.busName, "--object-path", FreedesktopTools.objectPath,
             "--method", "\(FreedesktopTools.busName).\(method)", "--"] + arguments, environment: environment)
    }

    /// `gdbus call … GetServerInformation`: whether the server still answers.
    func serverAnswers() async throws -> Bool {
        let answer = try await gdbusCall("GetServerInformation")
        return answer.status == 0 && answer.stdoutText.hasPrefix("('notiplay', ")
    }

    /// `notiplay ARGUMENTS` with the fixture's environment.
    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    /// The identifiers `notiplay list --json` lists, with their titles.
    func listed() async throws -> [String: String] {
        let list = try await notiplay("list", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]], "\(list)")
        return Dictionary(rows.map { ($0["identifier"] as? String ?? "", $0["title"] as? String ?? "") }, uniquingKeysWith: { $1 })
    }

    /// Starts `gdbus monitor` on the server's name; returns once it watches (it printed the
    /// name's owner, which it asks for after subscribing to the signals).
    func monitor() async throws -> ChildProcess {
        let monitor = track(ChildProcess(
            try #require(FreedesktopTools.gdbus), ["monitor", "--session", "--dest", FreedesktopTools.busName],
            environment: environment))
        try await monitor.start()
        try #require(await monitor.until(["is owned by"]), "gdbus monitor did not start: \(monitor.stdoutText)")
        return monitor
    }
}

/// `gdbus monitor`'s line for a signal: `/org/freedesktop/Notifications:
/// org.freedesktop.Notifications.NotificationClosed (uint32 2, uint32 3)`.
func signalLine(_ member: String, _ arguments: String) -> String {
    "\(FreedesktopTools.objectPath): \(FreedesktopTools.busName).\(member) (\(arguments))"
}

/// `NotificationClosed (uint32 ID, uint32 REASON)` as `gdbus monitor` prints it.
func closedLine(_ id: Int, _ reason: Int) -> String {
    signalLine("NotificationClosed", "uint32 \(id), uint32 \(reason)")
}

/// Runs `body` with a fixture and its server (started with `arguments`); stops the server
/// (SIGTERM: it ends with 143) unless `body` did, and tears everything down, whatever happens.
func withFreedesktop(
    _ arguments: [String] = ["--audio", "null"], _ body: (FreedesktopFixture, ChildProcess) async throws -> Void
) async throws {
    try await withFreedesktop({ _ in arguments }, body)
}

/// ``withFreedesktop(_:_:)`` with the server's arguments made from the fixture (its folder).
func withFreedesktop(
    _ arguments: (FreedesktopFixture) -> [String], _ body: (FreedesktopFixture, ChildProcess) async throws -> Void
) async throws {
    try await withFreedesktopFixture { fixture in
        let server = try await fixture.startServer(arguments(fixture))
        try await body(fixture, server)
        if server.endedAt == nil {
            let ended = try await fixture.stop(server)
            #expect(ended.status == 128 + SIGTERM, "\(ended)")
        }
    }
}

/// Runs `body` with a fixture and no server; tears it down whatever happens.
func withFreedesktopFixture(_ body: (FreedesktopFixture) async throws -> Void) async throws {
    let fixture = try await FreedesktopFixture.make()
    do {
        try await body(fixture)
    } catch {
        await fixture.tearDown()
        throw error
    }
    await fixture.tearDown()
}

extension ChildProcess {
    /// Standard output so far, as text.
    var stdoutText: String { String(decoding: stdoutSoFar, as: UTF8.self) }

    /// The complete lines of standard output so far that contain every one of `texts`.
    func lines(containing texts: [String]) -> [Substring] {
        Self.lines(of: stdoutSoFar, containing: texts)
    }

    static func lines(of output: Data, containing texts: [String]) -> [Substring] {
        var lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // Empty, or a line not complete yet.
        return lines.filter { line in texts.allSatisfy { line.contains($0) } }
    }

    /// Waits (30 s at most) until `count` complete lines of standard output each contain every one
    /// of `texts` (an event: `"event":"shown"`, `"identifier":"freedesktop-1"`); false if they did
    /// not come before the process ended or the time passed.
    func until(_ texts: [String], count: Int = 1, timeout: Double = 30) async -> Bool {
        await send(0, whenStdout: { Self.lines(of: $0, containing: texts).count >= count }, timeout: timeout) != nil
    }

    /// Waits for the event line `"event":"EVENT"` with `"identifier":"freedesktop-ID"`.
    func untilEvent(_ event: String, id: Int, _ more: String..., count: Int = 1) async -> Bool {
        await until(["\"event\":\"\(event)\"", "\"identifier\":\"freedesktop-\(id)\""] + more, count: count)
    }
}

/// The start of `ActivationToken (uint32 ID, 'TOKEN')` as `gdbus monitor` prints it: up to the
/// token's opening quote.
func tokenPrefix(_ id: Int) -> String {
    "\(FreedesktopTools.objectPath): \(FreedesktopTools.busName).ActivationToken (uint32 \(id), 'notiplay-\(id)-"
}
