import Foundation

/// Sample files and scratch folders for tests.
public enum TestMedia {
    /// The package's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `Media/NAME`.
    public static func path(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// A new empty folder under the temporary directory.
    public static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether this machine has a sound card (tests of the silent fallback need none).
    public static var hasSoundDevice: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).contains { $0.hasPrefix("pcm") }
    }
}

/// Thrown by ``withTimeout(_:_:)`` when the work did not finish in time.
public struct TimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s" }
}

/// Runs `work`, failing with ``TimedOut`` if it takes longer than `seconds`.
///
/// The sleep here is a guard against a hang, not a stand-in for an event: `work` waits on events.
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(seconds: seconds)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
