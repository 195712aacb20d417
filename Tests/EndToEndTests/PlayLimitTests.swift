import Foundation
import NotiplayTestSupport
import Testing

/// One limit for each kind of file, said the same way wherever it applies: `play` plays a local
/// file up to 256 MB (it is not an attachment); an attachment is held to its own type's limit, as
/// on iOS (5 MB audio, 10 MB images), and the message names that limit.
@Suite("play's limit and the attachments' limits", .tags(.endToEnd))
struct PlayLimitTests {
    @Test("play plays an 8.5 MB WAV (over the 5 MB attachment limit) to its end")
    func playsALongFile() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let path = try E2E.tone(seconds: 530, named: "long.wav", in: scratch)
        let result = try await notiplay("play", path, "--audio", "null", "--untimed", "--events", "jsonl", timeout: 120)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.contains("\"reason\":\"eof\""), "\(result)")
    }

    @Test("play refuses a file over 256 MB, naming its limit; validate names the audio attachment limit for a 13 MB WAV")
    func limitsSaidOneWay() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        // A WAV header, then 257 MB of a hole: nothing written, nothing read.
        let huge = scratch.appendingPathComponent("huge.wav")
        try Data(contentsOf: URL(fileURLWithPath: E2E.media("tone-1s.wav"))).prefix(44).write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 257 * 1_048_576)
        try handle.close()
        let played = try await notiplay("play", huge.path, "--audio", "null", "--untimed")
        #expect(played.status == 65, "\(played)")
        #expect(played.stderrText.contains("is 257 MB; the limit for files notiplay plays is 256 MB"), "\(played)")

        let big = try E2E.tone(seconds: 820, named: "big.wav", in: scratch)
        let attached = try await notiplay("validate", big)
        #expect(attached.stdoutText.contains("is 13 MB; the limit for audio attachments is 5.0 MB"), "\(attached)")
    }
}
