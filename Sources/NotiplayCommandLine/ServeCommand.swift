import ArgumentParser
import Logging
import Notiplay
import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTerminal
import Synchronization
import SystemPackage
@preconcurrency import Glibc

/// `notiplay serve`: the notification center in a terminal.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the notification center: show what `notiplay send` hands it, one card at a time.",
        discussion: """
            Stores every notification durably ($XDG_STATE_HOME/notiplay, else \
            ~/.local/state/notiplay) and listens on $XDG_RUNTIME_DIR/notiplay/center.sock (else \
            /tmp/notiplay-UID/center.sock). The card, its keys and its media button are deliver's; \
            n and N move between waiting cards; q quits. A notification names its app with send \
            --app (default notiplay, the built-in app); --app FILE registers an app file. Exits 69 \
            when a server already runs, 73 or 74 when the store cannot be opened.
            """)

    @Option(help: ArgumentHelp("An app file to present for; repeatable.", valueName: "file"), completion: .file())
    var app: [String] = []

    @Flag(help: "No terminal: print events, take keys from --keys.")
    var headless = false

    @Option(help: ArgumentHelp("Keys to feed first, as deliver's --keys.", valueName: "keys"), transform: { text throws(KeyScript.UnknownKey) in try KeyScript(parsing: text) })
    var keys: KeyScript?

    @Option(help: "Print events as JSON lines (default: readable lines).")
    var events: EventFormat?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        var apps = [CenterService.App(definition: .standard, registry: .empty)]
        for file in app {
            let definition: AppDefinition
            do { definition = try AppDefinition.decodeFile(file) } catch { throw error.notiplayError }
            var registry = ExtensionRegistry.empty
            if let folder = definition.extensionsDirectory {
                do { registry = try ExtensionRegistry.load(folder: folder) } catch {
                    throw error.failures.last?.notiplayError ?? NotiplayError(.badData, file: folder, "cannot be loaded")
                }
            }
            apps.append(CenterService.App(definition: definition, registry: registry))
        }
        let store: CenterStore
        do { store = try CenterStore.open(folder: CenterPlaces.storeFolder) } catch {
            Diagnostics.shared.report(error.description)
            throw ExitCode(CenterPlaces.status(of: error))
        }
        let engine = try output.audio.startEngine(untimed: output.untimed)
        let status = await Self.serve(
            store: store, apps: apps, engine: engine, headless: headless, keys: keys ?? KeyScript(), jsonl: events == .jsonl)
        await engine.shutdown()
        if status != 0 { throw ExitCode(status) }
    }

    @MainActor
    static func serve(
        store: CenterStore, apps: [CenterService.App], engine: MPVEngine, headless: Bool, keys: KeyScript, jsonl: Bool
    ) async -> Int32 {
        var configuration = PresentationSession.Configuration()
        configuration.environment = hostEnvironment()
        let service = CenterService(
            store: store, apps: apps, types: NotiplayCLI.types, engine: engine, configuration: configuration)
        let clock = EventClock()
        let print: @MainActor (EventLine) -> Void = { line in
            _ = try? FileDescriptor.standardOutput.writeAll(((jsonl ? line.json : DeliverCommand.readable(line)) + "\n").utf8)
        }
        if headless {
            service.onEvent = { event in print(Self.line(event, at: clock.seconds())) }
            service.onPresentationEvent = { logged in print(logged.line) }
        }
        let server: CenterSocketServer
        let waiting = Mutex<[String: CenterConnectionID]>([:])
        do {
            server = try CenterSocketServer(path: CenterPlaces.socketPath) { request, peer in
                return await MainActor.run {
                    service.answer(request) { identifier in
                        waiting.withLock { $0[identifier] = peer.connection }
                    }
                }
            }
        } catch {
            let failure = error.notiplayError
            Diagnostics.shared.report(failure.description)
            return ExitStatus.of(failure.kind)
        }
        defer { server.stop() }
        service.onResponse = { response in
            guard let connection = waiting.withLock({ $0.removeValue(forKey: response.identifier) }) else { return }
            server.push(
                .response(ResponseEvent(requestID: 0, identifier: response.identifier, action: response.action, text: response.text)),
                to: connection)
        }
        do { try service.restore() } catch {
            Diagnostics.shared.report(error.description)
            return CenterPlaces.status(of: error)
        }
        let end: CardEnd
        if headless {
            if let shown = service.shownSession { _ = await keys.run(on: shown, moveCard: { service.move(by: $0) }) }
            end = .interrupted(signal: await Self.untilInterrupted())
        } else {
            end = await TerminalCardDriver(environment: processEnvironment).present(deck: service, keys: keys)
        }
        await service.close()
        switch end {
        case .closed: return 0
        case .interrupted(let signal): return 128 + signal
        case .unavailable(let message):
            Diagnostics.shared.report(message)
            return ExitStatus.unavailable
        }
    }

    /// Waits for SIGINT, SIGTERM or SIGHUP; returns its number.
    static func untilInterrupted() async -> Int32 {
        let box = Mutex<InterruptWatch?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            box.withLock { $0 = InterruptWatch { continuation.resume() } }
        }
        let watch = box.withLock { $0 }
        watch?.cancel()
        return watch?.fired ?? 2
    }

    /// A center event as an event line.
    static func line(_ event: CenterService.Event, at t: Double) -> EventLine {
        switch event {
        case .arrived(let identifier, let app, let queued):
            EventLine("arrived", t: t, [("identifier", .string(identifier)), ("app", .string(app)), ("waiting", .integer(queued))])
        case .removed(let identifiers):
            EventLine("removed", t: t, [("identifiers", .string(identifiers.joined(separator: ",")))])
        case .shown(let identifier):
            EventLine("shown", t: t, [("identifier", identifier.map { .string($0) } ?? .null)])
        }
    }
}

extension CenterService: CardDeck {}
