import Foundation
import Synchronization

extension TestMedia {
    /// How long ``longTone()`` is, in seconds.
    public static let longToneSeconds = 30.0

    private static let longTonePath = Mutex<String?>(nil)

    /// A 30 s, 8 kHz, 16-bit mono 440 Hz tone, written once per test process: on real-time output
    /// it plays on through any one test.
    public static func longTone() throws -> String {
        try longTonePath.withLock { made in
            if let made { return made }
            let rate = 8_000
            let frames = rate * Int(longToneSeconds)
            var bytes: [UInt8] = []
            func le(_ value: Int, _ count: Int) {
                for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
            }
            bytes += Array("RIFF".utf8)
            le(36 + frames * 2, 4)
            bytes += Array("WAVEfmt ".utf8)
            le(16, 4)
            le(1, 2)  // integer PCM
            le(1, 2)  // mono
            le(rate, 4)
            le(rate * 2, 4)
            le(2, 2)
            le(16, 2)
            bytes += Array("data".utf8)
            le(frames * 2, 4)
            for i in 0..<frames {
                le(Int((sin(2 * Double.pi * 440 * Double(i) / Double(rate)) * 8_000).rounded()), 2)
            }
            let path = try scratch().appendingPathComponent("tone-30s.wav").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            made = path
            return path
        }
    }
}
