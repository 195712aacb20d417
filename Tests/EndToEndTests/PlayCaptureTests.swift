import Foundation
import NotiplayTestSupport
import Testing

/// One sample file and how exactly its decoded length can be expected to match its 2.0 s source.
struct ChimeFormat: Sendable, CustomTestStringConvertible {
    var file: String
    /// The decoder's output rate.
    var rate: Int
    /// Samples the decoded length may fall short of 2.0 s.
    var below: Int
    /// Samples the decoded length may exceed 2.0 s.
    var above: Int

    var testDescription: String { file }

    /// One codec frame either way (a sample frame for PCM). FFmpeg 5.1 does not trim AAC end
    /// padding, so `.m4a` decodes up to one AAC frame (1024) long: +888 for this file.
    static let all: [ChimeFormat] = [
        ChimeFormat(file: "chime.wav", rate: 44100, below: 1, above: 1),
        ChimeFormat(file: "chime.aiff", rate: 22050, below: 1, above: 1),
        ChimeFormat(file: "chime.mp3", rate: 44100, below: 1152, above: 1152),
        ChimeFormat(file: "chime.m4a", rate: 44100, below: 1024, above: 1024),
        ChimeFormat(file: "chime.ogg", rate: 44100, below: 2048, above: 2048),
        ChimeFormat(file: "chime.opus", rate: 48000, below: 960, above: 960),
        ChimeFormat(file: "chime.flac", rate: 44100, below: 4096, above: 4096),
    ]
}

@Suite("play --audio pcm captures", .tags(.endToEnd))
struct PlayCaptureTests {
    @Test("A pcm capture of each chime format is a WAV of 2.0 s", arguments: ChimeFormat.all)
    func captureLength(format: ChimeFormat) async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let capture = scratch.appendingPathComponent("out.wav").path

        let result = try await notiplay("play", E2E.media(format.file), "--audio", "pcm:\(capture)", "--untimed")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "stdout is not a terminal, so no status line: \(result)")

        try #require(FileManager.default.fileExists(atPath: capture), "no capture file was written: \(result)")
        let wav = try WAVFile(contentsOf: capture)
        #expect(wav.formatTag == 0xFFFE || wav.formatTag == 1 || wav.formatTag == 3)
        #expect(wav.sampleRate == format.rate)
        let expected = 2 * format.rate
        #expect(
            (expected - format.below)...(expected + format.above) ~= wav.frames,
            "\(wav.frames) frames (\(wav.seconds) s) at \(wav.sampleRate) Hz; expected \(expected) −\(format.below)/+\(format.above)")
        // The chime peaks at −6 dBFS; a capture of silence would pass the length check alone.
        let peak = try wav.peak()
        #expect(peak > 0.25 && peak <= 1.0, "peak \(peak)")
    }
}
