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
            let path = try scratch().appendingPathComponent("tone-30s.wav").path
            try writeTone(to: path, seconds: longToneSeconds, sampleRate: 8_000, channels: 1)
            made = path
            return path
        }
    }

    /// Writes a 16-bit integer PCM WAV file of a 440 Hz tone, the same on every channel.
    public static func writeTone(to path: String, seconds: Double, sampleRate rate: Int, channels: Int) throws {
        let frames = Int((Double(rate) * seconds).rounded())
        let frameBytes = 2 * channels
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + frames * frameBytes)
        func le(_ value: Int, _ count: Int) {
            for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
        }
        bytes += Array("RIFF".utf8)
        le(36 + frames * frameBytes, 4)
        bytes += Array("WAVEfmt ".utf8)
        le(16, 4)
        le(1, 2)  // integer PCM
        le(channels, 2)
        le(rate, 4)
        le(rate * frameBytes, 4)
        le(frameBytes, 2)
        le(16, 2)
        bytes += Array("data".utf8)
        le(frames * frameBytes, 4)
        for i in 0..<frames {
            let sample = Int((sin(2 * Double.pi * 440 * Double(i) / Double(rate)) * 8_000).rounded())
            for _ in 0..<channels { le(sample, 2) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
