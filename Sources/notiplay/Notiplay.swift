import ArgumentParser
import Logging
import NotiplayCore

@main
struct Notiplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notiplay",
        abstract: "A media-capable notification player for the terminal.",
        discussion: """
            Exit status: 0 ok, 1 test failures, 64 usage, 65 bad data, 66 missing input, \
            69 libmpv or audio unavailable. Set NOTIPLAY_LOG=debug to see libmpv's messages.
            """,
        version: "0.1.0",
        subcommands: [PlayCommand.self]
    )

    static func main() async {
        DiagnosticsLogHandler.bootstrap()
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as NotiplayError {
            Diagnostics.shared.report(error.description)
            exit(withError: ExitCode(error.exitCode))
        } catch {
            exit(withError: error)
        }
    }
}
