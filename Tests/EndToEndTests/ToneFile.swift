import Foundation

extension E2E {
    /// Writes `name` into `folder`: `seconds` of a quiet 440 Hz tone (8 kHz, mono, 16-bit PCM
    /// WAV). Long enough that a test acting on it while it plays in real time never races its end:
    /// the end is then as far away as a hang guard.
    static func tone(seconds: Int, named name: String = "long-tone.wav", in folder: URL) throws -> String {
        let rate = 8_000
        let frames = seconds * rate
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + 2 * frames)
        func le(_ value: Int, _ count: Int) {
            for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
        }
        bytes += Array("RIFF".utf8)
        le(36 + 2 * frames, 4)
        bytes += Array("WAVEfmt ".utf8)
        le(16, 4)
        le(1, 2)  // PCM
        le(1, 2)  // mono
        le(rate, 4)
        le(2 * rate, 4)
        le(2, 2)
        le(16, 2)
        bytes += Array("data".utf8)
        le(2 * frames, 4)
        for frame in 0..<frames {
            le(Int((3_000 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate))).rounded()), 2)
        }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
