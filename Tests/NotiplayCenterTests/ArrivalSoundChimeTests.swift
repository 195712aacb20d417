import Foundation
import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// notiplay's own default sound: a valid WAV file, written once, atomically, and reused.
struct ArrivalSoundChimeTests {
    @Test("The chime is 0.4 s of 16-bit mono PCM at 44.1 kHz that passes the audio validation, fading in and out")
    func chimeIsValidAudio() throws {
        let folder = try TestMedia.scratch().path
        let path = try BundledChime.install(in: folder)
        let file = try AudioFileValidator().validate(path)
        #expect(file.format == .wav)
        #expect(file.byteCount == BundledChime.bytes.count)
        let wav = try WAVFile(contentsOf: path)
        #expect(wav.encoding == 1)
        #expect(wav.channels == 1)
        #expect(wav.sampleRate == 44_100)
        #expect(wav.bitsPerSample == 16)
        #expect(wav.frames == 17_640)
        let peak = try wav.peak()
        #expect(peak > 0.2 && peak < 0.7, "soft, never clipped: peak \(peak)")
        // Silent at both ends: no click when it starts or stops.
        let samples = Array(wav.samples)
        #expect(samples.prefix(2) == [0, 0])
        #expect(samples.suffix(2) == [0, 0])
    }

    @Test("Installing again reuses the file; a file with other bytes is replaced; no temporary file is left")
    func installReusesAndRepairs() throws {
        let folder = try TestMedia.scratch().path
        let path = try BundledChime.install(in: folder)
        let inode = try Self.inode(path)
        #expect(try BundledChime.install(in: folder) == path)
        #expect(try Self.inode(path) == inode, "the right bytes are kept as they are")

        var damaged = BundledChime.bytes
        damaged[100] ^= 0xFF
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        #expect(try BundledChime.install(in: folder) == path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == BundledChime.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [BundledChime.fileName])
    }

    @Test("A folder that cannot be written is an error naming it")
    func missingFolder() throws {
        let folder = try TestMedia.scratch().path + "/missing"
        #expect(throws: NotiplayError.self) { try BundledChime.install(in: folder) }
        do throws(NotiplayError) {
            _ = try BundledChime.install(in: folder)
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.file == folder)
            #expect(error.reason.hasPrefix("cannot write the default sound: "))
        }
    }

    static func inode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
    }
}

extension RealEngine {
    /// libmpv plays the chime through to its end.
    @Suite(.timeLimit(.minutes(1)))
    struct ArrivalSoundChimePlaybackTests {
        @Test("libmpv plays the chime to its end, every frame of it")
        func chimePlaysToItsEnd() async throws {
            let folder = try TestMedia.scratch().path
            let file = try AudioFileValidator().validate(try BundledChime.install(in: folder))
            let out = folder + "/out.wav"
            let engine = try MPVEngine(output: .pcm(path: out))
            let reason = try await engine.playToEnd(file)
            await engine.shutdown()  // the capture's header is complete once the output closes
            #expect(reason == .endOfFile)
            let captured = try WAVFile(contentsOf: out)
            #expect(captured.sampleRate == 44_100)
            #expect(abs(captured.frames - BundledChime.frameCount) <= 1, "\(captured)")
        }
    }
}
