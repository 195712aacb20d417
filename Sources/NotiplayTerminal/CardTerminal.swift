import NotiplaySystem
package import NotiplayViews

/// Where a card screen draws and what it hears: the process's own terminal
/// (``LocalCardTerminal``), or a viewer attached to the center through its viewer socket.
///
/// The screen (``TerminalCardDriver``) opens it once, draws with ``write(frame:)``, reads
/// ``currentSize()`` at the start and after every ``TerminalEvent/resize(columns:rows:)`` or
/// ``TerminalEvent/resumed``, and closes it on its way out.
@MainActor
package protocol CardTerminal: AnyObject {
    /// Takes the terminal (raw mode, the alternate screen, mouse reporting, as the kind of
    /// terminal does it) and starts its events.
    /// - Throws: Why the terminal cannot be used.
    func open(escapeDelay: Duration) throws(CardTerminalUnavailable) -> AsyncStream<TerminalEvent>
    /// The terminal's size now; `nil` when it cannot be told.
    func currentSize() -> (columns: Int, rows: Int)?
    /// Writes a frame; false when it was not written (suspended): draw everything next time.
    func write(frame bytes: [UInt8]) -> Bool
    /// Whether the terminal is open (frames can be drawn).
    var isOpen: Bool { get }
    /// Stops the events and gives the terminal back (also when it was never opened). Safe to
    /// call more than once.
    func close()
    /// How the terminal draws pictures, found when it was opened; `nil` (the default): it draws
    /// none, and images show their text stand-ins.
    var graphics: GraphicsProtocol? { get }
    /// The size of a cell in pixels, when the terminal said (sixel needs it); `nil` by default.
    var cellPixels: Size? { get }
}

extension CardTerminal {
    package var graphics: GraphicsProtocol? { nil }
    package var cellPixels: Size? { nil }
}

/// Why a ``CardTerminal`` could not be opened, in words for the person.
package struct CardTerminalUnavailable: Error {
    /// The reason.
    package var message: String

    /// A reason.
    package init(_ message: String) {
        self.message = message
    }
}

/// The process's own terminal: a ``TerminalGuard`` (with mouse reporting) and its
/// ``TerminalEvents``, so that every way out of the program restores it.
@MainActor
package final class LocalCardTerminal: CardTerminal {
    private let guardian = TerminalGuard(reportsMouse: true)
    private let input: Int32
    private let output: Int32
    private let environment: [String: String]
    private var events: TerminalEvents?
    package private(set) var graphics: GraphicsProtocol?
    package private(set) var cellPixels: Size?

    /// The terminal at `input` and `output`; `environment`'s `COLUMNS` and `LINES` win over the
    /// size the terminal reports.
    package init(input: Int32, output: Int32, environment: [String: String]) {
        self.input = input
        self.output = output
        self.environment = environment
    }

    package func open(escapeDelay: Duration) throws(CardTerminalUnavailable) -> AsyncStream<TerminalEvent> {
        do {
            try guardian.enter(input: input, output: output)
        } catch {
            throw CardTerminalUnavailable("the terminal cannot be used: \(error)")
        }
        // Asked before the events start reading, so that its replies never reach them as keys.
        // Not on a terminal that is known to draw none and may print an unknown query (the Linux console).
        if !["dumb", "linux"].contains(environment["TERM"] ?? "") {
            (graphics, cellPixels) = GraphicsDetection.ask(input: input, output: output)
        }
        do {
            let events = try TerminalEvents(terminal: guardian, escapeDelay: escapeDelay)
            self.events = events
            return events.events
        } catch {
            guardian.restore()
            throw CardTerminalUnavailable("the terminal cannot be read: \(error)")
        }
    }

    package func currentSize() -> (columns: Int, rows: Int)? {
        TerminalSize.current(fd: output, environment: environment)
    }

    package func write(frame bytes: [UInt8]) -> Bool {
        guardian.write(frame: bytes)
    }

    package var isOpen: Bool { guardian.isEntered }

    package func close() {
        events?.stop()
        events = nil
        guardian.restore()
    }
}
