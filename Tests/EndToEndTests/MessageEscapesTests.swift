import Foundation
import NotiplayTestSupport
import Testing

/// Text that is only escape sequences, quoted in a message: shown as visible escapes
/// (`\u{1B}[31m`), neither raw nor cleaned to nothing.
@Suite("Messages quoting escape sequences: the real binary", .tags(.endToEnd))
struct MessageEscapesTests {
    @Test("validate: an aps key that is only a colour sequence is named as \\u{1B}[31m, and so is such a file name")
    func validateNamesTheKey() async throws {
        let dir = try E2E.scratch()
        defer { E2E.remove(dir) }
        let payload = dir.appendingPathComponent("key.apns")
        try Data(#"{"aps": {"alert": "x", "\u001b[31m": 1}}"#.utf8).write(to: payload)
        let missing = dir.appendingPathComponent("\u{1B}[2J.apns").path
        let result = try await notiplay("validate", payload.path, missing)
        #expect(result.status == 66, "\(result)")
        #expect(!result.stdout.contains(0x1B), "\(result)")
        #expect(
            result.stdoutText.contains(
                #"  warning: aps.\u{1B}[31m: is not an APNs key and is ignored; put custom keys beside "aps", not in it"#),
            "\(result)")
        #expect(result.stdoutText.contains(dir.path + #"/\u{1B}[2J.apns: invalid payload"#), "\(result)")
    }

    @Test("deliver --keys with only a colour sequence: 64, the unknown key named as \\u{1B}[31m, no raw escape")
    func unknownKey() async throws {
        let result = try await notiplay("deliver", E2E.media("nagme.apns"), "--headless", "--keys", "\u{1B}[31m")
        #expect(result.status == 64, "\(result)")
        #expect(!result.stderr.contains(0x1B), "\(result)")
        #expect(result.stderrText.contains(#"unknown key '\u{1B}[31m'"#), "\(result)")
        #expect(result.stderrText.contains(#"The value '\u{1B}[31m' is invalid for '--keys <keys>'"#), "\(result)")
    }
}
