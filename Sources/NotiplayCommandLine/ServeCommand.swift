#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import Logging
import Notiplay
import NotiplayCenter
import NotiplayCenterClient
import NotiplayCore
import NotiplayDBus
import NotiplayFreedesktop
import NotiplayFreedesktopBridge
import NotiplayPlayback
import NotiplayServer
import NotiplaySystem
package import NotiplayTerminal
import SystemPackage

/// `notiplay serve`: the notification center in a terminal.
struct ServeCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve",
            abstract: "Run the notification center: show what `\(NotiplayCLI.commandName) send` hands it, one card at a time.",
            discussion: """
                Stores every notification durably ($XDG_STATE_HOME/notiplay, else \
                ~/.local/state/notiplay) and listens on $XDG_RUNTIME_DIR/notiplay/center.sock (else \
                /tmp/notiplay-UID/center.sock). The card, its keys and its media button are deliver's. \
                The newest card shows unless the shown one is playing or was just touched (then it is \
                next); critical ones go first; a card whose sound had to wait plays when the media ahead \
                ends. Waiting cards are listed under the card; n and N move between them, X dismisses \
                them all, ? lists every key, q quits. A notification names its app with send \
                --app (default notiplay, the built-in app); the server presents for each --app FILE and \
                every *.app.json in $XDG_CONFIG_HOME/notiplay/apps (else ~/.config/notiplay/apps). \
                With --headless the center also listens on viewer.sock beside center.sock: `\(NotiplayCLI.commandName) \
                attach` shows its cards in any terminal, q there detaches, and the center goes on. \
                Ended notifications stay in the history until --keep-history or --keep-days lets them \
                go. Defaults and rules come from $XDG_CONFIG_HOME/notiplay/notiplay.conf (else \
                ~/.config/notiplay/notiplay.conf) or --config FILE; options given here win; a headless \
                server reads it again on SIGHUP, any server on `\(NotiplayCLI.commandName) reload`. Exits 65 \
                for an app or configuration file that is not valid, 66 when --config names no file, 69 \
                when a server already runs, 73 or 74 when the store cannot be opened.
                """)
    }

    @Option(help: ArgumentHelp("An app file to present for; repeatable.", valueName: "file"), completion: .file())
    var app: [String] = []

    @Flag(help: "No terminal: print events; keys from --keys, then a line at a time from standard input.")
    var headless = false

    @Option(help: ArgumentHelp("Keys to feed first, as deliver's --keys.", valueName: "keys"), transform: { text throws(KeyScript.UnknownKey) in try KeyScript(parsing: text) })
    var keys: KeyScript?

    @Option(help: "Print events as JSON lines (default: readable lines).")
    var events: EventFormat?

    @Option(help: ArgumentHelp("The configuration file (default: $XDG_CONFIG_HOME/notiplay/notiplay.conf, if it exists).", valueName: "file"), completion: .file())
    var config: String?

    @Option(help: ArgumentHelp("Keep at most this many ended notifications in the history (default 100000).", valueName: "n"))
    var keepHistory: Int?

    @Option(help: ArgumentHelp("Forget ended notifications after this many days (default 90).", valueName: "days"))
    var keepDays: Double?

    @Option(help: ArgumentHelp("The clock scheduled notifications fire on: system, or virtual (moved only by `\(NotiplayCLI.commandName) clock --advance`, for tests).", valueName: "clock"))
    var clock: ClockKind = .system

    @Option(help: ArgumentHelp("Where a virtual clock starts, local time (default: now).", valueName: "YYYY-MM-DDTHH:MM[:SS]"))
    var start: LocalDateArgument?

    @Option(help: ArgumentHelp("An app refused notifications (its requestAuthorization answers false, its sends fail); repeatable.", valueName: "app"))
    var deny: [String] = []

    @Flag(help: "Also be the desktop's notification server: own org.freedesktop.Notifications on the session bus.")
    var freedesktop = false

    @Flag(help: "With --freedesktop, take the name over from the server that owns it; one of yours that does not hand it over (dunst, mako, xfce4-notifyd) is asked to end (SIGTERM).")
    var replace = false

    @Option(help: ArgumentHelp("With --freedesktop, how long a low or normal notification that leaves it to the server (expire_timeout -1) stays on screen; 0: until dismissed (default 10).", valueName: "seconds"))
    var expire: Double?

    @Option(help: ArgumentHelp("The same for a critical one (default 0: until dismissed).", valueName: "seconds"))
    var expireCritical: Double?

    @OptionGroup var output: OutputOptions

    @OptionGroup var media: MediaRootOptions

    /// `--expire` and `--expire-critical` (else the configuration's `expire` and
    /// `expire-critical`, else 10 and 0) as the mapping's defaults (0: never).
    func expiryDefaults(_ file: ConfigDefaults) -> FreedesktopExpiryDefaults {
        func expiry(_ seconds: Double) -> FreedesktopExpiry { seconds == 0 ? .never : .after(milliseconds: Int((seconds * 1000).rounded())) }
        let normal = expiry(expire ?? file.expire ?? 10)
        return FreedesktopExpiryDefaults(low: normal, normal: normal, critical: expiry(expireCritical ?? file.expireCritical ?? 0))
    }

    enum ClockKind: String, CaseIterable, ExpressibleByArgument {
        case system, virtual
    }

    func validate() throws {
        if start != nil && clock != .virtual { throw ValidationError("--start is for --clock virtual") }
        if let keepHistory, keepHistory < 0 { throw ValidationError("--keep-history must be 0 or more") }
        if let keepDays, !(keepDays > 0 && keepDays <= 36_500) { throw ValidationError("--keep-days must be more than 0 and at most 36500") }
        for (name, seconds) in [("--expire", expire), ("--expire-critical", expireCritical)] {
            guard let seconds, !(seconds >= 0 && seconds <= 86_400) else { continue }
            throw ValidationError("\(name) must be 0 (never) or a number of seconds up to 86400")
        }
    }

    func run() async throws {
        // A server outlives whoever reads its events: once that reader is gone, writing an event
        // fails (and is dropped) instead of killing the server between storing a notification
        // and answering its sender.
        Posix.setDisposition(.ignore, for: SignalNumber.brokenPipe)
        let configFile = ServeConfig(option: config)
        let settings = try configFile.loadAtStart()
        let defaults = settings.defaults
        let storeFolder = defaults.store ?? CenterPlaces.storeFolder
        let builtIn = freedesktop ? [FreedesktopApp.app()] : []
        let apps = try ServeApps.load(files: app, builtIn: builtIn)
        let mediaFolders = try media.folders()
        let time: CenterTime = clock == .virtual ? .virtual(startingAt: start?.date ?? Date()) : .system
        let store: CenterStore
        do { store = try CenterServer.openStore(folder: storeFolder, time: time) } catch {
            throw ExitCode(Self.status(of: error))
        }
        for warning in store.warnings { Diagnostics.shared.report("warning: \(warning)") }
        // Every way out (q, a signal, an error before serving) leaves the store whole in
        // center.sqlite, its -wal emptied.
        defer { Self.close(store) }
        let desktop = try freedesktop ? freedesktopSettings(defaults) : nil
        // Extensions run from here on: what they print becomes log events (headless) or waits for
        // the terminal card to be gone.
        let clock = EventClock()
        let capture = OutputCapture.start(
            headless ? .events(clock: clock, render: DeliverCommand.render(jsonl: events == .jsonl)) : .collect,
            redirect: NotiplayCLI.ownsProcess)
        let engine = try output.audio.startEngine(untimed: output.untimed)
        // Arrival sounds play on an engine of their own: a sound never unloads the card's media.
        let soundEngine = defaults.sounds == false ? nil : try output.audio.arrivalSounds.startEngine(untimed: output.untimed)
        var configuration = CenterServer.Configuration(
            store: store, storeFolder: storeFolder, socketPath: CenterPlaces.socketPath, apps: apps,
            types: NotiplayCLI.types, engine: engine)
        configuration.soundEngine = soundEngine
        configuration.config = settings
        configuration.configLoader = { () throws(CenterConfigError) -> CenterConfig in try configFile.load() }
        if let theme = defaults.soundTheme { configuration.soundTheme = theme }
        configuration.soundDataDirectories = ArrivalSoundResolver.dataDirectories(xdgDataDirs: processEnvironment["XDG_DATA_DIRS"])
        configuration.presentation.environment = hostEnvironment(mediaFolders: mediaFolders)
        if !headless, let columns = TerminalSize.current(fd: 1, environment: processEnvironment)?.columns {
            configuration.presentation.cardColumns = columns
        }
        configuration.clock = clock
        configuration.time = time
        configuration.denied = Set(deny)
        let days = keepDays ?? defaults.keepDays ?? 90
        configuration.retention = (
            count: keepHistory ?? defaults.keepHistory ?? 100_000, age: Duration.milliseconds(Int64(days * 86_400_000))
        )
        configuration.freedesktop = desktop
        // An author's extension presents in a process of its own: its crash costs its card.
        let words = NotiplayCLI.arguments
        if let at = words.firstIndex(of: "serve") {
            // The apps of app files (after the built-in ones): their extensions are authors'.
            let authored = Set(apps.dropFirst(1 + builtIn.count).map(\.definition.name))
            configuration.presenterLaunch = PresentCardCommand.launch(serveArguments: Array(words[(at + 1)...]), apps: authored)
        }
        let status = await Self.serve(configuration, headless: headless, keys: keys ?? KeyScript(), capture: capture)
        await engine.shutdown()
        await soundEngine?.shutdown()
        if status != 0 { throw ExitCode(status) }
    }

    /// `--freedesktop`'s settings, or exit 69 without a session bus (``SessionBusAddress``).
    private func freedesktopSettings(_ file: ConfigDefaults) throws -> CenterServer.Freedesktop {
        guard let address = SessionBusAddress.find(in: processEnvironment) else {
            Diagnostics.shared.report("--freedesktop: \(SessionBusAddress.missing)")
            throw ExitCode(ExitStatus.unavailable)
        }
        let mapping = FreedesktopMapping.Options(
            dataDirectories: ArrivalSoundResolver.dataDirectories(xdgDataDirs: processEnvironment["XDG_DATA_DIRS"]),
            defaultExpiry: expiryDefaults(file))
        return CenterServer.Freedesktop(address: address, replace: replace, mapping: mapping, version: NotiplayCLI.version) {
            Diagnostics.shared.report("--freedesktop: another server took org.freedesktop.Notifications, or the bus went away")
        }
    }

    /// Makes the center and starts it, presents its cards (in the terminal, or headless) until `q` or a
    /// signal, and stops it; returns the exit status.
    @MainActor
    static func serve(
        _ configuration: CenterServer.Configuration, headless: Bool, keys: KeyScript, capture: OutputCapture
    ) async -> Int32 {
        let server = CenterServer(configuration)
        let service = server.service
        if headless {
            // The events (and what the extensions print, as log events) in order.
            service.observe { event in
                if case .presentation(let logged) = event {
                    capture.emit(logged.line)
                } else if let line = Self.line(event, at: service.clock.seconds()) {
                    capture.emit(line)
                }
            }
        }
        // Headless, the signals are watched before the server starts: one that comes as it
        // starts (a client that saw its first card) ends it once it has started, rather than
        // falling between the start and the watch.
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let watch = headless ? InterruptWatch(hangUp: false, signal: { continuation.yield($0) }) : nil
        defer { watch?.cancel() }
        do { try await server.start() } catch {
            return status(of: error)
        }
        if let owner = server.stoppedNameOwner { Diagnostics.shared.report(NameOwnerMessage.stopped(owner)) }
        let end: CardEnd
        if headless {
            // Headless, SIGHUP reloads the configuration, as daemons do; in a terminal it means
            // the terminal went away, and the server ends.
            let reloads = SignalWatch(SignalNumber.hangUp) { Task { @MainActor in service.reloadConfiguration() } }
            defer { reloads.cancel() }
            // Terminals attach through the viewer socket; the key lines and the viewer share the deck.
            let deck = SharedDeck(service)
            let viewers = ViewerServer(path: ViewerServer.path(besideCenterSocket: configuration.socketPath), deck: deck)
            do { try viewers.start() } catch {
                await server.stop()
                return status(of: .socket(error.notiplayError))
            }
            let driver = HeadlessDeckDriver(deck: deck.member())
            driver.onBadLine = { _, problem in Diagnostics.shared.report("standard input: \(problem)") }
            let lines = InputLines.start(input: .standardInput) {
                Diagnostics.shared.report("standard input: holds a NUL byte, so it is not lines of keys; it is no longer read")
            }
            end = await driver.present(keys: keys, lines: lines, signals: signals)
            await viewers.stop()
        } else {
            end = await TerminalCardDriver(output: capture.standardOutput.rawValue, environment: processEnvironment)
                .present(deck: service, keys: keys)
        }
        await server.stop()
        switch end {
        case .closed: return 0
        case .interrupted(let signal): return 128 + signal
        case .unavailable(let message):
            Diagnostics.shared.report(message)
            return ExitStatus.unavailable
        }
    }

    /// Checkpoints and closes the store; a failure is said (what was stored stays in the -wal, as
    /// durable) and does not change how the server ends.
    static func close(_ store: CenterStore) {
        do { try store.close() } catch {
            Diagnostics.shared.report("warning: \(error)")
        }
    }

    /// Says why the server could not start, and the exit status for it.
    static func status(of failure: CenterServer.Failure) -> Int32 {
        switch failure {
        case .store(let error):
            Diagnostics.shared.report(error.description)
            return CenterPlaces.status(of: error)
        case .socket(let error):
            Diagnostics.shared.report(error.description)
            return ExitStatus.of(error.kind)
        case .bus(let taken as FreedesktopNameTaken):
            Diagnostics.shared.report("--freedesktop: \(NameOwnerMessage.text(taken))")
            return ExitStatus.unavailable
        case .bus(let error as DBusNameError):
            Diagnostics.shared.report("--freedesktop: \(error)")
            return ExitStatus.unavailable
        case .bus(let error):
            Diagnostics.shared.report("--freedesktop: cannot reach the session bus: \(error)")
            return ExitStatus.unavailable
        }
    }
}

extension CenterService: CardDeck {
    /// The waiting cards as the terminal lists them, aged on the center's time.
    package func queuedCards(limit: Int) -> [QueuedCard] {
        let now = time.now
        return waitingCards(limit: limit).map {
            QueuedCard(app: $0.app, title: $0.title, age: now.timeIntervalSince($0.arrived), critical: $0.critical)
        }
    }
}
