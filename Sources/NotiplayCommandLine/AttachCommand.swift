import ArgumentParser
import NotiplayCenterClient
import NotiplayCore
import NotiplayServer
import NotiplaySystem
import NotiplayTerminal
import SystemPackage

/// `notiplay attach`: the running center's cards in this terminal; the center is started in the
/// background first when none runs.
struct AttachCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "attach",
            abstract: "Show the center's cards in this terminal, starting the center in the background if none runs.",
            discussion: """
                The card, its keys, its mouse and its queue are serve's; q (or Ctrl-C) detaches this \
                terminal and the center goes on: it keeps storing, scheduling, answering send and \
                playing sounds. One terminal at a time: attaching elsewhere takes the cards over and \
                this one says "detached: another terminal attached". When no center runs, `\(NotiplayCLI.commandName) \
                serve --headless` is started in a session of its own (its events go to \
                $XDG_STATE_HOME/notiplay/server.log) and attach waits for it; `\(NotiplayCLI.commandName) stop` stops \
                it. Ctrl-Z is a key here (it does nothing). Exits 0 when detached, 69 when standard input \
                and output are not a terminal, when the center vanishes, or when the running center \
                shows its cards in a terminal of its own (serve without --headless).
                """)
    }

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("After --: options for the center attach starts (serve --headless's: --audio null, --app FILE).", valueName: "serve-options"))
    var serveOptions: [String] = []

    func run() throws {
        let status = Self.attach(serveOptions: serveOptions)
        if status != 0 { throw ExitCode(status) }
    }

    /// Attaches this terminal; the exit status.
    static func attach(serveOptions: [String] = []) -> Int32 {
        guard Posix.isTerminal(.standardInput), Posix.isTerminal(.standardOutput) else {
            Diagnostics.shared.report("attach: standard input and output must be a terminal")
            return ExitStatus.unavailable
        }
        let socket: FileDescriptor
        do {
            socket = try connect(serveOptions: serveOptions)
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            Diagnostics.shared.report("attach: \(error)")
            return ExitStatus.unavailable
        }
        switch AttachedViewer.run(socket: socket, environment: processEnvironment) {
        case .detached(let reason):
            if !reason.isEmpty { Diagnostics.shared.report(TerminalText.clean(reason)) }
            return reason.hasPrefix("refused:") ? ExitStatus.unavailable : 0
        case .centerGone:
            Diagnostics.shared.report("attach: the center went away")
            return ExitStatus.unavailable
        case .endOfInput:
            return 0
        case .unavailable(let reason):
            Diagnostics.shared.report("attach: \(TerminalText.clean(reason))")
            return ExitStatus.unavailable
        }
    }

    /// The viewer socket, connected: the running center's, or one started now.
    private static func connect(serveOptions: [String]) throws -> FileDescriptor {
        let viewerPath = ViewerServer.path(besideCenterSocket: CenterPlaces.socketPath)
        do {
            return try CenterClient.connectedSocket(to: viewerPath)
        } catch .noServer {
            // No viewer socket: a center in a terminal of its own, or none.
        } catch {
            throw error.notiplayError
        }
        if (try? CenterClient.connectedSocket(to: CenterPlaces.socketPath)).map({ Posix.close($0) }) != nil {
            Diagnostics.shared.report("""
                attach: the center running at \(CenterPlaces.socketPath) shows its cards in a terminal of its own \
                (serve); quit it there, then attach (or run `\(NotiplayCLI.commandName) serve --headless`)
                """)
            throw ExitCode(ExitStatus.unavailable)
        }
        return try BackgroundCenter.start(viewerPath: viewerPath, serveOptions: serveOptions)
    }
}
