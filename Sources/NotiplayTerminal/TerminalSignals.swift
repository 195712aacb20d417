import NotiplaySystem
import Synchronization
import SystemPackage

/// The process-wide state that signal handlers, the `atexit` hook, ``TerminalGuard`` and
/// ``TerminalEvents`` share. A process has one terminal, so there is one of each.
///
/// A handler may only call async-signal-safe functions. Everything the handler reads is set up
/// before the handler is installed: atomics, a `termios` copy in memory that is never freed,
/// and the escape sequences as static strings in the binary. The handler itself calls only
/// `write`, `tcsetattr`, `sigaction`/`signal` and `raise` (through `Posix`'s async-signal-safe
/// wrappers).
enum TerminalSignals {
    /// What ``TerminalGuard`` writes when it takes the terminal: the alternate screen, the cursor
    /// hidden.
    static let enterSequence: StaticString = "\u{1B}[?1049h\u{1B}[?25l"

    /// What puts the terminal back: attributes reset, autowrap on (a frame may have turned it
    /// off), the cursor shown, the main screen back.
    static let leaveSequence: StaticString = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    /// ``enterSequence``, then mouse reporting on: presses and releases (`?1000`), reported in
    /// SGR form (`?1006`).
    static let enterSequenceWithMouse: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h"

    /// ``leaveSequence``, then mouse reporting off, last of all.
    static let leaveSequenceWithMouse: StaticString =
        "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l\u{1B}[?1006l\u{1B}[?1000l"

    /// Signals that end the process by default: the guard restores the terminal, then the
    /// signal ends the process (or, while ``TerminalEvents`` runs, becomes an event).
    static let terminating: [Int32] = [SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp]

    /// Crashes and other signals that end the process with a core: the terminal is restored and
    /// the signal goes on to whatever handled it before (the Swift runtime's backtracer, or the
    /// default action).
    static let fatal: [Int32] = [
        SignalNumber.segmentationFault, SignalNumber.busError, SignalNumber.illegalInstruction,
        SignalNumber.arithmeticError, SignalNumber.abort, SignalNumber.trap, SignalNumber.quit,
    ]

    /// Signals ``TerminalEvents`` turns into events.
    static let eventSignals: [Int32] = [SignalNumber.windowChange, SignalNumber.terminalStop, SignalNumber.continue]

    /// A guard has the terminal (entered and not yet restored for good).
    static let claimed = Atomic<Bool>(false)
    /// The terminal is in the guard's mode and owes a restore. Whoever turns it from true to
    /// false writes the restore: that is what makes it happen exactly once.
    static let armed = Atomic<Bool>(false)
    /// The terminal was told to report the mouse: a restore turns that off.
    static let mouseReporting = Atomic<Bool>(false)
    /// The descriptor whose settings were saved.
    static let inputDescriptor = Atomic<Int32>(-1)
    /// The descriptor the sequences are written to.
    static let outputDescriptor = Atomic<Int32>(-1)
    /// The write end of ``TerminalEvents``' self-pipe while it runs, else -1.
    static let wakeDescriptor = Atomic<Int32>(-1)
    /// How many SIGCONTs have been handled (lets the event thread tell its own resume from a
    /// later one).
    static let continues = Atomic<UInt32>(0)
    /// An `atexit` hook has been registered.
    static let exitHookRegistered = Atomic<Bool>(false)

    /// The settings to restore; written only while no restore can run (not ``armed``).
    nonisolated(unsafe) static let savedSettings: UnsafeMutablePointer<TerminalSettings> = {
        let pointer = UnsafeMutablePointer<TerminalSettings>.allocate(capacity: 1)
        pointer.initialize(to: TerminalSettings())
        return pointer
    }()

    /// The signal actions found before ours, indexed by signal number.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<SignalAction> = {
        let pointer = UnsafeMutablePointer<SignalAction>.allocate(capacity: Int(signalCount))
        pointer.initialize(repeating: SignalAction(), count: Int(signalCount))
        return pointer
    }()

    static let signalCount: Int32 = 65

    /// Touches every static a handler reads, so that none is first initialised inside a
    /// handler (lazy initialisation takes a lock).
    static func prepare() {
        _ = claimed.load(ordering: .relaxed)
        _ = armed.load(ordering: .relaxed)
        _ = mouseReporting.load(ordering: .relaxed)
        _ = inputDescriptor.load(ordering: .relaxed)
        _ = outputDescriptor.load(ordering: .relaxed)
        _ = wakeDescriptor.load(ordering: .relaxed)
        _ = continues.load(ordering: .relaxed)
        _ = savedSettings
        _ = previousActions
    }

    /// Installs the shared handler for `signals`, keeping the actions found before. A signal
    /// found ignored (say `SIGHUP` under `nohup`) is left ignored when `keepIgnored` is true.
    /// Returns the signals now handled.
    static func install(_ signals: [Int32], keepIgnored: Bool) -> [Int32] {
        prepare()
        let action = SignalAction(handler: terminalSignalHandler, blocking: terminating + fatal + eventSignals)
        var installed: [Int32] = []
        for signal in signals {
            guard let previous = Posix.action(for: signal) else { continue }
            if keepIgnored && previous.isIgnored { continue }
            previousActions[Int(signal)] = previous
            if (try? Posix.setAction(action, for: signal)) != nil { installed.append(signal) }
        }
        return installed
    }

    /// Puts back the actions found by ``install(_:keepIgnored:)``.
    static func uninstall(_ signals: [Int32]) {
        for signal in signals { _ = try? Posix.setAction(previousActions[Int(signal)], for: signal) }
    }

    /// Writes the leave sequence and puts the saved settings back, if the terminal owes a
    /// restore. Async-signal-safe.
    static func restoreNow() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let mouse = mouseReporting.load(ordering: .acquiring)
        writeRaw(outputDescriptor.load(ordering: .acquiring), mouse ? leaveSequenceWithMouse : leaveSequence)
        _ = try? Posix.setTerminalSettings(
            savedSettings.pointee, of: FileDescriptor(rawValue: inputDescriptor.load(ordering: .acquiring)),
            when: .discardingInput)
    }

    /// Writes `text`, retrying short writes and EINTR. Async-signal-safe.
    static func writeRaw(_ fd: Int32, _ text: StaticString) {
        let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        Posix.writeFromSignalHandler(FileDescriptor(rawValue: fd), bytes)
    }

    /// Registers the `atexit` hook once.
    static func registerExitHook() {
        guard !exitHookRegistered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Posix.atExit(terminalExitHook)
    }
}

/// The last resort on `exit()`: the terminal is put back if nothing did it before.
private func terminalExitHook() {
    TerminalSignals.restoreNow()
}

/// The one handler for every signal the terminal code catches. Runs on any thread, at any
/// moment: only async-signal-safe calls below.
private func terminalSignalHandler(_ signal: Int32) {
    Posix.preservingLastError { handleTerminalSignal(signal) }
}

private func handleTerminalSignal(_ signal: Int32) {
    if signal == SignalNumber.continue { TerminalSignals.continues.add(1, ordering: .relaxed) }
    let isFatal = signal != SignalNumber.interrupt && signal != SignalNumber.terminate && signal != SignalNumber.hangUp
        && signal != SignalNumber.windowChange && signal != SignalNumber.terminalStop && signal != SignalNumber.continue
    if !isFatal {
        let wake = TerminalSignals.wakeDescriptor.load(ordering: .acquiring)
        if wake >= 0 {
            // The event thread does the rest; a full pipe means a wake-up is pending anyway.
            var byte = UInt8(truncatingIfNeeded: signal)
            withUnsafeBytes(of: &byte) { _ = Posix.writeFromSignalHandler(FileDescriptor(rawValue: wake), $0) }
            return
        }
        // No event thread: window changes and continues have no one to tell.
        if signal == SignalNumber.windowChange || signal == SignalNumber.continue { return }
    }
    TerminalSignals.restoreNow()
    if isFatal {
        // On to the handler found before (the backtracer, or the default action).
        _ = try? Posix.setAction(TerminalSignals.previousActions[Int(signal)], for: signal)
    } else {
        // SIGINT, SIGTERM, SIGHUP end the process, SIGTSTP stops it, with the default action.
        // While this handler runs the signal is blocked: it is delivered when the handler returns.
        Posix.setDisposition(.systemDefault, for: signal)
    }
    Posix.raise(signal)
}
