import Logging
import NotiplayCore
import NotiplaySystem
import Synchronization
import SystemPackage

/// What extensions print, kept out of notiplay's own output.
///
/// Extensions run in notiplay's process: their `print`, and anything else written to descriptor 1
/// or 2, would land in the middle of `--events jsonl` or TAP, or scribble over the terminal card.
/// While a command presents (`deliver`, `serve`, `test`), ``start(_:redirect:)`` keeps private
/// duplicates of the real standard output and error for notiplay's own output
/// (``standardOutput``, and ``Diagnostics``) and points descriptors 1 and 2 at pipes. Each line
/// read from them, made safe for a terminal (`TerminalText.clean`; blank lines dropped), becomes:
///
/// - with ``Mode/events(clock:render:)``: a `log` event line,
///   `{"event":"log","t":…,"stream":"stdout"|"stderr","text":…}`, among notiplay's own events;
/// - with ``Mode/collect``: a line kept (the last ``collectLimit``) for the command to show once
///   the screen is its own again (after the terminal card, beside the test report).
///
/// Order: C's `stdout` is line-buffered (``NotiplayCLI/main(types:)``), and before it writes a line
/// of its own notiplay flushes C's streams and reads what the pipes hold. So a line an extension
/// finished (with a newline, or flushed) before an event was recorded comes before that event's
/// line; between the two streams, order holds across such a point only. Text without a newline
/// waits for its newline, or for the end (``finish()``). `t` never decreases down the output: a
/// log line's is when notiplay read it, no later than the event line it precedes.
///
/// Lines of the audio stack on descriptor 2 (ALSA's `ALSA lib …`, PipeWire's `[W][…] …`) go to the
/// `native` logger at debug level instead, as ``NativeStderrCapture`` sends them when nothing
/// else is captured.
final class OutputCapture: Sendable {
    /// What becomes of the lines read.
    enum Mode: Sendable {
        /// `log` event lines, timed by `clock`, written through `render` (JSON or readable).
        case events(clock: EventClock, render: @Sendable (EventLine) -> String)
        /// Kept, for ``finish()`` to return.
        case collect
    }

    /// Which descriptor a line was written to.
    enum Stream: String, Sendable {
        case stdout, stderr
    }

    /// A line an extension printed.
    struct Line: Sendable, Equatable {
        var stream: Stream
        var text: String
    }

    /// What ``finish()`` found in ``Mode/collect``: the lines kept, and how many earlier ones were
    /// dropped to keep within ``collectLimit``.
    struct Collected: Sendable, Equatable {
        var lines: [Line] = []
        var dropped = 0
    }

    /// How many lines ``Mode/collect`` keeps (the last ones).
    static let collectLimit = 1_000

    /// The capture that redirected this process's descriptors, for ``NotiplayCLI/main(types:)`` to
    /// finish before the process exits.
    static let installed = Mutex<OutputCapture?>(nil)

    /// notiplay's own standard output: the real one, whatever descriptor 1 is now.
    let standardOutput: FileDescriptor
    private let mode: Mode
    private let redirect: Redirect?
    private let state = Mutex(State())
    private let reader = Mutex<SystemThread?>(nil)
    private let logger = Logger(label: "native")

    private struct Redirect: Sendable {
        let realError: FileDescriptor
        /// The pipes' read ends: standard output's, standard error's.
        let readEnds: [FileDescriptor]
        let stop: (read: FileDescriptor, write: FileDescriptor)
    }

    private struct State {
        var pending: [[UInt8]] = [[], []]
        var open = [true, true]
        var collected = Collected()
        /// Lines written while held (``hold()``), in order.
        var held: [String]?
        /// The `t` of the last event line written.
        var lastT = 0.0
        var finished = false
    }

    private init(mode: Mode, standardOutput: FileDescriptor, redirect: Redirect?) {
        self.mode = mode
        self.standardOutput = standardOutput
        self.redirect = redirect
    }

    /// Starts capturing in `mode`. With `redirect` (the command line owns the process), descriptors
    /// 1 and 2 are pointed at pipes and ``Diagnostics`` writes to a copy of the real standard
    /// error; without it, or when the descriptors cannot be set up, nothing is redirected and the
    /// capture only orders and holds notiplay's own lines.
    static func start(_ mode: Mode, redirect: Bool) -> OutputCapture {
        guard redirect, installed.withLock({ $0 == nil }), let capture = redirecting(mode) else {
            return OutputCapture(mode: mode, standardOutput: .standardOutput, redirect: nil)
        }
        installed.withLock { $0 = capture }
        return capture
    }

    private static func redirecting(_ mode: Mode) -> OutputCapture? {
        Posix.flushStandardStreams()
        var opened: [FileDescriptor] = []
        func undo() -> OutputCapture? {
            for fd in opened { Posix.close(fd) }
            return nil
        }
        let realOutput: FileDescriptor, realError: FileDescriptor
        let outPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let errPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let stopPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            realOutput = try Posix.duplicate(.standardOutput)
            opened.append(realOutput)
            realError = try Posix.duplicate(Diagnostics.shared.fileDescriptor)
            opened.append(realError)
            outPipe = try Posix.pipe()
            opened += [outPipe.readEnd, outPipe.writeEnd]
            errPipe = try Posix.pipe()
            opened += [errPipe.readEnd, errPipe.writeEnd]
            stopPipe = try Posix.pipe()
            opened += [stopPipe.readEnd, stopPipe.writeEnd]
            // Every end is close-on-exec; only the read ends of standard output's and error's
            // pipes are non-blocking: an extension's write waits while the pipe is full, as a
            // write to a terminal would.
            for end in [outPipe.writeEnd, errPipe.writeEnd, stopPipe.readEnd, stopPipe.writeEnd] { try Posix.setBlocking(end) }
        } catch {
            return undo()
        }
        do { try Posix.redirect(.standardOutput, to: outPipe.writeEnd) } catch { return undo() }
        do { try Posix.redirect(.standardError, to: errPipe.writeEnd) } catch {
            try? Posix.redirect(.standardOutput, to: realOutput)
            return undo()
        }
        // Descriptors 1 and 2 are now the pipes' only write ends (dup2 leaves them inherited by
        // programs started later, as 1 and 2 always are).
        Posix.close(outPipe.writeEnd)
        Posix.close(errPipe.writeEnd)
        let redirect = Redirect(
            realError: realError, readEnds: [outPipe.readEnd, errPipe.readEnd], stop: (stopPipe.readEnd, stopPipe.writeEnd))
        let capture = OutputCapture(mode: mode, standardOutput: realOutput, redirect: redirect)
        do {
            let thread = try SystemThread.start(name: "output capture") { capture.readUntilStopped() }
            capture.reader.withLock { $0 = thread }
        } catch {
            try? Posix.redirect(.standardOutput, to: realOutput)
            try? Posix.redirect(.standardError, to: realError)
            for fd in [realOutput, realError, outPipe.readEnd, errPipe.readEnd, stopPipe.readEnd, stopPipe.writeEnd] {
                Posix.close(fd)
            }
            return nil
        }
        Diagnostics.shared.fileDescriptor = realError
        return capture
    }

    /// The capture that redirected this process's descriptors, if one runs.
    static var current: OutputCapture? { installed.withLock { $0 } }

    /// Writes an event line of notiplay's own (``Mode/events(clock:render:)``; in
    /// ``Mode/collect``, written as JSON), after whatever the extensions printed before it.
    func emit(_ line: EventLine) {
        Posix.flushStandardStreams()  // an extension's unfinished `print`, before the lock (see `readUntilStopped`)
        state.withLock { state in
            drain(&state, before: line.t)
            var line = line
            line.t = max(line.t, state.lastT)
            state.lastT = line.t
            write(render(line) + "\n", &state)
        }
    }

    /// Writes `text` of notiplay's own (the plain card) to ``standardOutput`` now, even while lines
    /// are held, after whatever the extensions printed before it.
    func write(_ text: String) {
        Posix.flushStandardStreams()
        state.withLock { state in
            drain(&state, before: nil)
            _ = try? standardOutput.writeAll(text.utf8)
        }
    }

    /// Keeps event lines (notiplay's and the extensions') back until ``release()``, in order.
    func hold() {
        state.withLock { $0.held = $0.held ?? [] }
    }

    /// Writes the lines held since ``hold()``, and every later one as it comes.
    func release() {
        state.withLock { state in
            let held = state.held ?? []
            state.held = nil
            _ = try? standardOutput.writeAll(held.joined().utf8)
        }
    }

    private func render(_ line: EventLine) -> String {
        if case .events(_, let render) = mode { render(line) } else { line.json }
    }

    private func write(_ text: String, _ state: inout State) {
        if state.held != nil {
            state.held?.append(text)
        } else {
            _ = try? standardOutput.writeAll(text.utf8)
        }
    }
}

extension OutputCapture {
    /// Ends the capture: flushes C's streams, points descriptors 1 and 2 back at the real
    /// standard output and error, and reads what the pipes still hold (text without a final
    /// newline included) — as `log` event lines in ``Mode/events(clock:render:)``, or returned in
    /// ``Mode/collect``. Later event lines are written as they come. Call it once the extensions
    /// are done; calling it again returns nothing.
    func finish() -> Collected {
        guard let redirect else { return Collected() }
        let first = state.withLock { state in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return Collected() }
        Posix.flushStandardStreams()
        try? Posix.redirect(.standardOutput, to: standardOutput)
        try? Posix.redirect(.standardError, to: redirect.realError)
        _ = try? Posix.writeAll(redirect.stop.write, [1])
        reader.withLock { $0 }?.join()
        let collected = state.withLock { state in
            drain(&state, before: nil, toTheEnd: true)
            return state.collected
        }
        for fd in redirect.readEnds + [redirect.stop.read, redirect.stop.write] { Posix.close(fd) }
        Self.installed.withLock { if $0 === self { $0 = nil } }
        return collected
    }

    /// The reader thread: waits for either pipe, then reads it (under the lock), until
    /// ``finish()`` writes to the stop pipe. The thread never waits for C's stream locks, so an
    /// extension blocked in `print` on a full pipe is always unblocked by it.
    private func readUntilStopped() {
        guard let redirect else { return }
        var fds = redirect.readEnds.map { Posix.PollEntry(file: $0, events: .readable) }
        fds.append(Posix.PollEntry(file: redirect.stop.read, events: .readable))
        while true {
            do {
                guard try Posix.poll(&fds, timeout: nil) != nil else { continue }  // interrupted
            } catch {
                return
            }
            if !fds[2].found.isEmpty { return }
            let open = state.withLock { state in
                drain(&state, before: nil)
                return state.open
            }
            for index in 0..<2 where !open[index] { fds[index].file = FileDescriptor(rawValue: -1) }
        }
    }

    /// Reads what the pipes hold now (a bounded amount unless `toTheEnd`) and passes on each
    /// complete line; with `toTheEnd`, the unfinished rest too. A `log` line's `t` is now, but no
    /// later than `before` (the event line about to be written) and no earlier than the last.
    private func drain(_ state: inout State, before: Double?, toTheEnd: Bool = false) {
        guard let redirect, !state.finished || toTheEnd else { return }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        for index in 0..<2 where state.open[index] {
            var budget = toTheEnd ? Int.max : 1 << 20
            while budget > 0 {
                // Retried when interrupted; a read that would wait (the pipe is empty) throws.
                let result = buffer.withUnsafeMutableBytes { space in
                    Result { () throws(SystemCallError) in try Posix.read(redirect.readEnds[index], into: space) }
                }
                guard let count = try? result.get() else { break }
                if count > 0 {
                    state.pending[index] += buffer[0..<count]
                    budget -= count
                } else {
                    state.open[index] = false
                    break
                }
            }
        }
        for (index, stream) in [Stream.stdout, .stderr].enumerated() {
            var bytes = state.pending[index]
            var start = bytes.startIndex
            var lines: [ArraySlice<UInt8>] = []
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                lines.append(bytes[start..<newline])
                start = newline + 1
            }
            // A line without its newline: passed on at the end, or once it is very long.
            if start < bytes.endIndex, toTheEnd || bytes.endIndex - start > 8_192 {
                lines.append(bytes[start...])
                start = bytes.endIndex
            }
            bytes.removeSubrange(..<start)
            state.pending[index] = bytes
            for line in lines { pass(line, stream, &state, before: before) }
        }
    }

    private func pass(_ bytes: ArraySlice<UInt8>, _ stream: Stream, _ state: inout State, before: Double?) {
        var raw = String(decoding: bytes, as: UTF8.self)
        if raw.hasSuffix("\r") { raw.removeLast() }
        if stream == .stderr, Self.isAudioStack(raw) {
            logger.debug("\(TerminalText.clean(raw))", source: "native")
            return
        }
        let text = TerminalText.clean(raw)
        guard !text.isEmpty else { return }
        switch mode {
        case .collect:
            state.collected.lines.append(Line(stream: stream, text: text))
            if state.collected.lines.count > Self.collectLimit {
                state.collected.lines.removeFirst()
                state.collected.dropped += 1
            }
        case .events(let clock, let render):
            let t = max(state.lastT, min(clock.seconds(), before ?? .infinity))
            state.lastT = t
            let line = EventLine("log", t: t, [("stream", .string(stream.rawValue)), ("text", .string(text))])
            write(render(line) + "\n", &state)
        }
    }

    /// Whether `line`, read from descriptor 2, is the audio stack's: ALSA's error handler
    /// (`ALSA lib file.c:LINE:(function) …`) or PipeWire's log (`[W][12345.678901] pw.conf | …`).
    static func isAudioStack(_ line: String) -> Bool {
        if line.hasPrefix("ALSA lib ") { return true }
        let scalars = Array(line.unicodeScalars.prefix(4))
        return scalars.count == 4 && scalars[0] == "[" && "EWIDT".unicodeScalars.contains(scalars[1]) && scalars[2] == "]"
            && scalars[3] == "["
    }
}
