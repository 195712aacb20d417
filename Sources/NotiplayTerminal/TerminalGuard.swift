import NotiplayCore
import NotiplaySystem
import Synchronization
import SystemPackage

/// Why the terminal could not be taken.
public enum TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The descriptor is not a terminal (a pipe, a file, CI): draw plain lines instead.
    case notATerminal(fd: Int32)
    /// Another ``TerminalGuard`` has the terminal; a process has one.
    case alreadyInUse
    /// A system call failed with this `errno`.
    case systemCall(String, errno: Int32)

    /// The reason in words, with the system's message for a failed call.
    public var description: String {
        switch self {
        case .notATerminal(let fd): "descriptor \(fd) is not a terminal"
        case .alreadyInUse: "the terminal is already taken by another guard"
        case .systemCall(let call, let code): "\(call) failed: \(Errno(rawValue: code))"
        }
    }
}

/// Takes the terminal for a full-screen card and gives it back exactly as it was, on every way
/// out of the program.
///
/// ``enter(input:output:)`` saves the terminal's settings, switches to raw mode (no echo, no
/// line editing, and no signals from the keyboard: Ctrl-C, Ctrl-Z and Ctrl-D arrive as keys;
/// output processing stays on, so `\n` still moves to the start of the next line), switches to
/// the alternate screen and hides the cursor. ``restore()`` resets the text attributes, shows
/// the cursor, leaves the alternate screen and puts the saved settings back; it does so once,
/// however many times and from whichever thread it is called.
///
/// A guard made with `reportsMouse` also turns on SGR mouse reporting when it enters
/// (`ESC [ ? 1000 h`, `ESC [ ? 1006 h`: clicks arrive as ``Key/mouse(_:)``), and every way of
/// giving the terminal back — a restore, a suspend, a signal, a crash, `exit()` — turns it off
/// again, last of all (`ESC [ ? 1006 l`, `ESC [ ? 1000 l`).
///
/// The caller's contract:
/// ```swift
/// let terminal = TerminalGuard()
/// try terminal.enter()                      // throws when stdin is not a terminal
/// defer { terminal.restore() }              // normal return, `q`, a thrown error
/// let events = try TerminalEvents(terminal: terminal)
/// defer { events.stop() }
/// loop: for await event in events {
///     switch event {
///     case .key(.character("q")), .key(.controlC): break loop
///     case .key(let key): handle(key)
///     case .resize, .resumed: redraw everything at `TerminalSize.current()`
///     case .interrupted(let signal): cleanUp(); return signal   // the terminal is already restored
///     case .endOfInput: break loop
///     }
/// }
/// ```
///
/// What covers each way out:
/// - return, `q`, Ctrl-C (a key), end of input, a thrown error: the caller's `defer`;
/// - `exit()` anywhere: an `atexit` hook;
/// - SIGINT, SIGTERM, SIGHUP: while ``TerminalEvents`` runs, its thread restores the terminal and
///   delivers ``TerminalEvent/interrupted(_:)``, and the signals' earlier actions are back (a
///   second one ends the program at once); without it, the signal handler restores the terminal
///   itself and the signal then ends the process with its default action (status 128 + n);
/// - a crash (SIGSEGV, SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGTRAP, SIGQUIT): the handler restores
///   the terminal and passes the signal on to the action found before (the Swift backtracer);
/// - Ctrl-Z and SIGTSTP: ``TerminalEvents`` restores, stops the process, and on SIGCONT takes
///   the terminal again and delivers ``TerminalEvent/resumed``.
///
/// Signal handlers only call async-signal-safe functions: the saved settings and the restore
/// sequence are prepared before any handler is installed. Handlers are installed by `enter` and
/// the actions found before are put back by `restore`. A signal that was ignored when the guard
/// entered (SIGHUP under `nohup`) stays ignored.
public final class TerminalGuard: Sendable {
    private struct State {
        var entered = false
        var suspended = false
        var input: Int32 = -1
        var output: Int32 = -1
        var raw = TerminalSettings()
        var handled: [Int32] = []
    }

    private let state = Mutex(State())
    /// Whether the terminal reports the mouse while the guard has it.
    public let reportsMouse: Bool

    /// Creates a guard; nothing happens to the terminal until ``enter(input:output:)``.
    /// - Parameter reportsMouse: Whether the terminal reports mouse presses and releases while
    ///   the guard has it (default: no).
    public init(reportsMouse: Bool = false) {
        self.reportsMouse = reportsMouse
    }

    private var enterSequence: StaticString {
        reportsMouse ? TerminalSignals.enterSequenceWithMouse : TerminalSignals.enterSequence
    }

    /// A guard let go of gives the terminal back.
    deinit {
        restore()
    }

    /// Whether the guard has the terminal (entered, not yet restored; suspended counts).
    public var isEntered: Bool { state.withLock { $0.entered } }

    /// Writes a frame to the terminal if the guard holds it: entered, and not suspended. The check
    /// and the write happen under the same lock as ``suspend()`` and ``restore()``, so a frame
    /// drawn while Ctrl-Z gives the terminal back never lands on the shell's screen.
    /// - Returns: Whether the bytes were written (if not, draw everything again after resuming).
    @discardableResult
    public func write(frame bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard state.entered, !state.suspended else { return false }
            _ = try? FileDescriptor(rawValue: state.output).writeAll(bytes)
            return true
        }
    }

    /// The descriptor keys are read from and whose settings are changed (-1 before `enter`).
    public var input: Int32 { state.withLock { $0.input } }

    /// The descriptor the screen is drawn on (-1 before `enter`).
    public var output: Int32 { state.withLock { $0.output } }

    /// Takes the terminal: saves its settings, raw mode, the alternate screen, the cursor
    /// hidden (and mouse reporting on, with `reportsMouse`). Keys typed before are kept: they are the first keys read. Does nothing when this
    /// guard has already entered.
    ///
    /// - Parameters:
    ///   - input: The terminal's input descriptor, whose settings change (default standard input).
    ///   - output: Where the sequences are written (default standard output); normally the same
    ///     terminal as `input`, and where the caller draws the card.
    /// - Throws: ``TerminalError/notATerminal(fd:)`` when `input` is not a terminal,
    ///   ``TerminalError/alreadyInUse`` when another guard has it, or a failed system call.
    public func enter(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) {
        try state.withLock { (state: inout State) throws(TerminalError) in
            if state.entered { return }
            guard Posix.isTerminal(FileDescriptor(rawValue: input)) else { throw .notATerminal(fd: input) }
            let saved: TerminalSettings
            do throws(SystemCallError) {
                saved = try Posix.terminalSettings(of: FileDescriptor(rawValue: input))
            } catch {
                throw .systemCall(error.call, errno: error.errno.rawValue)
            }
            guard !TerminalSignals.claimed.exchange(true, ordering: .acquiringAndReleasing) else {
                throw .alreadyInUse
            }
            TerminalSignals.prepare()
            TerminalSignals.savedSettings.pointee = saved
            TerminalSignals.inputDescriptor.store(input, ordering: .releasing)
            TerminalSignals.outputDescriptor.store(output, ordering: .releasing)
            TerminalSignals.mouseReporting.store(reportsMouse, ordering: .releasing)
            TerminalSignals.registerExitHook()
            let handled = TerminalSignals.install(TerminalSignals.terminating, keepIgnored: true)
                + TerminalSignals.install(TerminalSignals.fatal, keepIgnored: false)
            // From here a signal restores what follows.
            TerminalSignals.armed.store(true, ordering: .releasing)
            let raw = saved.raw()
            do throws(SystemCallError) {
                try Posix.setTerminalSettings(raw, of: FileDescriptor(rawValue: input), when: .afterOutput)
            } catch {
                TerminalSignals.armed.store(false, ordering: .releasing)
                TerminalSignals.uninstall(handled)
                TerminalSignals.claimed.store(false, ordering: .releasing)
                throw .systemCall(error.call, errno: error.errno.rawValue)
            }
            TerminalSignals.writeRaw(output, enterSequence)
            state = State(entered: true, input: input, output: output, raw: raw, handled: handled)
        }
    }

    /// Gives the terminal back as it was before ``enter(input:output:)``: attributes reset,
    /// cursor shown, main screen, the saved settings (pending typed input is discarded). Only
    /// the first call after `enter` does anything; the signal handlers are taken away and the
    /// actions found before put back.
    public func restore() {
        state.withLock { state in
            guard state.entered else { return }
            TerminalSignals.restoreNow()
            TerminalSignals.uninstall(state.handled)
            state = State()
            TerminalSignals.claimed.store(false, ordering: .releasing)
        }
    }

    /// Gives the terminal back for a while (before the process stops, or to let another program
    /// use it) while keeping the guard: as ``restore()`` but ``resume()`` takes it again.
    public func suspend() {
        state.withLock { state in
            guard state.entered, !state.suspended else { return }
            TerminalSignals.restoreNow()
            state.suspended = true
        }
    }

    /// Takes the terminal again after ``suspend()``, or after something else changed it (the
    /// process was stopped with SIGSTOP and continued): raw mode, alternate screen, cursor
    /// hidden. The alternate screen may be blank or stale: redraw everything. Does nothing when
    /// the guard has not entered or has been restored.
    public func resume() {
        state.withLock { state in
            guard state.entered else { return }
            TerminalSignals.armed.store(true, ordering: .releasing)
            _ = try? Posix.setTerminalSettings(state.raw, of: FileDescriptor(rawValue: state.input), when: .afterOutput)
            TerminalSignals.writeRaw(state.output, enterSequence)
            state.suspended = false
        }
    }
}
