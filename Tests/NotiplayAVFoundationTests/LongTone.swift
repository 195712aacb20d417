import NotiplayPlayback
import NotiplayTestSupport

/// A 30 s, 8 kHz, 16-bit mono tone: on real-time output it plays on through any one test.
enum LongTone {
    static let seconds = TestMedia.longToneSeconds

    /// The file's path (written once per test process).
    static func path() throws -> String { try TestMedia.longTone() }
}

extension PlaybackEvent.Kind {
    /// The position a `started`, `paused` or `position` event tells.
    var position: Double? {
        switch self {
        case .started(let p), .paused(let p), .position(let p): p
        default: nil
        }
    }

    /// The duration a `loaded` event tells.
    var loadedDuration: Double? {
        if case .loaded(let duration) = self { duration } else { nil }
    }
}
