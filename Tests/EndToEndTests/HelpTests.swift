import Foundation
import NotiplayTestSupport
import Testing

@Suite("help, version and completion scripts", .tags(.endToEnd))
struct HelpTests {
    @Test(
        "Help, the version and completion scripts: stdout, exit 0, nothing on stderr",
        arguments: [
            (["--version"], "0.1.0\n"),
            (["--help"], "SUBCOMMANDS:"),
            (["-h"], "SUBCOMMANDS:"),
            (["help"], "SUBCOMMANDS:"),
            (["deliver", "--help"], "--attach <file>"),
            (["help", "test"], "--junit <path>"),
            (["validate", "-h"], "USAGE: notiplay validate"),
            (["--generate-completion-script", "bash"], "complete"),
            (["--generate-completion-script", "zsh"], "#compdef notiplay"),
            (["--generate-completion-script", "fish"], "complete -c 'notiplay'"),
        ])
    func answered(arguments: [String], expected: String) async throws {
        let result = try await run(try E2E.binary(), arguments)
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(result.stdoutText.contains(expected), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test(
        "No command, or help for one that does not exist: 64, on stderr",
        arguments: [[], ["frobnicate", "--help"], ["help", "frobnicate"]])
    func refused(arguments: [String]) async throws {
        let result = try await run(try E2E.binary(), arguments)
        #expect(result.status == 64 && !result.signaled, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrText.contains("Usage: notiplay") || result.stderrText.contains("USAGE: notiplay"), "\(result)")
    }
}
