// Hand-written, not a resource: SwiftPM resources need Foundation's Bundle, and these few lines replace a 35 KB binary file.
import Foundation  // sin and exp
package import NotiplayCore
import NotiplaySystem
import SystemPackage

/// notiplay's own default arrival sound, for systems without the freedesktop sound theme: a short
/// chime of two soft sine tones (A5, then E6 a fifth above, overlapping), each with a gentle
/// attack, a decay and a fade to silence; 0.4 s of 16-bit mono PCM at 44.1 kHz, in a WAV file.
package enum BundledChime {
    /// The file's name in the folder it is installed in.
    package static let fileName = "notiplay-default-sound.wav"
    /// Its sample rate, in hertz.
    package static let sampleRate = 44_100
    /// Its length in frames (0.4 s).
    package static let frameCount = 17_640

    /// The whole WAV file, the same bytes every time.
    package static let bytes: [UInt8] = wavFile(samples: synthesize())

    /// Writes the chime into `folder` once and returns its path: a file already there with the
    /// right bytes is reused; anything else there is replaced, atomically (a temporary file
    /// renamed over it), so a reader never sees half a file.
    /// - Throws: ``NotiplayError`` (`.unavailable`) naming the folder when it cannot be written.
    package static func install(in folder: String) throws(NotiplayError) -> String {
        let path = Path.join(folder, fileName)
        if holdsChime(path) { return path }
        let temporary = Path.join(folder, ".\(fileName).tmp-\(UInt64.random(in: .min ... .max))")
        do throws(SystemCallError) {
            let file = try Posix.open(
                temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
            do throws(SystemCallError) {
                try Posix.writeAll(file, bytes)
                try Posix.synchronize(file)
            } catch {
                Posix.close(file)
                throw error
            }
            Posix.close(file)
            try Posix.rename(temporary, to: path)
        } catch {
            try? Posix.removeFile(temporary)
            throw NotiplayError(.unavailable, file: folder, "cannot write the default sound: \(error.reason.lowercased())")
        }
        return path
    }

    /// Whether `path` is a regular file holding exactly ``bytes``.
    private static func holdsChime(_ path: String) -> Bool {
        guard let status = try? Posix.status(of: path), status.type == .regular, status.size == Int64(bytes.count),
            let file = try? Posix.open(path, .readOnly, options: [.closeOnExec, .nonBlocking])
        else { return false }
        defer { Posix.close(file) }
        return (try? Posix.read(file, count: bytes.count + 1, at: 0)) == bytes
    }

    // MARK: Synthesis

    /// One tone of the chime: its pitch, when it starts and ends (seconds), and its peak level.
    private struct Tone {
        var frequency: Double
        var start: Double
        var end: Double
        var level: Double

        /// Its sample at `time` seconds: a sine under an envelope that rises over 8 ms, decays,
        /// and fades linearly to exactly zero over its last 40 ms.
        func sample(at time: Double) -> Double {
            guard time >= start, time < end else { return 0 }
            let t = time - start
            let attack = min(1, t / 0.008)
            let decay = exp(-t / 0.12)
            let fade = min(1, (end - time) / 0.04)
            return level * attack * decay * fade * sin(2 * Double.pi * frequency * t)
        }
    }

    private static let tones = [
        Tone(frequency: 880, start: 0, end: 0.24, level: 0.32),
        Tone(frequency: 1318.51, start: 0.11, end: 0.4, level: 0.28),
    ]

    /// The chime's samples, full scale = 1 (their sum stays under 0.6).
    private static func synthesize() -> [Double] {
        (0..<frameCount).map { frame in
            let time = Double(frame) / Double(sampleRate)
            return tones.reduce(0) { $0 + $1.sample(at: time) }
        }
    }

    /// A canonical 44-byte-header WAV file of 16-bit mono PCM.
    private static func wavFile(samples: [Double]) -> [UInt8] {
        let dataSize = samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataSize)
        func tag(_ text: String) { out += Array(text.utf8) }
        func u16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16 & 0xFFFF) }
        tag("RIFF")
        u32(36 + dataSize)
        tag("WAVE")
        tag("fmt ")
        u32(16)  // the chunk's size
        u16(1)  // integer PCM
        u16(1)  // one channel
        u32(sampleRate)
        u32(sampleRate * 2)  // bytes a second
        u16(2)  // bytes a frame
        u16(16)  // bits a sample
        tag("data")
        u32(dataSize)
        for sample in samples {
            let value = Int16((min(1, max(-1, sample)) * 32_767).rounded())
            u16(Int(UInt16(bitPattern: value)))
        }
        return out
    }
}
