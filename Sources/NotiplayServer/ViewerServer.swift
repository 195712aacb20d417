package import NotiplayCenterClient
import NotiplaySystem
package import NotiplayTerminal
import Synchronization
import SystemPackage

/// The center's viewer socket (`viewer.sock`, next to `center.sock`): a terminal that attaches
/// (`notiplay attach`) sees the center's cards through today's card screen
/// (``TerminalCardDriver``), which runs here on the center's deck and draws for the viewer.
///
/// One viewer at a time: a new one takes over, and the one before is told
/// "detached: another terminal attached". `q` (or Ctrl-C) in the card lets the viewer go; the
/// center goes on. The socket is made as the center's is — its folder yours alone (0700), the
/// socket 0600 — and a peer running as another user is refused.
@MainActor
package final class ViewerServer {
    private let path: String
    private let deck: SharedDeck
    private let escapeDelay: Duration
    private var listener: ViewerListener?
    /// The viewer shown now (or waiting for the one before to go).
    private var current: (connection: ViewerConnection, terminal: ViewerCardTerminal?)?
    /// The screen of the viewer shown, until it ends.
    private var screen: Task<Void, Never>?
    /// Every open connection, by a number of its own.
    private var connections: [Int: ViewerConnection] = [:]
    /// The connections whose screen has started (its terminal closes their key pipe).
    private var started: Set<Int> = []
    private var nextID = 0

    /// A viewer socket at `path` for the cards of `deck`.
    package init(path: String, deck: SharedDeck, escapeDelay: Duration = .milliseconds(50)) {
        self.path = path
        self.deck = deck
        self.escapeDelay = escapeDelay
    }

    /// The viewer socket's path for the center socket at `centerPath`: `viewer.sock` beside it.
    package nonisolated static func path(besideCenterSocket centerPath: String) -> String {
        SocketPlace.folder(of: centerPath) + "/viewer.sock"
    }

    /// Binds the socket and starts accepting viewers.
    package func start() throws(CenterSocketError) {
        listener = try ViewerListener(path: path) { [weak self] socket in
            Task { @MainActor in self?.accepted(socket) }
        }
    }

    /// Lets the viewer go ("the center stopped"), closes the socket and removes it.
    package func stop() async {
        listener?.stop()
        listener = nil
        for connection in connections.values { connection.detach("the center stopped") }
        await screen?.value
    }

    private func accepted(_ socket: FileDescriptor) {
        guard listener != nil else { return Posix.close(socket) }
        nextID += 1
        let id = nextID
        let made = try? ViewerConnection(socket: socket) { [weak self] event in
            // After `accepted` returns: the connection is in `connections` by then.
            Task { @MainActor in self?.handle(event, from: id) }
        }
        connections[id] = made
    }

    private func handle(_ event: ViewerConnection.Event, from id: Int) {
        guard let connection = connections[id] else { return }
        switch event {
        case .hello(let columns, let rows, let environment):
            // Stopping: no new screen (``stop()`` has let every connection go).
            guard listener != nil else { return }
            current?.connection.detach("detached: another terminal attached")
            current = (connection, nil)
            let previous = screen
            screen = Task { @MainActor [weak self] in
                await previous?.value
                await self?.show(id, columns: columns, rows: rows, environment: environment)
            }
        case .size(let columns, let rows):
            guard let current, current.connection === connection else { return }
            current.terminal?.resized(columns: columns, rows: rows)
        case .ended:
            connections[id] = nil
            connection.join()
            // Gone (or refused) before its screen started: nobody else closes its key pipe.
            if started.remove(id) == nil { Posix.close(connection.keyInput) }
            if current?.connection === connection && current?.terminal == nil { current = nil }
        }
    }

    /// Runs the card screen for connection `id` until `q`, Ctrl-C, or the viewer goes.
    private func show(_ id: Int, columns: Int, rows: Int, environment: [String: String]) async {
        // Taken over, or gone, meanwhile.
        guard let connection = connections[id], current?.connection === connection else { return }
        started.insert(id)
        let terminal = ViewerCardTerminal(connection: connection, columns: columns, rows: rows)
        current = (connection, terminal)
        let member = deck.member()
        let driver = TerminalCardDriver(terminal: { terminal }, environment: environment, escapeDelay: escapeDelay)
        _ = await driver.present(deck: member, keys: KeyScript())
        terminal.close()
        connection.detach("")
        if current?.connection === connection { current = nil }
    }
}

/// The viewer socket's listening thread: accepts, checks the peer's user, and hands each
/// connection on.
private final class ViewerListener: Sendable {
    private let listener: FileDescriptor
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    private let identity: SocketPlace.Identity
    private let path: String
    private let thread: Mutex<SystemThread?>

    init(path: String, accepted: @escaping @Sendable (FileDescriptor) -> Void) throws(CenterSocketError) {
        self.path = path
        try SocketPlace.prepare(path, owner: Posix.effectiveUserID)
        let listener: FileDescriptor
        do { listener = try Posix.unixStreamSocket(nonBlocking: true) } catch { throw CenterSocketError(error, path: path) }
        do throws(CenterSocketError) {
            do { try Posix.bind(listener, toPath: path) } catch { throw CenterSocketError(error, path: path) }
            identity = try SocketPlace.finishBinding(path)
            do {
                try Posix.listen(listener)
                wake = try Posix.pipe()
            } catch { throw CenterSocketError(error, path: path) }
        } catch {
            Posix.close(listener)
            throw error
        }
        self.listener = listener
        let wake = wake
        let policy = PeerPolicy(userID: Posix.effectiveUserID)
        do {
            thread = Mutex(
                try SystemThread.start(name: "notiplay-viewers") {
                    Self.serve(listener: listener, wake: wake.readEnd, policy: policy, accepted: accepted)
                })
        } catch {
            [listener, wake.readEnd, wake.writeEnd].forEach(Posix.close)
            SocketPlace.removeIfOurs(path, identity: identity)
            throw CenterSocketError(error, path: path)
        }
    }

    private static func serve(
        listener: FileDescriptor, wake: FileDescriptor, policy: PeerPolicy, accepted: @Sendable (FileDescriptor) -> Void
    ) {
        while true {
            var entries = [Posix.PollEntry(file: wake, events: .readable), Posix.PollEntry(file: listener, events: .readable)]
            guard (try? Posix.poll(&entries, timeout: nil)) != nil else { return }
            if !entries[0].found.isEmpty { return }
            guard !entries[1].found.isEmpty else { continue }
            while let socket = try? Posix.accept(listener) {
                guard let peer = try? Posix.peerCredentials(socket) else {
                    Posix.close(socket)
                    continue
                }
                let credentials = PeerCredentials(pid: peer.processID, uid: peer.userID, gid: peer.groupID)
                if let reason = policy.refusal(of: credentials) {
                    _ = try? ViewerMessage.detached("refused: \(reason)").frame.withUnsafeBytes { try Posix.send(socket, $0) }
                    Posix.close(socket)
                    continue
                }
                accepted(socket)
            }
        }
    }

    /// Stops accepting, closes the socket and removes its file.
    func stop() {
        guard let thread = thread.withLock({ thread -> SystemThread? in
            defer { thread = nil }
            return thread
        }) else { return }
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { try Posix.write(wake.writeEnd, $0) }
        thread.join()
        [listener, wake.readEnd, wake.writeEnd].forEach(Posix.close)
        SocketPlace.removeIfOurs(path, identity: identity)
    }
}
