import Foundation
import NotiplayTestSupport
import Testing

/// A `pcm:` capture that cannot be written is never a silent success: a path that is no file on a
/// disk is refused before anything plays (69, naming it), and a write that fails while the audio
/// plays (a full disk) is an `error` event and exit 69.
@Suite("--audio pcm: a capture that cannot be written", .tags(.endToEnd))
struct PlayCaptureFailureTests {
    /// Both used to exit 0 with an `ended` event and nothing captured: /dev/full takes the file
    /// open and fails every write (ENOSPC), /proc/version too (EIO, as root).
    @Test(
        "A device or a /proc file as the capture: 69 before anything plays, saying what it is",
        arguments: [
            ("/dev/full", "it is a character device, not a regular file"),
            ("/proc/version", "it is a file of the kernel's proc file system, not a file on a disk"),
        ])
    func notAFileOnADisk(path: String, why: String) async throws {
        let result = try await notiplay(
            "play", E2E.media("tone-1s.wav"), "--audio", "pcm:\(path)", "--untimed", "--events", "jsonl")
        #expect(result.status == 69 && !result.signaled, "\(result)")
        #expect(result.stdout.isEmpty, "nothing played: \(result)")
        #expect(result.stderrText == "notiplay: cannot write the audio capture file \(path): \(why)\n", "\(result)")
    }

    /// A 64 KiB disk fills a third of a second into the 6.7 s memo (22 kHz stereo): the capture
    /// holds what fitted, and the end says so instead of `ended`.
    @Test("The disk fills while the capture is written: an error event naming the file, and 69",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func diskFillsWhileWriting() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let disk = try Tmpfs(in: scratch.path, size: "64k")
        defer { disk.unmount() }
        let capture = disk.path + "/heard.wav"
        let result = try await notiplay(
            "play", E2E.media("voice-memo.m4a"), "--audio", "pcm:\(capture)", "--untimed", "--events", "jsonl")
        #expect(result.status == 69 && !result.signaled, "\(result)")
        let events = eventLines(result.stdoutText)
        #expect(!events.contains { $0["state"] as? String == "ended" }, "\(result)")
        let error = try #require(events.first { $0["event"] as? String == "error" }, "\(result)")
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("voice-memo.m4a: cannot write the audio capture file \(capture): it holds "), "\(message)")
        // How much was lost is known when libmpv could write its header's sizes (not always: its
        // last write and the header's can both fail).
        #expect(message.hasSuffix("; a write failed (is the disk full?)"), "\(message)")
        #expect(result.stderrText.contains("cannot write the audio capture file \(capture)"), "\(result)")
    }

    /// The same on a card: the `playback` event is an `error` saying what was lost, the button
    /// comes back, and `deliver` exits 69 (it used to exit 0 after `state=ended`).
    @Test("deliver: the disk fills while the card's media is captured: a playback error, and 69",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func deliverDiskFills() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let disk = try Tmpfs(in: scratch.path, size: "64k")
        defer { disk.unmount() }
        let capture = disk.path + "/heard.wav"
        let result = try await notiplay(
            "deliver", E2E.media("nagme.apns"), "--attach", E2E.media("voice-memo.m4a"), "--headless",
            "--keys", "space ~end", "--audio", "pcm:\(capture)", "--untimed", "--events", "jsonl")
        #expect(result.status == 69 && !result.signaled, "\(result)")
        let playback = eventLines(result.stdoutText).filter { $0["event"] as? String == "playback" }
        #expect(playback.map { $0["state"] as? String } == ["started", "error"], "\(result)")
        let message = try #require(playback.last?["message"] as? String, "\(result)")
        #expect(message.hasPrefix("cannot write the audio capture file \(capture): it holds "), "\(message)")
        #expect(result.stderrText.contains("cannot write the audio capture file \(capture)"), "\(result)")
    }
}
