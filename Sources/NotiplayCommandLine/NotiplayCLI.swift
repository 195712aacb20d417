import ArgumentParser
@_exported public import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplaySystem
import SystemPackage

/// The whole `notiplay` command line, for the `notiplay` executable and for an extension author's
/// own executable that adds its extension types.
///
/// ```swift
/// import NotiplayCommandLine
/// import NagMe
///
/// @main
/// enum NagMeTool {
///     static func main() async {
///         var types = ExtensionTypes()
///         NagMeExtensions.register(in: &types)  // the module registers its own types
///         await NotiplayCLI.main(types: types)
///     }
/// }
/// ```
///
/// The executable then behaves exactly like `notiplay` (every command, option and exit status),
/// under its own name, with these types and the built-in ones available to the `.appex` bundles it
/// loads. (The `notiplay` executable registers the sample extensions the same way; an author's
/// tool gets only its own.)
public enum NotiplayCLI {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The extension types `deliver`, `extensions` and `test` know: the built-in ones, plus those
    /// the executable registers (the samples in `notiplay`, an author's own in their tool).
    nonisolated(unsafe) static var types = ExtensionTypes()

    /// The command line being run (without the program name): `serve` hands its own to the
    /// presenter processes it starts.
    nonisolated(unsafe) static var arguments: [String] = []

    /// The names of the types the `notiplay` executable registers as its bundled samples (set by
    /// it before ``main(types:commandName:)``): `deliver` does not warn that they go unused
    /// without an extension folder, as it does for an author's own types.
    nonisolated(unsafe) package static var sampleTypeNames: Set<String> = []

    /// Whether the command line runs as the whole process (``main(types:)``) and may take over
    /// process-wide things such as descriptor 2.
    nonisolated(unsafe) static var ownsProcess = false

    /// Runs the process's command line with `types` registered, then exits with the command's
    /// status. It owns the process: it installs the log handler (at `NOTIPLAY_LOG`'s level),
    /// opens libmpv from `NOTIPLAY_LIBMPV` when that is set, makes C's `stdout` line-buffered, may
    /// move descriptor 2 aside while libmpv runs, and while extensions run points descriptors 1
    /// and 2 at pipes, so that what they print becomes `log` events (or waits until the terminal
    /// card is gone) instead of breaking the command's own output.
    ///
    /// - Parameters:
    ///   - types: the extension types `deliver` and `test` can instantiate; the built-in
    ///     ones are always there.
    ///   - commandName: the name the help, the usage and the messages give the tool (`nagme:
    ///     FILE: reason`, `Usage: nagme deliver …`); `nil` (the default) takes the name the
    ///     executable was run by, the last component of `argv[0]`.
    public static func main(types: ExtensionTypes = ExtensionTypes(), commandName: String? = nil) async -> Never {
        // Before anything is written: an extension's `print` reaches descriptor 1 line by line
        // even when it is a pipe, so it keeps its place among the events (see OutputCapture).
        Posix.lineBufferStandardOutput()
        // A server that plays media all day keeps no freed buffers (see Posix+Memory).
        Posix.returnLargeBlocksToTheSystem()
        self.commandName = commandName ?? toolName(argument0: CommandLine.arguments.first)
        DiagnosticsLogHandler.bootstrap(environment: processEnvironment)
        if let library = processEnvironment["NOTIPLAY_LIBMPV"], !library.isEmpty {
            Libmpv.defaultName = library
        }
        ownsProcess = true
        let status = await run(Array(CommandLine.arguments.dropFirst()), types: types)
        finishCapture()
        Posix.exit(status)
    }

    /// The name the tool goes by in its help, usage and messages: `notiplay`, or an author's
    /// tool's own (``main(types:commandName:)``).
    nonisolated(unsafe) static var commandName = "notiplay"

    /// The tool's name from `argv[0]`: its last path component, or `notiplay` when there is none.
    static func toolName(argument0: String?) -> String {
        let name = argument0?.split(separator: "/").last.map(String.init) ?? ""
        let clean = TerminalText.clean(name)
        return clean.isEmpty ? "notiplay" : clean
    }

    /// Ends the capture of what extensions print (``OutputCapture``), if a command started one and
    /// left it running; what it kept goes to standard error, one `TOOL: stdout: TEXT` line each
    /// (the terminal card's extensions, which must not write over the card).
    static func finishCapture() {
        guard let capture = OutputCapture.current else { return }
        let collected = capture.finish()
        if collected.dropped > 0 {
            Diagnostics.shared.report("\(collected.dropped) earlier lines the extensions printed are not shown")
        }
        for line in collected.lines { Diagnostics.shared.report("\(line.stream.rawValue): \(line.text)") }
    }

    /// Runs a command line (without the program name) with `types` registered and returns the
    /// exit status instead of exiting.
    public static func run(_ arguments: [String], types: ExtensionTypes) async -> Int32 {
        self.types = types
        return await run(arguments)
    }

    /// Runs a command line (without the program name) and returns the exit status. Help, the
    /// version and completion scripts go to standard output; errors to standard error (see
    /// ``Diagnostics``), notiplay's own as `notiplay: FILE: reason`.
    static func run(_ arguments: [String]) async -> Int32 {
        self.arguments = arguments
        if willPlay(arguments) {
            // libmpv loads on another thread while the arguments are parsed and the files read.
            Libmpv.preload()
        }
        do {
            if arguments.first == PresentCardCommand.name {
                // A presenter process of serve's: no command a person types (not in the help,
                // the man page or the completions).
                let presenter = try PresentCardCommand.parse(Array(arguments.dropFirst()))
                try await presenter.run()
                return ExitStatus.ok
            }
            if let word = unknownCommand(in: arguments) {
                // ArgumentParser answers `notiplay WORD --help` and `notiplay help WORD` with the
                // overall help even when WORD names no command: refuse WORD as it does alone.
                _ = try NotiplayCommand.parseAsRoot([word])
            }
            var command: any ParsableCommand
            if let (parse, paths) = ManyPaths.setAside(arguments) {
                command = ManyPaths.giveBack(paths, to: try NotiplayCommand.parseAsRoot(parse))
            } else {
                command = try NotiplayCommand.parseAsRoot(arguments)
            }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return ExitStatus.ok
        } catch let error as UsageError {
            Diagnostics.shared.report(error.description)
            return ExitStatus.usage
        } catch let error as NotiplayError {
            Diagnostics.shared.report(error.description)
            return ExitStatus.of(error.kind)
        } catch {
            return finish(error)
        }
    }

    /// Whether `arguments` name a command that starts an engine (`play`, `deliver`, `test`) and
    /// ask for no help: only those load libmpv.
    static func willPlay(_ arguments: [String]) -> Bool {
        guard let command = arguments.first, ["play", "deliver", "test"].contains(command) else { return false }
        return !arguments.contains { ["-h", "--help", "--version", "--experimental-dump-help"].contains($0) }
    }

    /// The word that stands where a command's name should, `notiplay WORD` or `notiplay help
    /// WORD`, when it names no command.
    static func unknownCommand(in arguments: [String]) -> String? {
        let names = NotiplayCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        let word = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        guard let word, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        return word
    }

    /// Says what ArgumentParser has to say about `error` (a usage error, or a request for help,
    /// the version or a completion script) and returns its exit status (64 for usage errors).
    static func finish(_ error: any Error) -> Int32 {
        let status = NotiplayCommand.exitCode(for: error).rawValue
        let message = NotiplayCommand.fullMessage(for: error)
        if message.isEmpty {
            return status
        } else if status == ExitStatus.ok {
            _ = try? FileDescriptor.standardOutput.writeAll((message + "\n").utf8)
        } else {
            // The message quotes the arguments as they were given: their control characters are
            // shown as escapes (`\u{1B}`), never written raw.
            Diagnostics.shared.write(TerminalText.visible(message, keepNewlines: true) + "\n")
        }
        return status
    }
}
