import NotiplaySystem
import SystemPackage

/// An attached viewer as a card screen's terminal: frames go to the viewer as
/// ``ViewerMessage/output(_:)``, the bytes it types are decoded into keys by ``TerminalEvents``
/// (as a local terminal's are), and each size it reports is a ``TerminalEvent/resize(columns:rows:)``.
///
/// The viewer's own terminal does raw mode, the alternate screen and mouse reporting (and puts
/// them back on every way out), so opening this touches no terminal of the server's: the center
/// keeps no terminal state and installs no signal handler for a viewer. Ctrl-Z is a key here
/// (and does nothing): it must not stop the center.
@MainActor
package final class ViewerCardTerminal: CardTerminal {
    private let connection: ViewerConnection
    private var size: (columns: Int, rows: Int)
    private var events: TerminalEvents?
    private var continuation: AsyncStream<TerminalEvent>.Continuation?
    private var forwarding: Task<Void, Never>?
    private var closed = false

    /// The viewer on `connection`, whose terminal is `columns` by `rows`.
    package init(connection: ViewerConnection, columns: Int, rows: Int) {
        self.connection = connection
        size = (columns, rows)
    }

    package func open(escapeDelay: Duration) throws(CardTerminalUnavailable) -> AsyncStream<TerminalEvent> {
        let keys: TerminalEvents
        do {
            keys = try TerminalEvents(input: connection.keyInput.rawValue, escapeDelay: escapeDelay)
        } catch {
            throw CardTerminalUnavailable("the viewer's keys cannot be read: \(error)")
        }
        events = keys
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        let source = keys.events
        forwarding = Task { @MainActor in
            for await event in source { continuation.yield(event) }
            continuation.finish()
        }
        return stream
    }

    /// The viewer's terminal has a new size: the screen redraws at it.
    package func resized(columns: Int, rows: Int) {
        size = (columns, rows)
        continuation?.yield(.resize(columns: columns, rows: rows))
    }

    package func currentSize() -> (columns: Int, rows: Int)? { size }

    package func write(frame bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        connection.send(.output(bytes))
        return true
    }

    package var isOpen: Bool { events != nil && !closed }

    package func close() {
        guard !closed else { return }
        closed = true
        events?.stop()
        forwarding?.cancel()
        continuation?.finish()
        Posix.close(connection.keyInput)
    }
}
