import ArgumentParser
import Notiplay
import NotiplayCenter
import NotiplayPlayback
import NotiplaySystem
import SystemPackage

/// `notiplay __present-card SERVE-ARGUMENTS…`: a presenter process of `serve`, run by
/// ``NotiplayCLI`` before the command tree is parsed (no help, man page or completion names it). The server
/// starts one per card whose content extension is an author's, with descriptor 3 a socket to it,
/// and its own arguments after the command's name: the presenter loads the same apps and plays
/// on the same audio output. It presents the card, then ends; a crash of the extension ends it
/// alone, and the server shows the card with the default card.
struct PresentCardCommand: AsyncParsableCommand {
    /// The command's name.
    static let name = "__present-card"

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: name, abstract: "A card's presenter process, started by serve.", shouldDisplay: false)
    }

    @Argument(parsing: .captureForPassthrough)
    var serveArguments: [String] = []

    /// How a server started with `arguments` (what follows `serve`) starts its presenters, for
    /// `apps` (those of its app files).
    static func launch(serveArguments arguments: [String], apps: Set<String>) -> PresenterLaunch? {
        guard let executable = Posix.executablePath else { return nil }
        return PresenterLaunch(executable: executable, arguments: [name] + arguments, apps: apps)
    }

    func run() async throws {
        // A signal to the server's process group (Ctrl-C in cooked mode, a service manager's
        // SIGTERM to the group) is the server's to handle: it closes its presenters. Ended by it
        // here, a card would pass for crashed.
        for signal in [SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp, SignalNumber.quit] {
            Posix.setDisposition(.ignore, for: signal)
        }
        let serve = try ServeCommand.parse(serveArguments)
        let apps = try ServeApps.load(files: serve.app).map {
            PresenterHost.App(definition: $0.definition, registry: $0.registry)
        }
        // Descriptors 1 and 2 are the server's capture: what the extension prints becomes the
        // server's log events (and the audio stack's lines its native logger's), as in the server.
        AudioOutputArgument.capturing = true
        let engine = try serve.output.audio.startEngine(untimed: serve.output.untimed)
        var configuration = PresentationSession.Configuration()
        configuration.environment = hostEnvironment(mediaFolders: try serve.media.folders())
        await Self.present(apps: apps, engine: engine, configuration: configuration)
        await engine.shutdown()
    }

    @MainActor
    private static func present(
        apps: [PresenterHost.App], engine: any PlaybackEngine, configuration: PresentationSession.Configuration
    ) async {
        let host = PresenterHost(
            socket: FileDescriptor(rawValue: 3), apps: apps, types: NotiplayCLI.types, engine: engine,
            configuration: configuration)
        await host.run()
    }
}
