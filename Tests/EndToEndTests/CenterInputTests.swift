import Foundation
import NotiplayTestSupport
import Testing

/// What `send` and `remove` take from the user: a payload on standard input, an identifier, and
/// identifiers that name nothing live.
extension CenterTests {
    /// `script` run by `sh -c`, with `$0` the binary and `$1` `argument`, in this suite's environment.
    func shell(_ script: String, _ argument: String = "") async throws -> RunResult {
        try await run("/bin/sh", ["-c", script, try E2E.binary(), argument], timeout: 60, environment: environment)
    }

    @Test("send - reads the payload from standard input (a file or a pipe), and so does send /dev/stdin; bad input names standard input (65)")
    func sendFromStandardInput() async throws {
        try await withServer { _ in
            let payload = E2E.media("nagme.apns")
            let redirected = try await shell(#""$0" send - --id redirected < "$1""#, payload)
            #expect(redirected.status == 0, "\(redirected)")
            let piped = try await shell(#"cat "$1" | "$0" send - --id piped"#, payload)
            #expect(piped.status == 0, "\(piped)")
            let devStdin = try await shell(#"cat "$1" | "$0" send /dev/stdin --id dev-stdin"#, payload)
            #expect(devStdin.status == 0, "\(devStdin)")

            let notJSON = try await shell(#"printf 'not a payload' | "$0" send - --id bad"#)
            #expect(notJSON.status == 65, "\(notJSON)")
            #expect(notJSON.stderrText.contains("standard input: "), "\(notJSON)")
            let empty = try await shell(#""$0" send - --id empty < /dev/null"#)
            #expect(empty.status == 65 && empty.stderrText.contains("standard input: "), "\(empty)")
            // A stream longer than a payload file may be: refused once 1 MiB is read, not read to its end.
            let endless = try await shell(#""$0" send - --id endless < /dev/zero"#)
            #expect(endless.status == 65 && endless.stderrText.contains("standard input: "), "\(endless)")
            #expect(endless.stderrText.contains("1048576 bytes"), "\(endless)")

            // Over APNs' 4096 bytes: refused, without naming an option send does not have.
            let big = scratch.appendingPathComponent("big.apns")
            try Data((#"{"aps": {"alert": ""# + String(repeating: "y", count: 5000) + #""}}"#).utf8).write(to: big)
            let tooBig = try await notiplay("send", big.path, "--id", "big")
            #expect(tooBig.status == 65 && tooBig.stderrText.contains("4096"), "\(tooBig)")
            #expect(!tooBig.stderrText.contains("--no-payload-limit"), "\(tooBig)")

            let list = try await notiplay("list", "--json")
            let listed = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]]
            #expect(Set(listed?.compactMap { $0["identifier"] as? String } ?? []) == ["redirected", "piped", "dev-stdin"], "\(list)")
        }
    }

    /// A raw client: a `send` with an empty identifier; its reply's code printed.
    static let emptyIdentifierClient = #"""
        with connect(sys.argv[1]) as sock:
            frame(sock, {"v": 1, "id": 1, "op": "send", "app": "notiplay", "identifier": "",
                         "payload": "{\"aps\":{\"alert\":\"x\"}}"})
            print((reply(sock).get("error") or {}).get("code"))
        """#

    @Test("An empty identifier is refused: send --id \"\" exits 64, a raw send gets bad-request; nothing is stored")
    func emptyIdentifier() async throws {
        try await withServer { _ in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "")
            #expect(sent.status == 64, "\(sent)")
            #expect(sent.stderrText.contains("--id"), "\(sent)")
            let client = try await rawClient(Self.emptyIdentifierClient)
            #expect(client.status == 0 && client.stdoutText == "bad-request\n", "\(client)")
            let history = try await notiplay("history", "--json")
            #expect(history.status == 0 && history.stdoutText == "[]\n", "\(history)")
        }
    }

    @Test("remove says which identifiers name nothing live: 0 when one was removed, 66 when none was; --all of nothing is 0")
    func removeUnknown() async throws {
        try await withServer { _ in
            for id in ["nag", "other"] {
                let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", id)
                #expect(sent.status == 0, "\(sent)")
            }
            let some = try await notiplay("remove", "nag", "ghost")
            #expect(some.status == 0 && some.stdoutText == "nag\n", "\(some)")
            #expect(some.stderrLines.contains { $0.hasSuffix("ghost: no pending or delivered notification has that identifier") }, "\(some)")
            let none = try await notiplay("remove", "nag", "ghost\u{1B}[31m")
            #expect(none.status == 66 && none.stdoutText.isEmpty, "\(none)")
            #expect(none.stderrLines.count == 2, "\(none)")
            #expect(none.stderrLines.contains { $0.hasSuffix("nag: no pending or delivered notification has that identifier") }, "\(none)")
            #expect(!none.stderrText.contains("\u{1B}"), "\(none)")
            let all = try await notiplay("remove", "--all")
            #expect(all.status == 0 && all.stdoutText == "other\n" && all.stderrText.isEmpty, "\(all)")
            let nothing = try await notiplay("remove", "--all")
            #expect(nothing.status == 0 && nothing.stdoutText.isEmpty && nothing.stderrText.isEmpty, "\(nothing)")
        }
    }
}
