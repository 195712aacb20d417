#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WAV file libmpv's `pcm` output wrote: its format and how many seconds of audio it holds.
public struct CapturedAudio: Sendable {
    /// Frames a second.
    public var sampleRate: Int
    /// Bytes a frame (all channels).
    public var frameSize: Int
    /// Frames of audio.
    public var frames: Int

    /// The seconds of audio.
    public var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// What is wrong with a capture.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Reads the WAV file at `path`. A data chunk whose size was never written (the output did
    /// not close) counts up to the end of the file.
    public init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func le(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            var value = 0
            for k in 0..<count { value |= Int(bytes[at + k]) << (8 * k) }
            return value
        }
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8)
        else { throw Malformed(description: "\(path) is not a RIFF/WAVE file") }
        var position = 12
        var rate: Int?
        var align: Int?
        while position + 8 <= bytes.count, let size = le(position + 4, 4) {
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            if id == "fmt " {
                rate = le(position + 12, 4)
                align = le(position + 20, 2)
            } else if id == "data" {
                guard let rate, let align, align > 0 else { throw Malformed(description: "\(path): data before fmt") }
                let available = bytes.count - position - 8
                let length = size == 0 || size > available ? available : size
                sampleRate = rate
                frameSize = align
                frames = length / align
                return
            }
            position += 8 + size + (size & 1)
        }
        throw Malformed(description: "\(path) has no fmt and data chunks")
    }
}
