import Foundation  // log10

/// A coarse loudness curve of a WAV file: the RMS of its samples over consecutive windows, all
/// channels together, from 0 (silence) to 1 (a full-scale square wave).
///
/// Reads RIFF/WAVE with integer PCM (8, 16, 24 or 32 bits), IEEE float (32 or 64 bits), and
/// `WAVE_FORMAT_EXTENSIBLE` holding either. Every size in the file is checked against the bytes
/// really there: a header claiming more data than the file has is read as far as the file goes.
struct LevelEnvelope: Sendable, Equatable {
    /// The RMS of each window, in order.
    let levels: [Double]
    /// Each window's length, in seconds.
    let window: Double
    /// The audio's length, in seconds.
    let duration: Double

    /// Why a file has no envelope.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The envelope of `bytes`, a whole WAV file, in windows of about `window` seconds.
    static func decode(_ bytes: [UInt8], window: Double = 0.05) throws(Failure) -> LevelEnvelope {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw Failure(description: "not a WAV file")
        }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var data: Range<Int>?
        var position = 12
        while position + 8 <= bytes.count, data == nil {
            let size = u32(position + 4)
            let body = position + 8
            let end = body + min(size, bytes.count - body)
            if bytes[position..<(position + 4)].elementsEqual("fmt ".utf8) {
                guard end - body >= 16 else { throw Failure(description: "its fmt chunk is too short") }
                var tag = u16(body)
                if tag == 0xFFFE, end - body >= 26 { tag = u16(body + 24) }  // the sub-format GUID's first bytes
                format = (tag, u16(body + 2), u32(body + 4), u16(body + 14))
            } else if bytes[position..<(position + 4)].elementsEqual("data".utf8) {
                data = body..<end
            }
            position = body + size + (size & 1)
            if position < body { break }  // a size that wrapped around
        }
        guard let format else { throw Failure(description: "it has no fmt chunk") }
        guard let data else { throw Failure(description: "it has no data chunk") }
        guard (1...32).contains(format.channels) else { throw Failure(description: "it claims \(format.channels) channels") }
        guard (1...1_536_000).contains(format.rate) else { throw Failure(description: "it claims \(format.rate) samples a second") }
        let read: (Int) -> Double
        switch (format.tag, format.bits) {
        case (1, 8): read = { (Double(bytes[$0]) - 128) / 128 }
        case (1, 16): read = { Double(Int16(truncatingIfNeeded: u16($0))) / 32_768 }
        case (1, 24): read = { Double(Int32(truncatingIfNeeded: u16($0) << 8 | Int(bytes[$0 + 2]) << 24) >> 8) / 8_388_608 }
        case (1, 32): read = { Double(Int32(truncatingIfNeeded: u32($0))) / 2_147_483_648 }
        case (3, 32): read = { Double(Float(bitPattern: UInt32(truncatingIfNeeded: u32($0)))) }
        case (3, 64):
            read = { Double(bitPattern: UInt64(truncatingIfNeeded: u32($0)) | UInt64(truncatingIfNeeded: u32($0 + 4)) << 32) }
        default:
            throw Failure(description: "its samples are in format \(format.tag) with \(format.bits) bits, which is not PCM")
        }
        let sampleBytes = format.bits / 8
        let frameBytes = sampleBytes * format.channels
        let frames = data.count / frameBytes
        let framesPerWindow = max(1, Int((window * Double(format.rate)).rounded()))
        var levels: [Double] = []
        levels.reserveCapacity(frames / framesPerWindow + 1)
        var frame = 0
        while frame < frames {
            let count = min(framesPerWindow, frames - frame)
            var sum = 0.0
            var offset = data.lowerBound + frame * frameBytes
            for _ in 0..<(count * format.channels) {
                let sample = read(offset)
                // NaN and infinities in float files count as silence; loud values are clipped.
                let clipped = sample.isFinite ? min(1, max(-1, sample)) : 0
                sum += clipped * clipped
                offset += sampleBytes
            }
            levels.append((sum / Double(count * format.channels)).squareRoot())
            frame += count
        }
        return LevelEnvelope(
            levels: levels, window: Double(framesPerWindow) / Double(format.rate),
            duration: Double(frames) / Double(format.rate))
    }

    /// The level of the window playing at `seconds` (0 before the start and after the end).
    func level(at seconds: Double) -> Double {
        guard seconds.isFinite, seconds >= 0, window > 0 else { return 0 }
        let index = Int(seconds / window)
        return index < levels.count ? levels[index] : 0
    }

    /// The loudest window played between `start` and `end` seconds, both windows included (0
    /// outside the audio).
    func loudest(from start: Double, through end: Double) -> Double {
        guard start.isFinite, end.isFinite, window > 0, end >= start, end >= 0, !levels.isEmpty else { return 0 }
        let count = Double(levels.count)
        guard start / window < count else { return 0 }
        let first = Int(max(0, start) / window)
        let last = Int(min(count - 1, end / window))
        return levels[first...last].max() ?? 0
    }

    /// A level on the meter's scale, from 0 (−60 dBFS or quieter) to 1 (0 dBFS).
    static func meter(_ level: Double) -> Double {
        guard level > 0, level.isFinite else { return 0 }
        return min(1, max(0, (20 * log10(level) + 60) / 60))
    }

    /// `-12 dB` for a level, `-∞ dB` for silence.
    static func decibels(_ level: Double) -> String {
        guard level > 0, level.isFinite else { return "-∞ dB" }
        return "\(Int((20 * log10(level)).rounded())) dB"
    }
}
