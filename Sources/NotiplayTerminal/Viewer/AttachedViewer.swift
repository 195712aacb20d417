import Dispatch
import NotiplaySystem
package import SystemPackage

/// `notiplay attach`'s side of the viewer socket: this terminal shows what the center draws.
///
/// The terminal is taken as a card takes it (``TerminalGuard``: raw mode, the alternate screen,
/// mouse reporting), so every way out puts it back — the center letting the viewer go (`q`, a
/// takeover, the center stopping), the center vanishing, SIGHUP (the ssh connection dropping),
/// SIGTERM, SIGINT, a crash. What is typed goes to the center as it was typed; what the center
/// draws is written as it comes; each new size of the window (SIGWINCH) is sent.
package enum AttachedViewer {
    /// How a viewer ended.
    package enum End: Sendable, Equatable {
        /// The center let it go; its reason (empty after `q`).
        case detached(String)
        /// The center's connection ended without a word (the center was killed).
        case centerGone
        /// This terminal's input ended.
        case endOfInput
        /// The terminal cannot be used (not a terminal), or the connection failed: why.
        case unavailable(String)
    }

    /// Attaches this terminal (`input`, `output`) to the viewer connection `socket` (connected
    /// and trusted) until the center lets it go or either side goes; `socket` is closed.
    package static func run(socket: FileDescriptor, input: Int32 = 0, output: Int32 = 1, environment: [String: String]) -> End {
        defer { Posix.close(socket) }
        let terminal = TerminalGuard(reportsMouse: true)
        do {
            try terminal.enter(input: input, output: output)
        } catch {
            return .unavailable("the terminal cannot be used: \(error)")
        }
        defer { terminal.restore() }
        let resizes: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { resizes = try Posix.pipe() } catch { return .unavailable("\(error)") }
        defer { [resizes.readEnd, resizes.writeEnd].forEach(Posix.close) }
        let watch = ResizeWatch(wake: resizes.writeEnd)
        defer { watch.cancel() }
        let size = TerminalSize.current(fd: output, environment: environment) ?? (80, 24)
        var relay = ViewerRelay(socket: socket, input: input, output: output, resizes: resizes.readEnd) {
            TerminalSize.current(fd: output, environment: environment)
        }
        return relay.run(hello: .hello(columns: size.columns, rows: size.rows, environment: environment))
    }
}

/// SIGWINCH as a byte in a pipe (the relay's poll wakes on it).
private final class ResizeWatch: Sendable {
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    init(wake: FileDescriptor) {
        source = DispatchSource.makeSignalSource(signal: SignalNumber.windowChange, queue: DispatchQueue(label: "notiplay.viewer.resize"))
        source.setEventHandler {
            var byte: UInt8 = 1
            _ = try? withUnsafeBytes(of: &byte) { try Posix.write(wake, $0) }
        }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}

/// The copying itself: one `poll(2)` over the terminal, the socket and the resize pipe.
private struct ViewerRelay {
    let socket: FileDescriptor
    let input: Int32
    let output: Int32
    let resizes: FileDescriptor
    let size: () -> (columns: Int, rows: Int)?
    private var reader = ViewerFrameReader(limit: 16 << 20)
    private var outgoing: [UInt8] = []

    init(
        socket: FileDescriptor, input: Int32, output: Int32, resizes: FileDescriptor,
        size: @escaping () -> (columns: Int, rows: Int)?
    ) {
        self.socket = socket
        self.input = input
        self.output = output
        self.resizes = resizes
        self.size = size
    }

    mutating func run(hello: ViewerMessage) -> AttachedViewer.End {
        outgoing = hello.frame
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var entries = [
                Posix.PollEntry(file: socket, events: outgoing.isEmpty ? .readable : [.readable, .writable]),
                Posix.PollEntry(file: resizes, events: .readable),
                // Typing waits while what was typed before has not gone out.
                Posix.PollEntry(file: FileDescriptor(rawValue: input), events: outgoing.count > 1 << 16 ? [] : .readable),
            ]
            do {
                guard try Posix.poll(&entries, timeout: nil) != nil else { continue }
            } catch {
                return .unavailable("\(error)")
            }
            if !entries[1].found.isEmpty {
                _ = buffer.withUnsafeMutableBytes { try? Posix.readOnce(resizes, into: $0) }
                if let size = size() { outgoing += ViewerMessage.size(columns: size.columns, rows: size.rows).frame }
            }
            if !entries[2].found.isEmpty {
                switch InputRead.available(input, revents: entries[2].found.rawValue, into: &buffer) {
                case .bytes(let count): outgoing += ViewerMessage.input(Array(buffer[0..<count])).frame
                case .nothing: break
                case .end: return .endOfInput
                }
            }
            if !entries[0].found.isDisjoint(with: [.readable, .hangUp, .error]) {
                if let end = receive(into: &buffer) { return end }
            }
            if !outgoing.isEmpty, !send() { return .centerGone }
        }
    }

    /// Reads from the center and draws what it sent; the end, when it came.
    private mutating func receive(into buffer: inout [UInt8]) -> AttachedViewer.End? {
        let received = buffer.withUnsafeMutableBytes { space in
            Result { () throws(SystemCallError) in try Posix.receive(socket, into: space) }
        }
        guard case .success(let count) = received, count != 0 else { return .centerGone }
        guard let count else { return nil }
        reader.append(buffer[0..<count])
        do {
            while let message = try reader.next() {
                switch message {
                case .output(let bytes): _ = try? Posix.writeAll(FileDescriptor(rawValue: output), bytes)
                case .detached(let reason): return .detached(reason)
                default: return .unavailable("the center sent a message only a viewer sends")
                }
            }
        } catch {
            return .unavailable("the center sent something that is not a viewer's frame: \(error)")
        }
        return nil
    }

    /// Sends what the socket takes now; false when the center is gone.
    private mutating func send() -> Bool {
        let result = outgoing.withUnsafeBytes { bytes in Result { () throws(SystemCallError) in try Posix.send(socket, bytes) } }
        guard case .success(let sent) = result else { return false }
        if let sent { outgoing.removeFirst(sent) }
        return true
    }
}
