import Foundation
import NotiplayCore
import Testing

/// `validate` on audio and image files: judged as attachments (``AttachmentValidator``), whatever
/// their size compared with a payload's cap.
@Suite struct FileValidatorAttachmentTests {
    @Test("Every bundled audio format is a valid audio attachment, with its format, type and size")
    func bundledAudio() {
        for (name, format, type) in [
            ("chime.wav", "wav", "com.microsoft.waveform-audio"), ("chime.aiff", "aiff", "public.aiff-audio"),
            ("chime.mp3", "mp3", "public.mp3"), ("chime.m4a", "m4a", "com.apple.m4a-audio"), ("chime.ogg", "vorbis", "org.xiph.ogg-vorbis"),
            ("chime.opus", "opus", "org.xiph.opus"), ("chime.flac", "flac", "org.xiph.flac"),
        ] {
            let result = FileValidator().validate(Fixtures.media(name))
            #expect(result.kind == .attachment && result.valid, "\(name): \(result)")
            #expect(result.details["media"]?.stringValue == "audio" && result.details["format"]?.stringValue == format, "\(name)")
            #expect(result.details["type"]?.stringValue == type, "\(name)")
            #expect(result.details["bytes"]?.intValue ?? 0 > 0, "\(name)")
        }
    }

    @Test("Recognised by content under any name, or by name when the content is not audio; payloads stay payloads")
    func recognition() throws {
        let dir = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("picture.data")
        try Fixtures.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64), to: png)
        let image = FileValidator().validate(png.path)
        #expect(image.kind == .attachment && image.valid && image.details["media"]?.stringValue == "image", "\(image)")
        #expect(image.details["format"]?.stringValue == "png" && image.details["type"]?.stringValue == "public.png")

        let fake = dir.appendingPathComponent("song.flac")
        try Fixtures.write(Array("{\"aps\": {}}".utf8), to: fake)
        let notAudio = FileValidator().validate(fake.path)
        #expect(notAudio.kind == .attachment && !notAudio.valid && !notAudio.isMissing, "\(notAudio)")
        #expect(notAudio.errors.first?.message.hasPrefix("is text, not audio") == true, "\(notAudio)")

        let missing = FileValidator().validate(dir.appendingPathComponent("gone.aiff").path)
        #expect(missing.kind == .attachment && missing.isMissing, "\(missing)")

        #expect(FileValidator().validate(Fixtures.media("nagme.apns")).kind == .payload)
        let json = dir.appendingPathComponent("payload.json")
        try Fixtures.write(Array(#"{"aps": {"alert": "hi"}}"#.utf8), to: json)
        #expect(FileValidator().validate(json.path).kind == .payload)
    }
}
