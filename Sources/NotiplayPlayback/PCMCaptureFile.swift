internal import NotiplaySystem
internal import SystemPackage

/// The WAV file of ``AudioOutput/pcm(path:)``: libmpv's `pcm` output writes it, and ignores
/// failed writes (a full disk, an I/O error), so it is checked after each file.
///
/// The file is opened and checked by ``CaptureFile/open(_:header:)`` when the engine starts, and
/// libmpv is given `/proc/self/fd/N`, this very file, not the path: a path swapped afterwards
/// cannot send the audio elsewhere. libmpv opens it anew (emptied) for each file and, when it
/// closes its output, writes in the header how many bytes of audio it rendered; a file holding
/// fewer lost some to failed writes.
final class PCMCaptureFile: Sendable {
    /// The path as given, for messages.
    let path: String
    private let file: FileDescriptor

    /// libmpv's `pcm` output header's data size while the output is open (the real one is
    /// written when it closes).
    static let openOutputDataSize = 0x7FFF_F000

    /// Opens and checks the capture file at `path`; it holds an empty WAV file until libmpv
    /// writes one.
    init(path: String) throws(PlaybackFailure) {
        self.path = path
        file = try CaptureFile.open(
            path,
            header: WAVHeader.bytes(
                dataBytes: 0, sampleRate: AudioOutput.pacedCaptureSampleRate, channels: AudioOutput.pacedCaptureChannels))
    }

    deinit {
        Posix.close(file)
    }

    /// What libmpv's `ao-pcm-file` is set to: the open file, through /proc.
    var libmpvPath: String { "/proc/self/fd/\(file.rawValue)" }

    /// Whether libmpv's writes of the file failed: `nil` when the file holds every byte of audio
    /// its header says was rendered, else the failure to report. `outputClosed`: libmpv closed its
    /// output (libmpv 0.35 closes it before it reports itself idle); before, the header does not
    /// tell yet, and nothing is reported. After, a header still saying the output is open is one
    /// libmpv failed to write (its last buffered write failed, and the header's with it).
    func writeFailure(outputClosed: Bool) -> PlaybackFailure? {
        guard let size = (try? Posix.status(of: file)).map({ Int($0.size) }), size > 0,
            let header = try? Posix.read(file, count: 512, at: 0)
        else { return nil }
        guard let (dataOffset, dataSize) = Self.dataChunk(in: header) else {
            return CaptureFile.failure(path, "libmpv's WAV header is not in it; a write failed (is the disk full?)")
        }
        guard dataSize != Self.openOutputDataSize else {
            guard outputClosed else { return nil }
            return CaptureFile.failure(
                path, "it holds \(max(0, size - dataOffset)) bytes of audio, and libmpv could not write its header's sizes; a write failed (is the disk full?)")
        }
        let held = max(0, size - dataOffset)
        guard held < dataSize else { return nil }
        return CaptureFile.failure(
            path, "it holds \(held) of the \(dataSize) bytes of audio libmpv rendered; a write failed (is the disk full?)")
    }

    /// Where the `data` chunk of a RIFF/WAVE header starts, and the size it gives.
    static func dataChunk(in header: [UInt8]) -> (offset: Int, size: Int)? {
        func tag(_ at: Int) -> String? {
            guard at + 4 <= header.count else { return nil }
            return String(decoding: header[at..<at + 4], as: UTF8.self)
        }
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= header.count else { return nil }
            return (0..<4).reduce(0) { $0 | Int(header[at + $1]) << (8 * $1) }
        }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { return nil }
        var at = 12
        while let name = tag(at), let size = u32(at + 4) {
            if name == "data" { return (at + 8, size) }
            at += 8 + size + size % 2
        }
        return nil
    }
}
