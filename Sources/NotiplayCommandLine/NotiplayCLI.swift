@_exported import Notiplay
import NotiplayCore
import SystemPackage

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Ends a command with this exit status, after it has said whatever it had to say.
struct CommandExit: Error {
    let status: Int32
}

/// The whole `notiplay` command line, for the `notiplay` executable and for an extension author's
/// own executable that adds its extension types.
///
/// ```swift
/// import NotiplayCommandLine
/// import NagMeExtension
///
/// @main
/// enum NagMeTool {
///     static func main() async {
///         var types = ExtensionTypes()
///         types.register(NotificationViewController.self, as: "NagMe.NotificationViewController")
///         await NotiplayCLI.main(types: types)
///     }
/// }
/// ```
///
/// The executable then behaves exactly like `notiplay` (every command, option and exit status),
/// with these types and the built-in ones available to the `.appex` bundles it loads. (The
/// `notiplay` executable registers the sample extensions the same way; an author's tool gets only
/// its own.)
public enum NotiplayCLI {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The subcommands, in the order `--help` lists them.
    static let commands: [CommandSpec] = [
        PlayCommand.spec, DeliverCommand.spec, ValidateCommand.spec, ExtensionsCommand.spec, TestCommand.spec,
    ]

    static var help: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.abstract }
        return """
            notiplay \(version) — a media-capable notification player for the terminal.

            Usage: notiplay COMMAND [ARGUMENTS]

            Commands:
            \(list.joined(separator: "\n"))

            Exit status: 0 ok, 1 test failures, 64 usage, 65 bad data, 66 missing input,
            69 libmpv or audio unavailable, 130 interrupted.
            Set NOTIPLAY_LOG=debug to see libmpv's own messages.
            See 'notiplay COMMAND --help'.

            """
    }

    /// Whether the command line runs as the whole process (``main(types:)``) and may take over
    /// process-wide things such as descriptor 2.
    nonisolated(unsafe) static var ownsProcess = false

    /// Runs the process's command line with `types` registered, then exits with the command's
    /// status. It owns the process: it installs the log handler (at `NOTIPLAY_LOG`'s level) and
    /// may move descriptor 2 aside while libmpv runs.
    ///
    /// - Parameter types: the extension types `deliver` and `test` can instantiate; the built-in
    ///   ones are always there.
    public static func main(types: ExtensionTypes = ExtensionTypes()) async -> Never {
        DiagnosticsLogHandler.bootstrap(environment: processEnvironment)
        ownsProcess = true
        exit(await run(Array(CommandLine.arguments.dropFirst()), types: types))
    }

    /// Runs a command line (without the program name) with `types` registered and returns the
    /// exit status instead of exiting.
    public static func run(_ arguments: [String], types: ExtensionTypes) async -> Int32 {
        DeliverCommand.types = types
        return await run(arguments)
    }

    /// Runs a command line (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        guard let first = arguments.first else {
            Diagnostics.shared.write(help)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help":
            _ = try? FileDescriptor.standardOutput.writeAll(help.utf8)
            return ExitStatus.ok
        case "help":
            guard let name = arguments.dropFirst().first else {
                _ = try? FileDescriptor.standardOutput.writeAll(help.utf8)
                return ExitStatus.ok
            }
            guard let command = commands.first(where: { $0.name == name }) else { return unknown(name) }
            _ = try? FileDescriptor.standardOutput.writeAll(command.help.utf8)
            return ExitStatus.ok
        case "--version":
            _ = try? FileDescriptor.standardOutput.writeAll("\(version)\n".utf8)
            return ExitStatus.ok
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else { return unknown(first) }
        let rest = Array(arguments.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            _ = try? FileDescriptor.standardOutput.writeAll(command.help.utf8)
            return ExitStatus.ok
        }
        do {
            try await command.run(try command.parse(rest))
            return ExitStatus.ok
        } catch let error as UsageError {
            Diagnostics.shared.report(error.description)
            return ExitStatus.usage
        } catch let error as NotiplayError {
            Diagnostics.shared.report(error.description)
            return ExitStatus.of(error.kind)
        } catch let exit as CommandExit {
            return exit.status
        } catch {
            Diagnostics.shared.report("\(command.name): \(error)")
            return 1
        }
    }

    static func unknown(_ name: String) -> Int32 {
        let names = commands.map(\.name).joined(separator: ", ")
        Diagnostics.shared.report("unknown command '\(TerminalText.clean(name))' (commands: \(names))\nUsage: notiplay COMMAND [ARGUMENTS]")
        return ExitStatus.usage
    }
}
