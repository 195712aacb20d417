import Foundation
import NotiplayCore
import NotiplayFreedesktop
import NotiplayTestSupport
import Testing

@Suite struct SoundTests {
    let chime = TestMedia.path("chime.wav")

    func mapped(_ hints: [String: HintValue], dataDirectories: [String] = [], urgency: UInt8? = nil) -> FreedesktopMapped {
        var hints = hints
        if let urgency { hints["urgency"] = .byte(urgency) }
        let mapping = FreedesktopMapping(options: .init(dataDirectories: dataDirectories))
        return mapping.map(FreedesktopNotify(summary: "Build done", hints: hints), id: 4)
    }

    /// Expects a card without sound, with one warning about `hint`, that says `says`.
    func expectSilent(_ result: FreedesktopMapped, hint: String, says: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.attachments.isEmpty, sourceLocation: sourceLocation)
        #expect(result.content.sound == nil, sourceLocation: sourceLocation)
        #expect(!result.autoPlaysAttachment, sourceLocation: sourceLocation)
        #expect(result.warnings.map(\.key) == ["hints.\(hint)"], sourceLocation: sourceLocation)
        #expect(result.warnings.first?.message.contains(says) == true, "\(result.warnings)", sourceLocation: sourceLocation)
    }

    @Test func absolutePathBecomesAnAudioAttachment() throws {
        let result = mapped(["sound-file": .string(chime)])
        #expect(result.warnings.isEmpty)
        let attachment = try #require(result.attachments.first)
        #expect(attachment.audioFile?.format == .wav)
        #expect(result.autoPlaysAttachment)
        #expect(result.extras.sound == SoundSource(hint: "sound-file", file: attachment.audioFile?.path ?? ""))
        #expect(result.content.sound == nil, "the attachment plays instead of the default sound")
    }

    @Test func fileURLWithEscapesIsDecoded() throws {
        let folder = try TestMedia.scratch()
        let spaced = folder.appendingPathComponent("build done.wav").path
        try FileManager.default.copyItem(atPath: chime, toPath: spaced)
        let url = "file://" + spaced.replacingOccurrences(of: " ", with: "%20")
        #expect(SoundFileHint.localPath(url) == .success(spaced))
        #expect(SoundFileHint.localPath("file://localhost" + spaced + "#t=1") == .success(spaced))
        #expect(SoundFileHint.localPath("file:" + url.dropFirst("file://".count)) == .success(spaced))
        #expect(SoundFileHint.localPath("FILE:///x.wav") == .success("/x.wav"))
        let result = mapped(["sound-file": .string(url)])
        #expect(result.warnings.isEmpty)
        #expect(result.attachments.first?.audioFile != nil)
    }

    @Test func remoteURLsAreRefused() {
        expectSilent(mapped(["sound-file": .string("https://example.org/ding.oga")]), hint: "sound-file", says: "https:// URL")
        expectSilent(mapped(["sound-file": .string("file://otherhost/x.wav")]), hint: "sound-file", says: "host")
        expectSilent(mapped(["sound-file": .string("file:///a%zz.wav")]), hint: "sound-file", says: "%-escape")
    }

    @Test func relativePathsAreRefused() {
        expectSilent(mapped(["sound-file": .string("Media/chime.wav")]), hint: "sound-file", says: "not an absolute path")
        expectSilent(mapped(["sound-file": .string("~/ding.wav")]), hint: "sound-file", says: "not an absolute path")
        expectSilent(mapped(["sound-file": .string("")]), hint: "sound-file", says: "empty")
    }

    @Test func directoryIsRefused() throws {
        let folder = try TestMedia.scratch()
        expectSilent(mapped(["sound-file": .string(folder.path)]), hint: "sound-file", says: "directory")
    }

    @Test func fifoIsRefusedWithoutBeingOpened() async throws {
        let folder = try TestMedia.scratch()
        let fifo = folder.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO with no writer would block: the mapping must answer at once.
        let result = try await withTimeout(10) { mapped(["sound-file": .string(fifo)]) }
        expectSilent(result, hint: "sound-file", says: "FIFO")
    }

    @Test func devZeroIsRefused() {
        expectSilent(mapped(["sound-file": .string("/dev/zero")]), hint: "sound-file", says: "character device")
    }

    @Test func missingFileIsRefused() {
        expectSilent(mapped(["sound-file": .string("/nowhere/ding.wav")]), hint: "sound-file", says: "no such file")
    }

    @Test func notAudioIsRefused() throws {
        let folder = try TestMedia.scratch()
        let text = folder.appendingPathComponent("notes.wav")
        try "not audio at all\n".write(to: text, atomically: true, encoding: .utf8)
        expectSilent(mapped(["sound-file": .string(text.path)]), hint: "sound-file", says: "text")
    }

    /// A temporary data folder with `sounds/freedesktop/stereo/NAME.oga` for each name.
    func theme(_ names: [String]) throws -> String {
        let folder = try TestMedia.scratch()
        let stereo = folder.appendingPathComponent("sounds/freedesktop/stereo")
        try FileManager.default.createDirectory(at: stereo, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: TestMedia.path("chime.ogg"), toPath: stereo.appendingPathComponent("\(name).oga").path)
        }
        return folder.path
    }

    @Test func soundNameFoundInTheTheme() throws {
        let data = try theme(["message-new-instant"])
        let result = mapped(["sound-name": .string("message-new-instant")], dataDirectories: ["/nonexistent", data])
        #expect(result.warnings.isEmpty)
        #expect(result.attachments.first?.audioFile?.format == .vorbis)
        #expect(result.extras.sound?.hint == "sound-name")
    }

    @Test func soundNameFallsBackToLessSpecificNames() throws {
        let data = try theme(["message"])
        #expect(SoundTheme(dataDirectories: [data]).path(for: "message-new-email")?.hasSuffix("/message.oga") == true)
    }

    @Test func soundNameMissingFromTheTheme() throws {
        let data = try theme(["bell"])
        expectSilent(mapped(["sound-name": .string("complete")], dataDirectories: [data]), hint: "sound-name", says: "not in the freedesktop sound theme")
        #expect(SoundTheme(dataDirectories: [data]).path(for: "../bell") == nil)
        let odd = mapped(["sound-name": .string("../../etc/passwd")], dataDirectories: [data])
        #expect(odd.warnings.map(\.key) == ["hints.sound-name"])
        #expect(odd.attachments.isEmpty)
    }

    @Test func soundNameStandsInForARefusedSoundFile() throws {
        let data = try theme(["bell"])
        let result = mapped(["sound-file": .string("/dev/zero"), "sound-name": .string("bell")], dataDirectories: [data])
        #expect(result.extras.sound?.hint == "sound-name")
        #expect(result.warnings.map(\.key) == ["hints.sound-file"])
    }

    @Test func suppressSoundSilencesEverything() {
        let result = mapped(["sound-file": .string(chime), "suppress-sound": .bool(true)])
        #expect(result.attachments.isEmpty)
        #expect(result.content.sound == nil)
        #expect(result.warnings.isEmpty)
    }

    @Test func noHintsPlayTheDefaultSoundUnlessPassiveOrTurnedOff() {
        #expect(mapped([:]).content.sound == .default)
        #expect(mapped([:], urgency: 2).content.sound == .default)
        #expect(mapped([:], urgency: 0).content.sound == nil)
        let quiet = FreedesktopMapping(options: .init(dataDirectories: [], playsDefaultSound: false))
        #expect(quiet.map(FreedesktopNotify(summary: "x"), id: 1).content.sound == nil)
    }

    @Test func imageGivenAsASoundIsRefused() throws {
        let folder = try TestMedia.scratch()
        let png = folder.appendingPathComponent("picture.wav")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: png)
        expectSilent(mapped(["sound-file": .string(png.path)]), hint: "sound-file", says: "image")
    }
}
