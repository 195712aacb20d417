import ArgumentParser
import NotiplaySystem
import SystemPackage

/// `notiplay` itself (or an author's tool, by its own name, ``NotiplayCLI/commandName``): the
/// subcommands, the version and the help that lists them.
struct NotiplayCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: NotiplayCLI.commandName,
            abstract: "A media-capable notification player for the terminal.",
            discussion: """
                Exit status: 0 ok, 1 test failures, 64 usage, 65 bad data, 66 missing input, \
                69 libmpv, audio or the center unavailable, 73 cannot create, 74 I/O error, \
                77 not allowed, 128 + the signal's number when interrupted (130 for Ctrl-C).

                Environment: NOTIPLAY_LOG, a log level (debug shows libmpv's and the audio \
                stack's own messages, which otherwise never reach the terminal); \
                NOTIPLAY_CACHE_DIR, where media a payload names by URL is kept (else \
                $XDG_CACHE_HOME/notiplay/media, else ~/.cache/notiplay/media); NO_COLOR, COLUMNS and LINES for the card.

                Without a command, in a terminal: attach (the center's cards here, the center \
                started in the background when none runs); otherwise this help.
                """,
            version: NotiplayCLI.version,
            subcommands: [
                PlayCommand.self, DeliverCommand.self, ValidateCommand.self, ExtensionsCommand.self, TestCommand.self,
                ServeCommand.self, SendCommand.self, ListCommand.self, RemoveCommand.self, HistoryCommand.self,
                FocusCommand.self, ClockCommand.self, ReloadCommand.self, AttachCommand.self, StopCommand.self,
                ScriptWorkerCommand.self,
            ])
    }

    /// `notiplay` without a command: in a terminal (standard input and output both), `attach`;
    /// otherwise the help, on standard error, as a usage error.
    func run() throws {
        if Posix.isTerminal(.standardInput) && Posix.isTerminal(.standardOutput) {
            let status = AttachCommand.attach()
            if status != 0 { throw ExitCode(status) }
            return
        }
        Diagnostics.shared.write(Self.helpMessage() + "\n")
        throw ExitCode(ExitStatus.usage)
    }
}
