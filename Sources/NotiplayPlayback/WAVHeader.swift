/// The RIFF/WAVE header of the files a ``PacedCapture`` writes.
enum WAVHeader {
    /// The 44-byte header of 16-bit integer PCM with `dataBytes` of samples.
    static func bytes(dataBytes: Int, sampleRate: Int, channels: Int) -> [UInt8] {
        let data = UInt32(clamping: min(dataBytes, Int(UInt32.max) - 36))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func tag(_ text: String) { bytes += Array(text.utf8) }
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32) { bytes += (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        tag("RIFF"); u32(36 + data); tag("WAVE")
        tag("fmt "); u32(16); u16(1); u16(channels); u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * channels * 2)); u16(channels * 2); u16(16)
        tag("data"); u32(data)
        return bytes
    }
}
