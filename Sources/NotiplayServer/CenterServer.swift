package import Notiplay
package import NotiplayCenter
import NotiplayCenterClient
package import NotiplayCore
package import NotiplayFreedesktop
package import NotiplayFreedesktopBridge
package import NotiplayPlayback
import Synchronization

/// The notification center as one running thing: the durable store, the center that presents
/// what arrives, its socket for `send`, `list` and the app-side center, the desktop's
/// notification server on the session bus (optional), and arrival sounds, wired once here.
///
/// A host makes it, observes its events (``service``'s `observe`), starts it, hands ``service``
/// to a card driver as its deck, and stops it when the driver ends:
///
/// ```swift
/// let server = try CenterServer(configuration)
/// server.service.observe { event in print(event) }
/// try await server.start()
/// // ... present server.service's cards ...
/// await server.stop()
/// ```
@MainActor
package final class CenterServer {
    /// Everything a center is made of.
    package struct Configuration {
        /// The durable store (see ``openStore(folder:time:)``).
        package var store: CenterStore
        /// The store's folder (the bundled chime is written there).
        package var storeFolder: String
        /// The socket's path.
        package var socketPath: String
        /// The apps presented for (the built-in one first); with ``freedesktop``, the desktop app
        /// is added.
        package var apps: [CenterService.App]
        /// The extension types the apps' extensions name.
        package var types: ExtensionTypes
        /// The card's media plays here.
        package var engine: any PlaybackEngine
        /// Arrival sounds play here (an engine of their own); `nil`: no arrival sounds.
        package var soundEngine: (any PlaybackEngine)?
        /// The XDG data folders a named sound is looked up in.
        package var soundDataDirectories: [String] = []
        /// How cards are presented (environment, width).
        package var presentation = PresentationSession.Configuration()
        /// The clock of every card's events.
        package var clock = EventClock()
        /// The center's time (system, or virtual for tests).
        package var time: CenterTime = .system
        /// Apps refused notifications.
        package var denied: Set<String> = []
        /// How much of the history to keep.
        package var retention: (count: Int, age: Duration?)?
        /// The presentation policy.
        package var policy = CenterDeck.Policy()
        /// The desktop's notification server, if this center is to be it.
        package var freedesktop: Freedesktop?
        /// The configuration in force at start (its rules, its default volume).
        package var config = CenterConfig()
        /// Reads the configuration again, on ``CenterServer/reloadConfiguration()`` and the
        /// `reload` request; `nil`: there is nothing to reload.
        package var configLoader: (@MainActor () throws(CenterConfigError) -> CenterConfig)?
        /// How to start a presenter process for a card whose extension is an author's (see
        /// ``CenterService/presenterLaunch``); `nil`: every card is presented in this process.
        package var presenterLaunch: PresenterLaunch?
        /// The XDG sound theme the default arrival sound is looked up in first.
        package var soundTheme = "freedesktop"

        /// A configuration with the essentials; the rest as their defaults say.
        package init(
            store: CenterStore, storeFolder: String, socketPath: String, apps: [CenterService.App], types: ExtensionTypes,
            engine: any PlaybackEngine
        ) {
            self.store = store
            self.storeFolder = storeFolder
            self.socketPath = socketPath
            self.apps = apps
            self.types = types
            self.engine = engine
        }
    }

    /// How the center is the desktop's notification server.
    package struct Freedesktop {
        /// The session bus's address.
        package var address: String
        /// Take the name from the server that owns it.
        package var replace: Bool
        /// How `Notify` calls are mapped.
        package var mapping: FreedesktopMapping.Options
        /// The version `GetServerInformation` gives.
        package var version: String
        /// Called (on the bus's thread) when another server took the name, or the bus went away.
        package var onNameLost: @Sendable () -> Void

        /// The desktop server's settings.
        package init(
            address: String, replace: Bool, mapping: FreedesktopMapping.Options, version: String,
            onNameLost: @escaping @Sendable () -> Void
        ) {
            self.address = address
            self.replace = replace
            self.mapping = mapping
            self.version = version
            self.onNameLost = onNameLost
        }
    }

    /// Why the center could not start.
    package enum Failure: Error {
        /// The store could not be opened.
        case store(CenterStoreError)
        /// The socket could not be made (another server runs, or its folder is not usable).
        case socket(NotiplayError)
        /// The desktop server: another server keeps the name (`FreedesktopNameTaken`), or the bus
        /// could not be reached.
        case bus(any Error)
    }

    /// The center itself: its events, its deck of cards, its requests.
    package let service: CenterService
    private let configuration: Configuration
    private let waiters = ResponseWaiters()
    private var socket: CenterSocketServer?
    private var bridge: FreedesktopBridge?
    /// The desktop server that kept `org.freedesktop.Notifications`, did not hand it over to
    /// `--replace`, and was asked to end so that this one could take it.
    package private(set) var stoppedNameOwner: FreedesktopNameOwner?

    /// Opens the store in `folder` on `time`, before anything else starts: a store that cannot be
    /// opened stops the server before any engine or extension runs.
    package nonisolated static func openStore(folder: String, time: CenterTime) throws(Failure) -> CenterStore {
        do { return try CenterStore.open(folder: folder, now: { time.now }) } catch { throw .store(error) }
    }

    /// Makes the center (with its desktop bridge, when configured), without starting anything:
    /// observe ``service`` first, then ``start()``.
    package init(_ configuration: Configuration) {
        self.configuration = configuration
        let store = configuration.store
        var apps = configuration.apps
        var types = configuration.types
        if configuration.freedesktop != nil {
            if !apps.contains(where: { $0.definition.name == FreedesktopApp.name }) { apps.append(FreedesktopApp.app()) }
            FreedesktopApp.register(in: &types)
        }
        service = CenterService(
            store: store, apps: apps, types: types, engine: configuration.engine, configuration: configuration.presentation,
            clock: configuration.clock, time: configuration.time, policy: configuration.policy)
        service.deniedApps = configuration.denied
        service.config = configuration.config
        service.configLoader = configuration.configLoader
        service.retention = configuration.retention
        service.presenterLaunch = configuration.presenterLaunch
        service.serviceConfiguration.environment = configuration.presentation.environment
        if let soundEngine = configuration.soundEngine {
            let folders = Dictionary(apps.map { ($0.definition.name, $0.soundsFolder) }, uniquingKeysWith: { first, _ in first })
            var resolver = ArrivalSoundResolver(
                dataDirectories: configuration.soundDataDirectories, chimeFolder: configuration.storeFolder,
                soundsFolder: { folders[$0] ?? nil })
            resolver.theme = configuration.soundTheme
            service.arrivalSounds = ArrivalSoundPlayer(engine: soundEngine, resolver: resolver)
        }
        if let desktop = configuration.freedesktop {
            bridge = FreedesktopBridge(service: service, mapping: FreedesktopMapping(options: desktop.mapping), version: desktop.version)
        }
        service.observe { [weak self] event in self?.answerWaiters(event) }
    }

    /// Listens on the socket, takes the desktop's name on the bus (when configured), and shows
    /// what the store holds: the first card is shown once every part is up.
    package func start() async throws(Failure) {
        let waiters = waiters
        let serving = Mutex<CenterSocketServer?>(nil)
        do {
            socket = try CenterSocketServer(path: configuration.socketPath) { [service] request, peer in
                await MainActor.run {
                    service.answer(request) { identifier, requestID in
                        let waiter = ResponseWaiters.Waiter(connection: peer.connection, requestID: requestID)
                        guard let replaced = waiters.add(waiter, for: identifier) else { return }
                        serving.withLock { $0 }?.push(
                            ResponseWaiters.event(for: replaced, identifier: identifier, action: ResponseWaiters.replacedAction),
                            to: replaced.connection)
                    }
                }
            }
        } catch {
            throw .socket(error.notiplayError)
        }
        serving.withLock { $0 = socket }
        if let bridge, let desktop = configuration.freedesktop {
            do {
                try await bridge.start(address: desktop.address, replace: desktop.replace, onNameLost: desktop.onNameLost)
            } catch {
                var failure: any Error = error
                if desktop.replace, let taken = error as? FreedesktopNameTaken,
                    let outcome = await stopNameOwner(taken, bridge: bridge)
                {
                    switch outcome {
                    case .success(let owner): stoppedNameOwner = owner
                    case .failure(let stillTaken): failure = stillTaken
                    }
                }
                if stoppedNameOwner == nil {
                    await bridge.stop()
                    self.bridge = nil
                    socket?.stop()
                    throw .bus(failure)
                }
            }
        }
        do { try service.restore() } catch {
            await stop()
            throw .store(error)
        }
        bridge?.restore()
    }

    /// Stops everything: the bus, the cards and their media, the socket.
    package func stop() async {
        await bridge?.stop()
        bridge = nil
        await service.close()
        socket?.stop()
        socket = nil
    }

    /// A client waiting with `send --wait` gets its notification's response, or hears that it
    /// ended otherwise.
    private func answerWaiters(_ event: CenterService.Event) {
        guard let socket else { return }
        switch event {
        case .response(let response):
            guard let waiter = waiters.take(response.identifier) else { return }
            socket.push(
                ResponseWaiters.event(for: waiter, identifier: response.identifier, action: response.action, text: response.text),
                to: waiter.connection)
        case .removed(let identifiers, let reason):
            let action = reason == .expired ? ResponseWaiters.expiredAction : ResponseWaiters.removedAction
            for identifier in identifiers {
                guard let waiter = waiters.take(identifier) else { continue }
                socket.push(ResponseWaiters.event(for: waiter, identifier: identifier, action: action), to: waiter.connection)
            }
        default:
            break
        }
    }
}
