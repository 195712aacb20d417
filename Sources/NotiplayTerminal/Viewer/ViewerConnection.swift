package import NotiplaySystem
import Synchronization
package import SystemPackage

/// One viewer's connection to the center's viewer socket, on the server's side: a thread reads
/// its frames (``ViewerMessage``) and writes what is sent to it, so that a viewer that stops
/// reading never holds up the center.
///
/// What the viewer types comes out of ``keyInput`` as the bytes it typed (for
/// ``TerminalEvents``' decoder); its hello, its sizes and its end are told to the `events`
/// handler. Anything that is not a viewer's frame is refused: the peer is told why
/// (``ViewerMessage/detached(_:)``) and the connection is closed. So is a connection whose
/// hello does not come within ``helloTimeout``, or one that has more than ``outputLimit``
/// bytes waiting that it does not read.
package final class ViewerConnection: Sendable {
    /// What the connection hears, told on its thread.
    package enum Event: Sendable, Equatable {
        /// The viewer said hello (first, once).
        case hello(columns: Int, rows: Int, environment: [String: String])
        /// The viewer's terminal has a new size.
        case size(columns: Int, rows: Int)
        /// The connection is closed: the viewer left or was let go (`nil`), or was refused (why).
        case ended(refused: String?)
    }

    /// What the connection's owner hands its thread, under a lock.
    fileprivate final class OutboxBox: Sendable {
        let mutex = Mutex(Outbox())
    }

    fileprivate struct Outbox {
        var bytes: [UInt8] = []
        var closing = false
        var ended = false
        var wakePending = false
    }

    /// The longest message a viewer may send.
    package static let inputLimit = 1 << 16
    /// Output a viewer may leave unread before it is let go.
    package static let outputLimit = 8 << 20
    /// How long a connection may wait before its hello.
    package static let helloTimeout: Duration = .seconds(10)

    /// Where the bytes the viewer types come out; whoever reads them closes it.
    package let keyInput: FileDescriptor
    private let outbox: OutboxBox
    private let wakeWriteEnd: FileDescriptor
    private let thread: Mutex<SystemThread?>

    /// Serves the accepted `socket` (this connection closes it).
    package init(socket: FileDescriptor, events: @escaping @Sendable (Event) -> Void) throws(SystemCallError) {
        let keys: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            try Posix.setNonBlocking(socket)
            keys = try Posix.pipe()
        } catch {
            Posix.close(socket)
            throw error
        }
        do { wake = try Posix.pipe() } catch {
            [socket, keys.readEnd, keys.writeEnd].forEach(Posix.close)
            throw error
        }
        keyInput = keys.readEnd
        wakeWriteEnd = wake.writeEnd
        let outbox = OutboxBox()
        self.outbox = outbox
        let loop = ViewerConnectionLoop(
            socket: socket, keyOutput: keys.writeEnd, wakeReadEnd: wake.readEnd, wakeWriteEnd: wake.writeEnd, outbox: outbox,
            events: events)
        let started: SystemThread
        do {
            started = try SystemThread.start(name: "notiplay-viewer") { loop.run() }
        } catch {
            loop.finish(refused: nil)
            Posix.close(keys.readEnd)
            throw error
        }
        thread = Mutex(started)
    }

    /// Sends `message` (after what was sent before); dropped once the connection is closing.
    package func send(_ message: ViewerMessage) {
        outbox.mutex.withLock { box in
            guard !box.closing, !box.ended else { return }
            box.bytes += message.frame
            if box.bytes.count > Self.outputLimit {
                box.bytes.removeAll()
                box.closing = true
            }
            Self.wake(&box, wakeWriteEnd)
        }
    }

    /// Lets the viewer go: tells it `reason` (empty after `q`), then closes the connection.
    package func detach(_ reason: String) {
        outbox.mutex.withLock { box in
            guard !box.closing, !box.ended else { return }
            box.bytes += ViewerMessage.detached(reason).frame
            box.closing = true
            Self.wake(&box, wakeWriteEnd)
        }
    }

    /// Waits until the connection's thread has ended (after ``detach(_:)``, or the viewer left).
    package func join() {
        thread.withLock { thread -> SystemThread? in
            defer { thread = nil }
            return thread
        }?.join()
    }

    fileprivate static func wake(_ box: inout Outbox, _ file: FileDescriptor) {
        guard !box.wakePending else { return }
        box.wakePending = true
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { try Posix.write(file, $0) }
    }
}

/// The connection's thread: reads and cuts frames, writes the outbox, and ends the connection.
private final class ViewerConnectionLoop: @unchecked Sendable {
    let socket: FileDescriptor
    let keyOutput: FileDescriptor
    let wakeReadEnd: FileDescriptor
    let wakeWriteEnd: FileDescriptor
    let outbox: ViewerConnection.OutboxBox
    let events: @Sendable (ViewerConnection.Event) -> Void
    private var reader = ViewerFrameReader(limit: ViewerConnection.inputLimit)
    private var greeted = false
    private var pending: [UInt8] = []
    private var closing = false
    private var refusal: String?

    init(
        socket: FileDescriptor, keyOutput: FileDescriptor, wakeReadEnd: FileDescriptor, wakeWriteEnd: FileDescriptor,
        outbox: ViewerConnection.OutboxBox, events: @escaping @Sendable (ViewerConnection.Event) -> Void
    ) {
        self.socket = socket
        self.keyOutput = keyOutput
        self.wakeReadEnd = wakeReadEnd
        self.wakeWriteEnd = wakeWriteEnd
        self.outbox = outbox
        self.events = events
    }

    func run() {
        let started = ContinuousClock.now
        var closingSince: ContinuousClock.Instant?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            collect()
            if closing && closingSince == nil { closingSince = .now }
            if closing && pending.isEmpty { break }
            var deadline: ContinuousClock.Instant? = greeted ? nil : started + ViewerConnection.helloTimeout
            if let closingSince { deadline = closingSince + .seconds(2) }  // a last frame the peer does not read
            if let deadline, deadline <= .now {
                if !greeted && !closing { refuse("no hello within \(ViewerConnection.helloTimeout)") } else { break }
                continue
            }
            var interest: Posix.PollEvents = closing ? [] : .readable
            if !pending.isEmpty { interest.insert(.writable) }
            var entries = [Posix.PollEntry(file: wakeReadEnd, events: .readable), Posix.PollEntry(file: socket, events: interest)]
            guard (try? Posix.poll(&entries, timeout: deadline.map { max($0 - .now, .zero) })) != nil else { break }
            if !entries[0].found.isEmpty { drainWake() }
            let found: Posix.PollEvents = entries[1].found
            let broken: Posix.PollEvents = [.error, .hangUp, .invalid]
            if found.contains(.writable) || (!pending.isEmpty && !found.isDisjoint(with: broken)) {
                guard flush() else { break }
            }
            if !closing && !found.isDisjoint(with: broken.union(.readable)) {
                guard read(into: &buffer) else { break }
            }
        }
        finish(refused: refusal)
    }

    /// Takes what was sent from the outbox.
    private func collect() {
        outbox.mutex.withLock { box in
            box.wakePending = false
            pending += box.bytes
            box.bytes.removeAll()
            if box.closing { closing = true }
        }
    }

    /// Reads what came; false at the end of the connection.
    private func read(into buffer: inout [UInt8]) -> Bool {
        let received = buffer.withUnsafeMutableBytes { space in
            Result { () throws(SystemCallError) in try Posix.receive(socket, into: space) }
        }
        guard case .success(let count) = received else { return false }
        guard let count else { return true }
        guard count > 0 else { return false }
        reader.append(buffer[0..<count])
        do {
            while let message = try reader.next() { handle(message) }
        } catch {
            refuse(error.description)
        }
        return true
    }

    private func handle(_ message: ViewerMessage) {
        guard !closing else { return }
        switch message {
        case .hello(let columns, let rows, let environment) where !greeted:
            greeted = true
            events(.hello(columns: columns, rows: rows, environment: environment))
        case .input(let bytes) where greeted:
            _ = try? Posix.writeAll(keyOutput, bytes)
        case .size(let columns, let rows) where greeted:
            events(.size(columns: columns, rows: rows))
        case .hello:
            refuse("a second hello")
        default:
            refuse(greeted ? "a message only the server sends" : "not a viewer (no hello first)")
        }
    }

    /// Tells the peer why it is refused, and closes once that is written (or could not be).
    private func refuse(_ reason: String) {
        refusal = reason
        closing = true
        pending = ViewerMessage.detached("refused: \(reason)").frame
        outbox.mutex.withLock { $0.closing = true }
    }

    /// Writes what the socket takes; false when the peer is gone.
    private func flush() -> Bool {
        while !pending.isEmpty {
            let result = pending.withUnsafeBytes { bytes in
                Result { () throws(SystemCallError) in try Posix.send(socket, bytes) }
            }
            guard case .success(let sent) = result else { return false }
            guard let sent else { return true }
            pending.removeFirst(sent)
        }
        return true
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        _ = bytes.withUnsafeMutableBytes { try? Posix.readOnce(wakeReadEnd, into: $0) }
    }

    /// Closes everything but the key input's read end, and says the connection ended.
    func finish(refused: String?) {
        outbox.mutex.withLock { box in
            box.ended = true
            box.closing = true
            Posix.close(wakeWriteEnd)
        }
        Posix.close(wakeReadEnd)
        Posix.close(keyOutput)
        Posix.close(socket)
        events(.ended(refused: refused))
    }
}
