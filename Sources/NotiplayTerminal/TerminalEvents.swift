import NotiplaySystem
import Synchronization
import SystemPackage

/// Something that happened to the terminal: a key, a new size, a return from the background, a
/// signal, or the end of input.
public enum TerminalEvent: Sendable, Hashable {
    /// A key was pressed.
    case key(Key)
    /// The window changed size (SIGWINCH); the new size, as ``TerminalSize/reportedSize(fd:)`` reads
    /// it. Redraw everything.
    case resize(columns: Int, rows: Int)
    /// The program was stopped (Ctrl-Z, SIGTSTP, SIGSTOP) and is running again: the terminal is
    /// in raw mode on the alternate screen again, which may be blank. Redraw everything, at the
    /// size ``TerminalSize/reportedSize(fd:)`` gives now.
    case resumed
    /// SIGINT, SIGTERM or SIGHUP arrived. The terminal has already been restored and the
    /// signals' earlier actions are back (a second one ends the program at once); the stream
    /// ends after this event. Finish quickly and exit with status 128 + the signal number.
    case interrupted(Int32)
    /// The input is at its end (end of file, or the terminal went away); the stream ends after
    /// this event.
    case endOfInput
}

/// The terminal's events as one `AsyncSequence`: keys, resizes, returns from the background,
/// interrupting signals and the end of input, in the order they happened.
///
/// A dedicated thread waits with `poll()` on the input descriptor and on a self-pipe; the signal
/// handlers only write the signal's number to that pipe, and the thread does the rest outside
/// the handler:
/// - SIGWINCH → ``TerminalEvent/resize(columns:rows:)``;
/// - Ctrl-Z (byte 0x1A, unless `suspendsOnControlZ` is false) and SIGTSTP → the terminal is
///   restored, the process stops with SIGTSTP's default action, and once continued the guard
///   takes the terminal again and ``TerminalEvent/resumed`` follows;
/// - SIGCONT after a stop that was not ours (SIGSTOP) → the terminal is taken again, then
///   ``TerminalEvent/resumed``;
/// - SIGINT, SIGTERM, SIGHUP → ``TerminalGuard/restore()``, then
///   ``TerminalEvent/interrupted(_:)`` and the end of the stream.
///
/// Keys are decoded by ``KeyDecoder``; an ESC with nothing after it for ``escapeDelay`` is the
/// Escape key. Ctrl-C arrives as ``Key/controlC``: the caller decides (usually: quit).
///
/// Start it after ``TerminalGuard/enter(input:output:)``, iterate it on the caller's actor, and
/// stop it in a `defer` (see ``TerminalGuard`` for the whole contract). Only one event source
/// with a terminal runs at a time; the signal handlers it installs are taken away when its
/// thread ends, and the actions found before are put back.
public final class TerminalEvents: AsyncSequence, Sendable {
    /// What the sequence gives.
    public typealias Element = TerminalEvent

    /// How long an ESC waits for the rest of a sequence before it counts as the Escape key.
    public let escapeDelay: Duration

    private let stream: AsyncStream<TerminalEvent>
    private let reader: EventReader
    private let thread: Mutex<SystemThread?>

    /// Starts reading `terminal`'s input and watching the window-size, stop, continue and
    /// interrupting signals.
    ///
    /// - Parameters:
    ///   - terminal: The guard that has entered; its descriptors are used, and it is suspended,
    ///     resumed and restored as the signals require.
    ///   - suspendsOnControlZ: Whether Ctrl-Z stops the program like SIGTSTP (default) or is
    ///     delivered as ``Key/controlZ``.
    ///   - escapeDelay: How long a lone ESC waits for more bytes (default 50 ms).
    /// - Throws: ``TerminalError/alreadyInUse`` when another event source watches the signals,
    ///   ``TerminalError/notATerminal(fd:)`` when the guard has not entered, or a failed system
    ///   call.
    public convenience init(
        terminal: TerminalGuard, suspendsOnControlZ: Bool = true, escapeDelay: Duration = .milliseconds(50)
    ) throws(TerminalError) {
        guard terminal.isEntered else { throw .notATerminal(fd: terminal.input) }
        try self.init(
            input: terminal.input, output: terminal.output, terminal: terminal,
            suspendsOnControlZ: suspendsOnControlZ, escapeDelay: escapeDelay)
    }

    /// Starts reading keys from `input`, which need not be a terminal (a pipe gives its bytes as
    /// keys, then ``TerminalEvent/endOfInput``). No signal is watched.
    ///
    /// - Parameters:
    ///   - input: The descriptor to read.
    ///   - escapeDelay: How long a lone ESC waits for more bytes (default 50 ms).
    /// - Throws: ``TerminalError/systemCall(_:errno:)`` when the pipe or the thread cannot be made.
    public convenience init(input: Int32, escapeDelay: Duration = .milliseconds(50)) throws(TerminalError) {
        try self.init(input: input, output: -1, terminal: nil, suspendsOnControlZ: false, escapeDelay: escapeDelay)
    }

    private init(
        input: Int32, output: Int32, terminal: TerminalGuard?, suspendsOnControlZ: Bool, escapeDelay: Duration
    ) throws(TerminalError) {
        self.escapeDelay = escapeDelay
        let ends: [Int32]
        do {
            let pipe = try Posix.pipe()
            ends = [pipe.readEnd.rawValue, pipe.writeEnd.rawValue]
        } catch {
            throw .systemCall(error.call, errno: error.errno.rawValue)
        }
        var handled: [Int32] = []
        if terminal != nil {
            TerminalSignals.prepare()
            guard TerminalSignals.wakeDescriptor.compareExchange(
                expected: -1, desired: ends[1], ordering: .acquiringAndReleasing
            ).exchanged else {
                Posix.close(FileDescriptor(rawValue: ends[0]))
                Posix.close(FileDescriptor(rawValue: ends[1]))
                throw .alreadyInUse
            }
            handled = TerminalSignals.install(TerminalSignals.eventSignals, keepIgnored: false)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self, bufferingPolicy: .unbounded)
        self.stream = stream
        let reader = EventReader(
            input: input, output: output, terminal: terminal, wakeRead: ends[0], wakeWrite: ends[1],
            handledSignals: handled, suspendsOnControlZ: suspendsOnControlZ, escapeDelay: escapeDelay,
            continuation: continuation)
        self.reader = reader
        continuation.onTermination = { [weak reader] _ in reader?.wake() }

        do {
            self.thread = Mutex(try SystemThread.start(name: "terminal events") { reader.run() })
        } catch {
            reader.finish()
            throw .systemCall(error.call, errno: error.errno.rawValue)
        }
    }

    deinit {
        stop()
    }

    /// The events, in order, as the stream they arrive on. Iterate once (this or the sequence).
    package var events: AsyncStream<TerminalEvent> { stream }

    /// The events, in order. Iterate once.
    public func makeAsyncIterator() -> AsyncStream<TerminalEvent>.Iterator {
        stream.makeAsyncIterator()
    }

    /// Ends the stream and waits for the reading thread to finish; its signal handlers are
    /// gone when this returns. Safe to call more than once.
    public func stop() {
        reader.wake()
        guard let thread = self.thread.withLock({ (thread: inout SystemThread?) -> SystemThread? in
            defer { thread = nil }
            return thread
        }) else { return }
        thread.join()
    }
}

/// The reading thread's state. Used by that thread only, except ``wake()`` (any thread) and the
/// descriptors, closed when the last owner lets go.
private final class EventReader: @unchecked Sendable {
    let input: Int32
    let output: Int32
    let terminal: TerminalGuard?
    let wakeRead: Int32
    let wakeWrite: Int32
    let handledSignals: [Int32]
    let suspendsOnControlZ: Bool
    let escapeDelay: Duration
    let continuation: AsyncStream<TerminalEvent>.Continuation

    private var decoder = KeyDecoder()
    /// The SIGCONT count already answered (see `TerminalSignals.continues`).
    private var answeredContinues: UInt32

    /// The byte that asks the thread to stop (no signal has number 0).
    static let stopByte: UInt8 = 0

    init(
        input: Int32, output: Int32, terminal: TerminalGuard?, wakeRead: Int32, wakeWrite: Int32,
        handledSignals: [Int32], suspendsOnControlZ: Bool, escapeDelay: Duration,
        continuation: AsyncStream<TerminalEvent>.Continuation
    ) {
        self.input = input
        self.output = output
        self.terminal = terminal
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.handledSignals = handledSignals
        self.suspendsOnControlZ = suspendsOnControlZ
        self.escapeDelay = escapeDelay
        self.continuation = continuation
        answeredContinues = TerminalSignals.continues.load(ordering: .acquiring)
    }

    deinit {
        Posix.close(FileDescriptor(rawValue: wakeRead))
        Posix.close(FileDescriptor(rawValue: wakeWrite))
    }

    /// Asks the thread to stop.
    func wake() {
        var byte = Self.stopByte
        _ = withUnsafeBytes(of: &byte) { try? Posix.write(FileDescriptor(rawValue: wakeWrite), $0) }
    }

    /// The thread's body: wait, read, decode, deliver, until stopped, interrupted or at the end
    /// of input.
    func run() {
        defer { finish() }
        // The thread inherits its creator's signal mask, and a Dispatch worker blocks nearly
        // everything: unblock the signals watched, so that one thread at least takes them and
        // this one can stop the process with SIGTSTP.
        Posix.unblockSignals(TerminalSignals.terminating + TerminalSignals.eventSignals)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var escapeDeadline: ContinuousClock.Instant?
        while true {
            var descriptors = [
                Posix.PollEntry(file: FileDescriptor(rawValue: wakeRead), events: .readable),
                Posix.PollEntry(file: FileDescriptor(rawValue: input), events: .readable),
            ]
            var timeout: Int32 = -1
            if let escapeDeadline {
                let left = ContinuousClock.now.duration(to: escapeDeadline)
                timeout = left <= .zero ? 0 : Int32(min(left / .milliseconds(1), 60_000).rounded(.up))
            }
            let ready: Int
            do {
                guard let found = try Posix.poll(&descriptors, milliseconds: timeout) else { continue }  // interrupted
                ready = found
            } catch {
                if error.errno == .resourceTemporarilyUnavailable { continue }
                return
            }
            if ready == 0 {
                escapeDeadline = nil
                deliver(decoder.flush())
                continue
            }
            if !descriptors[0].found.isEmpty {
                guard handleWakeBytes() else { return }
            }
            if !descriptors[1].found.isEmpty {
                switch InputRead.available(input, revents: descriptors[1].found.rawValue, into: &buffer) {
                case .bytes(let count):
                    deliver(decoder.decode(buffer[0..<count]))
                    escapeDeadline = decoder.isWaiting ? ContinuousClock.now.advanced(by: escapeDelay) : nil
                case .nothing:
                    continue
                case .end:
                    deliver(decoder.flush())
                    continuation.yield(.endOfInput)
                    return
                }
            }
        }
    }

    /// Reads the self-pipe and acts on each signal. Returns false when the thread must end.
    private func handleWakeBytes() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) in try Posix.readOnce(FileDescriptor(rawValue: wakeRead), into: buffer) }
        }
        guard let count = try? result.get(), count > 0 else { return true }
        var resized = false
        for byte in bytes[0..<count] {
            let signal = Int32(byte)
            switch signal {
            case Int32(Self.stopByte):
                return false
            case SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp:
                terminal?.restore()
                continuation.yield(.interrupted(signal))
                return false
            case SignalNumber.terminalStop:
                stopProcess(group: false)
            case SignalNumber.continue:
                let continues = TerminalSignals.continues.load(ordering: .acquiring)
                if continues != answeredContinues {
                    answeredContinues = continues
                    terminal?.resume()
                    continuation.yield(.resumed)
                }
            case SignalNumber.windowChange:
                resized = true
            default:
                break
            }
        }
        if resized, let size = TerminalSize.reportedSize(fd: output) {
            continuation.yield(.resize(columns: size.columns, rows: size.rows))
        }
        return true
    }

    private func deliver(_ keys: [Key]) {
        for key in keys {
            if key == .controlZ && suspendsOnControlZ {
                // The group stops only when it is the terminal's foreground group, the one the
                // terminal driver would have stopped.
                stopProcess(group: Posix.isForegroundProcessGroup(of: FileDescriptor(rawValue: input)))
            } else {
                continuation.yield(.key(key))
            }
        }
    }

    /// Gives the terminal back, stops the process as SIGTSTP's default action does, and takes
    /// the terminal again once continued. For Ctrl-Z read in raw mode from the controlling
    /// terminal (`group`), the whole foreground process group stops, as the terminal driver would
    /// stop it in cooked mode: a shell job such
    /// as `( notiplay …; echo done )` stops as one, and the shell says so. A SIGTSTP reached the
    /// group already.
    private func stopProcess(group: Bool) {
        let continuesBefore = TerminalSignals.continues.load(ordering: .acquiring)
        terminal?.suspend()
        let ours = try? Posix.setAction(SignalAction(), for: SignalNumber.terminalStop)  // the default action
        if group {
            Posix.signalProcessGroup(SignalNumber.terminalStop)  // delivered to this thread before kill returns: we stop here too
        } else {
            Posix.raise(SignalNumber.terminalStop)  // the whole process stops here until SIGCONT
        }
        if let ours { _ = try? Posix.setAction(ours, for: SignalNumber.terminalStop) }
        // The SIGCONT that continued us is answered here, whether its handler ran already or
        // runs later. (Were the stop discarded — an orphaned process group — no SIGCONT comes,
        // and the next foreign one goes unanswered once.)
        answeredContinues = continuesBefore &+ 1
        terminal?.resume()
        continuation.yield(.resumed)
    }

    /// Takes the handlers away and ends the stream.
    func finish() {
        if terminal != nil {
            TerminalSignals.uninstall(handledSignals)
            _ = TerminalSignals.wakeDescriptor.compareExchange(
                expected: wakeWrite, desired: -1, ordering: .acquiringAndReleasing)
        }
        continuation.finish()
    }
}
