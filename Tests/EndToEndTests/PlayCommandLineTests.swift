import Foundation
import NotiplayTestSupport
import Testing

/// No sound card: the `--audio auto` fallback test only means something then.
private let noSoundDevice = !FileManager.default.fileExists(atPath: "/dev/snd")

@Suite("play: usage, outputs and the terminal", .tags(.endToEnd))
struct PlayCommandLineTests {
    @Test("An unwritable pcm capture path: 69, naming the path")
    func unwritableCapture() async throws {
        let capture = "/nonexistent-dir/x.wav"
        try #require(!FileManager.default.fileExists(atPath: "/nonexistent-dir"), "/nonexistent-dir exists here")
        let result = try await notiplay("play", E2E.media("tone-1s.wav"), "--audio", "pcm:\(capture)", "--untimed")
        #expect(result.status == 69 && !result.signaled, "\(result)")
        #expect(result.stderrText.contains(capture), "\(result)")
    }

    @Test("Usage errors exit 64", arguments: [["play", "--bogus"], ["play"]])
    func usage(arguments: [String]) async throws {
        let result = try await run(try E2E.binary(), arguments)
        #expect(result.status == 64 && !result.signaled, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrText.contains("Usage"), "\(result)")
    }

    @Test(
        "--audio auto without a sound device: 0, and one line about the null output on stderr",
        .enabled(if: noSoundDevice, "there is a sound device (/dev/snd)"))
    func autoWithoutSoundDevice() async throws {
        let result = try await notiplay("play", E2E.media("tone-1s.wav"), "--audio", "auto")
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let lines = result.stderrLines
        #expect(lines.count == 1, "expected exactly one line on stderr, got \(lines.count):\n\(result.stderrText)")
        #expect(
            lines.contains { $0.contains("null") && $0.localizedCaseInsensitiveContains("no sound device") },
            "no line about the null output / no sound device:\n\(result.stderrText)")
        #expect(!result.stderrText.contains("ALSA lib"), "\(result.stderrText)")
    }

    @Test("On a terminal, play shows a status line with the duration")
    func statusLineOnTerminal() async throws {
        let script = try #require(E2E.which("script"), "util-linux script is needed to give notiplay a pty")
        let command = [try E2E.binary(), "play", E2E.media("tone-1s.wav"), "--audio", "null"]
            .map(E2E.shellQuoted).joined(separator: " ")
        let result = try await run(script, ["-qfec", command, "/dev/null"])
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(result.stdoutText.contains("/ 0:01.0"), "\(result)")
        #expect(result.stdoutText.contains("\r"), "\(result)")
    }

    @Test("Without a terminal and without --events, stdout stays empty")
    func noStatusLineOnPipe() async throws {
        let result = try await notiplay("play", E2E.media("tone-1s.wav"), "--audio", "null")
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
