import Foundation

/// A WAV file read by hand, chunk by chunk (RIFF/WAVE, `fmt ` and `data`), as libmpv's `ao=pcm`
/// writes it: WAVE_FORMAT_EXTENSIBLE (0xFFFE) with a PCM or IEEE-float sub-format GUID.
public struct WAVFile: CustomStringConvertible {
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The format tag, or the sub-format's tag when the tag is WAVE_FORMAT_EXTENSIBLE:
    /// 1 integer PCM, 3 IEEE float.
    public var encoding: UInt16
    /// The tag as written in `fmt ` (0xFFFE for extensible).
    public var formatTag: UInt16
    public var channels: Int
    public var sampleRate: Int
    public var blockAlign: Int
    public var bitsPerSample: Int
    /// The `data` chunk's size in bytes, as its header says.
    public var dataSize: Int
    /// The `data` chunk's bytes.
    public var samples: ArraySlice<UInt8>

    /// `dataSize / blockAlign`.
    public var frames: Int { dataSize / blockAlign }
    public var seconds: Double { Double(frames) / Double(sampleRate) }

    public var description: String { "\(frames) frames at \(sampleRate) Hz (\(seconds) s)" }

    public init(contentsOf path: String) throws {
        try self.init(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    public init(_ bytes: [UInt8]) throws {
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw Malformed(description: "no RIFF/WAVE header (\(bytes.count) bytes)")
        }
        let riffSize = u32(4)
        guard riffSize + 8 == bytes.count else {
            throw Malformed(description: "RIFF size \(riffSize) + 8 is not the file size \(bytes.count)")
        }
        var fmt: (tag: UInt16, encoding: UInt16, channels: Int, rate: Int, align: Int, bits: Int)?
        var data: Range<Int>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let size = u32(offset + 4)
            let body = offset + 8
            guard body + size <= bytes.count else {
                throw Malformed(description: "chunk '\(id)' of \(size) bytes runs past the end of the file")
            }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw Malformed(description: "fmt chunk of \(size) bytes") }
                let formatTag = u16(body)
                var encoding = formatTag
                if formatTag == 0xFFFE {
                    // WAVEFORMATEXTENSIBLE: cbSize (2), valid bits (2), channel mask (4), GUID (16)
                    guard size >= 40, u16(body + 16) >= 22 else {
                        throw Malformed(description: "extensible fmt chunk of \(size) bytes")
                    }
                    encoding = u16(body + 24)
                }
                fmt = (formatTag, encoding, Int(u16(body + 2)), u32(body + 4), Int(u16(body + 12)), Int(u16(body + 14)))
            case "data":
                data = body..<body + size
            default:
                break
            }
            offset = body + size + (size & 1)
        }
        guard let fmt else { throw Malformed(description: "no fmt chunk") }
        guard let data else { throw Malformed(description: "no data chunk") }
        guard fmt.channels > 0, fmt.rate > 0, fmt.bits > 0,
            fmt.align == fmt.channels * ((fmt.bits + 7) / 8)
        else {
            throw Malformed(description: "inconsistent fmt: \(fmt)")
        }
        guard data.count % fmt.align == 0 else {
            throw Malformed(description: "data size \(data.count) is not a multiple of the block align \(fmt.align)")
        }
        formatTag = fmt.tag
        encoding = fmt.encoding
        channels = fmt.channels
        sampleRate = fmt.rate
        blockAlign = fmt.align
        bitsPerSample = fmt.bits
        dataSize = data.count
        samples = bytes[data]
    }

    /// The largest absolute sample value, full scale = 1.
    public func peak() throws -> Double {
        let width = bitsPerSample / 8
        var peak = 0.0
        var i = samples.startIndex
        while i + width <= samples.endIndex {
            var raw: UInt64 = 0
            for k in 0..<width { raw |= UInt64(samples[i + k]) << (8 * UInt64(k)) }
            let value: Double
            switch (encoding, bitsPerSample) {
            case (1, 8): value = (Double(raw) - 128) / 128
            case (1, 16), (1, 24), (1, 32):
                let shift = UInt64(64 - bitsPerSample)
                value = Double(Int64(bitPattern: raw << shift) >> Int64(shift)) / Double(1 << (bitsPerSample - 1))
            case (3, 32): value = Double(Float(bitPattern: UInt32(raw)))
            case (3, 64): value = Double(bitPattern: raw)
            default: throw Malformed(description: "unsupported encoding \(encoding), \(bitsPerSample) bits")
            }
            peak = max(peak, abs(value))
            i += width
        }
        return peak
    }
}
