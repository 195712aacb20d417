/// An audio container and codec notiplay accepts, recognised from a file's first bytes.
///
/// The iOS set (WAV, AIFF, MP3, M4A/AAC) plus Ogg Vorbis, Opus and FLAC.
public enum AudioFormat: String, Sendable, CaseIterable, Codable {
    /// RIFF/WAVE.
    case wav
    /// AIFF or AIFF-C.
    case aiff
    /// MPEG audio layer III, with or without an ID3v2 tag.
    case mp3
    /// Raw AAC in ADTS frames.
    case aac
    /// An MP4/ISO-BMFF file (`.m4a`, `.mp4`, `.caf`-free): AAC or ALAC audio.
    case m4a
    /// Vorbis in Ogg.
    case vorbis
    /// Opus in Ogg.
    case opus
    /// FLAC, native or in Ogg.
    case flac

    /// Recognises the format from the first bytes of a file.
    ///
    /// - Parameter header: The file's first bytes; 64 are enough for every format but MP3
    ///   behind an ID3v2 tag, for which ``AudioFormat/id3TagLength(_:)`` tells where to look next.
    /// - Returns: The format, or `nil` if the bytes are not one notiplay plays.
    public static func sniff(_ header: [UInt8]) -> AudioFormat? {
        func ascii(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard header.count >= offset + bytes.count else { return false }
            return Array(header[offset..<offset + bytes.count]) == bytes
        }
        if ascii(0, "RIFF"), ascii(8, "WAVE") { return .wav }
        if ascii(0, "RF64"), ascii(8, "WAVE") { return .wav }
        if ascii(0, "FORM"), ascii(8, "AIFF") || ascii(8, "AIFC") { return .aiff }
        if ascii(0, "fLaC") { return .flac }
        if ascii(0, "OggS") {
            // The first page's first packet names the codec; 27 header bytes + segment table.
            guard header.count > 27 else { return nil }
            let start = 27 + Int(header[26])
            if ascii(start, "\u{01}vorbis") { return .vorbis }
            if ascii(start, "OpusHead") { return .opus }
            if ascii(start, "\u{7F}FLAC") { return .flac }
            return nil
        }
        if ascii(4, "ftyp") { return .m4a }
        if header.count >= 4 {
            if isMPEGAudioFrame(header[0], header[1], header[2]) { return .mp3 }
            if isADTSFrame(header[0], header[1], header[2]) { return .aac }
        }
        return nil
    }

    /// The length of an ID3v2 tag at the start of `header` (its 10-byte header included), or
    /// `nil` if there is no well-formed tag. MP3 frames follow the tag.
    public static func id3TagLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33,
            (2...4).contains(header[3]), header[4] != 0xFF,
            header[6] < 0x80, header[7] < 0x80, header[8] < 0x80, header[9] < 0x80
        else { return nil }
        let size = Int(header[6]) << 21 | Int(header[7]) << 14 | Int(header[8]) << 7 | Int(header[9])
        let footer = header[5] & 0x10 != 0 ? 10 : 0
        return 10 + size + footer
    }

    /// An MPEG-1/2/2.5 layer III frame header with a valid bitrate and sample rate.
    static func isMPEGAudioFrame(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return false }
        let version = (b1 >> 3) & 0x3  // 01 is reserved
        let layer = (b1 >> 1) & 0x3  // 01 is layer III
        let bitrate = b2 >> 4
        let rate = (b2 >> 2) & 0x3
        return version != 1 && layer == 1 && bitrate != 0 && bitrate != 0xF && rate != 3
    }

    /// An ADTS (raw AAC) frame header.
    static func isADTSFrame(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        guard b0 == 0xFF, b1 & 0xF6 == 0xF0 else { return false }
        let rateIndex = (b2 >> 2) & 0xF
        return rateIndex < 13
    }
}
