import Foundation
import NotiplayDBus
import NotiplaySystem
import NotiplayTestSupport
@preconcurrency import Glibc  // SIGTERM
import Testing

/// A message bus of a test's own: `dbus-daemon` as a child process, listening in a scratch folder,
/// with a configuration that lets anyone own any name and starts no service (so nothing of the
/// machine's, such as a notification daemon, is ever activated on it), and the limits of a
/// session bus (the daemon's own defaults allow a connection only 128 calls awaiting replies).
final class PrivateBus: Sendable {
    /// The bus's address, for a connection or for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    private let daemon: TestChild
    private let folder: URL

    private init(address: String, daemon: TestChild, folder: URL) {
        self.address = address
        self.daemon = daemon
        self.folder = folder
    }

    /// Starts a bus and returns once it printed its address (it listens from then on).
    static func start() async throws -> PrivateBus {
        let folder = try TestMedia.scratch()
        let configuration = folder.appendingPathComponent("bus.conf")
        try TestBusConfiguration.text(listeningIn: folder.path).write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = await TestChild.start(
            "/usr/bin/dbus-daemon", ["--config-file=\(configuration.path)", "--print-address", "--nofork"])
        // Signal 0 is kill(2)'s null signal: nothing is sent, the wait is for the line.
        let printed = await daemon.signal(0, whenStdout: { $0.contains(UInt8(ascii: "\n")) }, timeout: 30)
        let address = String(decoding: daemon.standardOutput, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard printed != nil, !address.isEmpty else {
            daemon.stop()
            try? FileManager.default.removeItem(at: folder)
            let errors = String(decoding: daemon.standardError, as: UTF8.self)
            throw BusNotStarted(reason: "dbus-daemon printed no address: \(errors)")
        }
        return PrivateBus(address: address, daemon: daemon, folder: folder)
    }

    /// The environment of a client program on this bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Ends the bus (every connection on it is disconnected) and removes its folder.
    func stop() async {
        daemon.signal(SIGTERM)
        if await daemon.wait(seconds: 30) == nil { daemon.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}

struct BusNotStarted: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// Runs `body` with a bus of its own, stopped afterwards whatever happens.
func withPrivateBus<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
    let bus = try await PrivateBus.start()
    do {
        let result = try await body(bus)
        await bus.stop()
        return result
    } catch {
        await bus.stop()
        throw error
    }
}

/// What a client program run to its end printed, and how it ended.
struct ClientRun: Sendable {
    let termination: TestChild.Termination?
    let output: String
    let errors: String

    /// It exited with status 0.
    var succeeded: Bool { termination == .exited(0) }
}

extension PrivateBus {
    /// Runs `program` (a path) with `arguments` on this bus, to its end (killed after 30 s).
    func run(_ program: String, _ arguments: [String]) async -> ClientRun {
        let child = await TestChild.start(program, arguments, environment: environment)
        return await finish(child)
    }

    /// Starts `program` on this bus, for a test that acts while it runs.
    func start(_ program: String, _ arguments: [String]) async -> TestChild {
        await TestChild.start(program, arguments, environment: environment)
    }

    /// Waits for `child` to end (killed after 30 s) and says what it printed.
    func finish(_ child: TestChild) async -> ClientRun {
        let termination = await child.wait(seconds: 30)
        return ClientRun(
            termination: termination, output: String(decoding: child.standardOutput, as: UTF8.self),
            errors: String(decoding: child.standardError, as: UTF8.self))
    }

    /// `gdbus call` to the notification server's object, on this bus.
    func gdbusCall(_ method: String, _ arguments: [String] = []) async -> ClientRun {
        await run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.\(method)",
            ] + arguments)
    }
}

/// Runs blocking `work` (a ``DBusClient``'s calls) on a thread of its own, so that it holds none
/// of the few threads the tests' tasks run on.
func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        do {
            try SystemThread.detach(name: "test client") {
                continuation.resume(with: Result { try work() })
            }
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
