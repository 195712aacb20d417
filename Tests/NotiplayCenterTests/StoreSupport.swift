// Scratch stores, a clock the tests move, and sample notifications for the store's tests.
import Foundation
import NotiplayCenter
import NotiplayTestSupport
import Synchronization

/// A scratch folder for one test, removed when the test is done (whatever happened in it).
func withScratchFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = try TestMedia.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder.path)
}

/// An async form of ``withScratchFolder(_:)``.
func withScratchFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = try TestMedia.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder.path)
}

/// The store's clock in tests: it reads a date that moves only when the test moves it.
final class TestDates: Sendable {
    private let date: Mutex<Date>

    /// A clock at `start` (a fixed date with a fraction, to show dates round-trip exactly).
    init(start: Date = Date(timeIntervalSince1970: 1_795_000_000.123_456)) {
        date = Mutex(start)
    }

    /// The date now.
    var current: Date { date.withLock { $0 } }

    /// The closure the store reads the date from.
    var now: @Sendable () -> Date { { [self] in current } }

    /// Moves the date on by `duration`.
    func advance(by duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        date.withLock { $0 += seconds }
    }
}

extension IncomingNotification {
    /// A delivered notification with a small payload naming `identifier`.
    static func sample(
        _ identifier: String, sender: String? = nil, delivery: Delivery = .now, attachments: [IncomingAttachment] = []
    ) -> IncomingNotification {
        IncomingNotification(
            identifier: identifier, app: "Kitchen",
            payload: #"{"aps":{"alert":{"title":"Lunch","body":"\#(identifier)"}}}"#,
            attachments: attachments, sender: sender, delivery: delivery)
    }
}

/// `count` bytes of a pattern that starts with `seed`, so different seeds give different content.
func sampleBytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

/// The names in `folder`, sorted (empty when it cannot be read).
func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The permission bits of `path` (following links), or `nil` when it is missing.
func permissionBits(_ path: String) -> Int? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
    return attributes[.posixPermissions] as? Int
}

/// A small audio attachment whose bytes `seed` sets.
func sampleAudio(_ name: String, seed: UInt8) -> IncomingAttachment {
    IncomingAttachment(name: name, kind: "public.audio", bytes: sampleBytes(300, seed: seed))
}
