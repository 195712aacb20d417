import Foundation
import Testing

@testable import NotiplayCore

@Suite struct AudioFileValidatorTests {
    let validator = AudioFileValidator()

    @Test(arguments: [
        ("chime.wav", AudioFormat.wav), ("chime.aiff", .aiff), ("chime.mp3", .mp3), ("chime.m4a", .m4a),
        ("chime.ogg", .vorbis), ("chime.opus", .opus), ("chime.flac", .flac), ("voice-memo.m4a", .m4a),
        ("voice-memo.ogg", .vorbis), ("tone-1s.wav", .wav),
    ])
    func recognisesEverySample(name: String, format: AudioFormat) throws {
        let file = try validator.validate(Fixtures.media(name))
        #expect(file.format == format)
        #expect(file.path.hasPrefix("/"))
        #expect(file.displayName == name)
    }

    @Test func formatComesFromContentNotName() throws {
        let dir = try Fixtures.scratch()
        let disguised = dir.appendingPathComponent("memo.mp3")
        try FileManager.default.copyItem(atPath: Fixtures.media("chime.ogg"), toPath: disguised.path)
        #expect(try validator.validate(disguised.path).format == .vorbis)

        let text = dir.appendingPathComponent("notes.mp3")
        try "just some text, not audio\n".write(to: text, atomically: true, encoding: .utf8)
        let error = #expect(throws: NotiplayError.self) { try validator.validate(text.path) }
        #expect(error?.kind == .badData)
        #expect(error?.reason.contains("text") == true)
    }

    @Test func missingFileIsMissingInput() {
        let error = #expect(throws: NotiplayError.self) { try validator.validate("/nowhere/at/all.wav") }
        #expect(error?.kind == .missingInput)
        #expect(error?.description.contains("/nowhere/at/all.wav") == true)
    }

    @Test(arguments: [
        "http://example.com/a.mp3", "https://example.com/a.mp3", "av://lavfi:sine=frequency=440",
        "file:///dev/zero", "ytdl://something", "memory://abc",
    ])
    func urlsAreRefused(url: String) {
        let error = #expect(throws: NotiplayError.self) { try validator.validate(url) }
        #expect(error?.kind == .badData)
        #expect(error?.reason.contains("URL") == true)
    }

    @Test func specialFilesAreRefused() throws {
        for (path, words) in [("/dev/zero", "character device"), ("/tmp", "directory")] {
            let error = #expect(throws: NotiplayError.self) { try validator.validate(path) }
            #expect(error?.kind == .badData)
            #expect(error?.reason.contains(words) == true, "\(path): \(error?.reason ?? "")")
        }
        let dir = try Fixtures.scratch()
        let fifo = dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = #expect(throws: NotiplayError.self) { try validator.validate(fifo) }
        #expect(error?.reason.contains("FIFO") == true)
    }

    @Test func emptyRandomAndOversizeFilesAreRefused() throws {
        let dir = try Fixtures.scratch()
        let empty = dir.appendingPathComponent("empty.wav")
        try Fixtures.write([], to: empty)
        #expect(throws: NotiplayError(.badData, file: empty.path, "is empty (0 bytes)")) {
            try validator.validate(empty.path)
        }

        // Random bytes that do not start like any audio format.
        var generator = SystemRandomNumberGenerator()
        var random = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        random[0] = 0x00
        let noise = dir.appendingPathComponent("noise.ogg")
        try Fixtures.write(random, to: noise)
        let error = #expect(throws: NotiplayError.self) { try validator.validate(noise.path) }
        #expect(error?.kind == .badData)

        let small = AudioFileValidator(sizeLimit: 1000)
        let big = #expect(throws: NotiplayError.self) { try small.validate(Fixtures.media("chime.wav")) }
        #expect(big?.reason.contains("limit") == true)
    }

    @Test func id3TagMustBeFollowedByMP3Frames() throws {
        let dir = try Fixtures.scratch()
        // A well-formed ID3v2.4 tag of 16 bytes followed by text.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 16] + [UInt8](repeating: 0x20, count: 16)
        let fake = dir.appendingPathComponent("tagged.mp3")
        try Fixtures.write(tag + Array("hello world".utf8), to: fake)
        let error = #expect(throws: NotiplayError.self) { try validator.validate(fake.path) }
        #expect(error?.reason.contains("ID3") == true)

        let real = dir.appendingPathComponent("real.mp3")
        let mp3 = try Data(contentsOf: URL(fileURLWithPath: Fixtures.media("chime.mp3")))
        try Fixtures.write(tag + Array(mp3), to: real)
        #expect(try validator.validate(real.path).format == .mp3)
    }

    @Test func symlinksResolveToTheirTarget() throws {
        let dir = try Fixtures.scratch()
        let link = dir.appendingPathComponent("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: Fixtures.media("chime.wav"))
        let file = try validator.validate(link.path)
        #expect(file.path.hasSuffix("/Media/chime.wav"))
        #expect(file.argument == link.path)
    }

    @Test func sniffRejectsTruncatedHeaders() {
        #expect(AudioFormat.sniff([]) == nil)
        #expect(AudioFormat.sniff(Array("RIFF".utf8)) == nil)
        #expect(AudioFormat.sniff(Array("OggS".utf8) + [UInt8](repeating: 0, count: 30)) == nil)
        #expect(AudioFormat.sniff([0xFF, 0xFB, 0x90, 0x00]) == .mp3)
        #expect(AudioFormat.sniff([0xFF, 0xFB, 0xF0, 0x00]) == nil)  // bitrate index 15 is invalid
        #expect(AudioFormat.sniff([0xFF, 0xF1, 0x50, 0x80]) == .aac)
    }
}
