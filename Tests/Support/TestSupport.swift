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

/// The length of a RIFF/WAVE file, read from its chunks (libmpv's `pcm` output writes
/// WAVE_FORMAT_EXTENSIBLE, which simple readers refuse).
public struct WAVLength: Equatable, CustomStringConvertible {
    /// Sample frames in the data chunk.
    public var frames: Int
    /// Frames per second.
    public var rate: Int
    /// Seconds of audio.
    public var seconds: Double { Double(frames) / Double(rate) }

    public var description: String { "\(frames) frames at \(rate) Hz (\(seconds) s)" }

    /// Reads the WAV file at `path`.
    public init(path: String) throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 }
        guard data.count >= 12, data[0..<4].elementsEqual("RIFF".utf8), data[8..<12].elementsEqual("WAVE".utf8) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var offset = 12
        var rate = 0
        var align = 0
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                rate = u32(offset + 12)
                align = u16(offset + 20)
            } else if id == "data" {
                guard rate > 0, align > 0 else { break }
                let bytes = min(size, data.count - offset - 8)
                self.frames = bytes / align
                self.rate = rate
                return
            }
            offset += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
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
