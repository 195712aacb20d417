#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import NotiplayTerminal
import NotiplayViews
import Synchronization
import Testing

/// A pseudo-terminal: the program side (`slave`) is what a ``TerminalGuard`` takes, the other
/// side (`master`) plays the terminal emulator — what is written to it arrives as typed input,
/// what the program writes can be read from it.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    /// The program side's path, for another process to open.
    let path: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `TIOCSPTLCK` and `TIOCGPTN` from `<sys/ioctl.h>` (macros Swift does not import); Swift's
    /// Glibc module has neither `posix_openpt` nor `openpty`.
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    init(columns: Int = 80, rows: Int = 24) throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "no /dev/ptmx: \(String(cString: strerror(errno)))") }
        var locked: Int32 = 0
        var number: UInt32 = 0
        guard withUnsafeMutablePointer(to: &locked, { ioctl(master, Self.unlockRequest, $0) }) == 0,
              withUnsafeMutablePointer(to: &number, { ioctl(master, Self.numberRequest, $0) }) == 0
        else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        path = "/dev/pts/\(number)"
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.master = master
        self.slave = slave
        setSize(columns: columns, rows: rows)
    }

    deinit {
        close(slave)
        closeMaster()
    }

    private var masterOpen = true

    /// Hangs up: the program side then reads end of input (EIO).
    func closeMaster() {
        guard masterOpen else { return }
        masterOpen = false
        close(master)
    }

    /// Sets the window size, as a terminal emulator does when its window changes.
    func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
    }

    /// "Types" `bytes`.
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// "Types" `text`.
    func type(_ text: String) { type(Array(text.utf8)) }

    /// The program side's current settings.
    func settings() -> termios {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings
    }

    /// Reads what the program wrote until `done` holds for everything read so far, or
    /// `timeout` seconds pass (then returns what came). The limit is a hang guard.
    func read(timeout: Double = 30, until done: ([UInt8]) -> Bool) -> [UInt8] {
        var collected: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(collected) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32((left / .milliseconds(1)).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            collected += buffer[0..<count]
        }
        return collected
    }

    /// Reads until `marker` has been read; what came before it is returned (as text).
    func read(through marker: String, timeout: Double = 30) -> String {
        let bytes = read(timeout: timeout) { String(decoding: $0, as: UTF8.self).contains(marker) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes the program side write `marker` (as the program would), then reads everything up to
    /// and including it: what the program wrote before is then known to be all there is.
    func drain(marker: String = "#MARK#") -> String {
        _ = marker.utf8CString.withUnsafeBytes { write(slave, $0.baseAddress, $0.count - 1) }
        return read(through: marker)
    }
}

/// The bytes of a `termios`, for byte-for-byte comparison.
func bytes(of settings: termios) -> [UInt8] {
    withUnsafeBytes(of: settings) { Array($0) }
}

/// Collects a ``TerminalEvents`` stream so that a test can wait for the next event with a time
/// limit. The limit only guards against a hang: events are waited for, never assumed.
final class EventCollector: Sendable {
    struct TimedOut: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no event within \(seconds) s" }
    }

    private struct State {
        var events: [TerminalEvent] = []
        var finished = false
        var waiter: CheckedContinuation<TerminalEvent?, any Error>?
        var generation = 0
    }

    private let state = Mutex(State())

    init(_ events: TerminalEvents) {
        Task { [self] in
            for await event in events { deliver(event) }
            finish()
        }
    }

    private func deliver(_ event: TerminalEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<TerminalEvent?, any Error>? in
            guard let waiter = state.waiter else {
                state.events.append(event)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: event)
    }

    private func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next event, or `nil` once the stream has ended.
    func next(within seconds: Double = 30) async throws -> TerminalEvent? {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<TerminalEvent?, any Error>? in
                if !state.events.isEmpty { return .success(state.events.removeFirst()) }
                if state.finished { return .success(nil) }
                state.waiter = continuation
                state.generation += 1
                let generation = state.generation
                Task { [self] in
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    timeOut(generation, seconds: seconds)
                }
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func timeOut(_ generation: Int, seconds: Double) {
        let waiter = state.withLock { state -> CheckedContinuation<TerminalEvent?, any Error>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(throwing: TimedOut(seconds: seconds))
    }
}
