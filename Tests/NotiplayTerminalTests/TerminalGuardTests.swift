#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import NotiplayCore
import NotiplayTerminal
import NotiplayViews
import NotiplayTestSupport
import Testing

extension RealTime {
    /// The guard and the event source on a pseudo-terminal. Signal dispositions are process-wide
    /// and these tests stop the whole test process (Ctrl-Z, SIGTSTP) and install and check
    /// handlers, so everything that enters a guard or raises a signal is in this one suite of the
    /// real-time lane: alone, one test at a time, after everything else (beside other tests, a
    /// library set SIGTSTP back to its default action and the process stopped without the guard
    /// knowing). Each test checks that the dispositions found before are back afterwards. Signals
    /// are sent to the process (`kill`), not to the test's thread (`raise`): a Dispatch worker
    /// thread blocks them. Every time limit here is a hang guard; no verdict depends on speed.
    @Suite("Terminal guard and events")
    struct TerminalGuardTests {
        static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"

        private func handler(_ signal: Int32) -> Int {
            var action = sigaction()
            sigaction(signal, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        }

        private func isRaw(_ settings: termios) -> Bool {
            let lineDiscipline = settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0
            let inputTranslation = settings.c_iflag & tcflag_t(ICRNL | IXON | INLCR) == 0
            let output = settings.c_oflag & tcflag_t(OPOST | ONLCR) == tcflag_t(OPOST | ONLCR)
            let timing = withUnsafeBytes(of: settings.c_cc) { $0[Int(VMIN)] == 1 && $0[Int(VTIME)] == 0 }
            return lineDiscipline && inputTranslation && output && timing
        }

        private func start(
            _ pty: PseudoTerminal, escapeDelay: Duration = .milliseconds(50)
        ) throws -> (TerminalGuard, TerminalEvents, EventCollector) {
            let terminal = TerminalGuard()
            try terminal.enter(input: pty.slave, output: pty.slave)
            #expect(pty.read(through: Self.enterSequence).hasSuffix(Self.enterSequence))
            let events = try TerminalEvents(terminal: terminal, escapeDelay: escapeDelay)
            return (terminal, events, EventCollector(events))
        }

        @Test("enter: raw mode, alternate screen, hidden cursor; restore: settings byte for byte, once")
        func enterAndRestore() throws {
            let pty = try PseudoTerminal()
            let original = pty.settings()
            #expect(!isRaw(original))
            let watched = [SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGABRT]
            let before = watched.map(handler)

            let terminal = TerminalGuard()
            try terminal.enter(input: pty.slave, output: pty.slave)
            #expect(terminal.isEntered)
            #expect(pty.drain() == Self.enterSequence + "#MARK#")
            #expect(isRaw(pty.settings()))
            #expect(watched.map(handler) != before)
            try terminal.enter(input: pty.slave, output: pty.slave)  // already in: nothing more
            #expect(pty.drain() == "#MARK#")

            terminal.restore()
            #expect(!terminal.isEntered)
            #expect(pty.drain() == "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l#MARK#")
            #expect(bytes(of: pty.settings()) == bytes(of: original))
            #expect(watched.map(handler) == before)

            terminal.restore()
            #expect(pty.drain() == "#MARK#")
            #expect(bytes(of: pty.settings()) == bytes(of: original))
        }

        @Test("a pipe is no terminal; a second guard cannot take the terminal; a guard enters again")
        func refusals() throws {
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            defer { ends.forEach { close($0) } }
            #expect(throws: TerminalError.notATerminal(fd: ends[0])) {
                try TerminalGuard().enter(input: ends[0], output: ends[1])
            }

            let pty = try PseudoTerminal()
            let first = TerminalGuard()
            try first.enter(input: pty.slave, output: pty.slave)
            #expect(throws: TerminalError.alreadyInUse) {
                try TerminalGuard().enter(input: pty.slave, output: pty.slave)
            }
            let events = try TerminalEvents(terminal: first)
            #expect(throws: TerminalError.alreadyInUse) { try TerminalEvents(terminal: first) }  // one at a time
            events.stop()
            first.restore()
            #expect(throws: TerminalError.notATerminal(fd: -1)) { try TerminalEvents(terminal: first) }

            let second = TerminalGuard()
            try second.enter(input: pty.slave, output: pty.slave)
            second.restore()
            try first.enter(input: pty.slave, output: pty.slave)
            #expect(isRaw(pty.settings()))
            first.restore()
            #expect(!isRaw(pty.settings()))
        }

        @Test("a guard let go of gives the terminal back")
        func released() throws {
            let pty = try PseudoTerminal()
            let original = pty.settings()
            do {
                let terminal = TerminalGuard()
                try terminal.enter(input: pty.slave, output: pty.slave)
                #expect(isRaw(pty.settings()))
            }
            #expect(pty.drain() == Self.enterSequence + "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l#MARK#")
            #expect(bytes(of: pty.settings()) == bytes(of: original))
        }

        @Test("keys typed at the terminal arrive in order; a lone ESC is Escape after a pause")
        func keys() async throws {
            let pty = try PseudoTerminal()
            // A sequence split by the pseudo-terminal and its ESC read alone must not turn into
            // Escape, '[', 'A' on a busy machine: the pause that makes Escape is long here.
            let (terminal, events, collector) = try start(pty, escapeDelay: .seconds(1))
            defer { terminal.restore() }
            defer { events.stop() }

            pty.type("q\u{1B}[A日 \r")
            for key: Key in [.character("q"), .up, .character("日"), .space, .enter] {
                #expect(try await collector.next() == .key(key))
            }
            pty.type("\u{1B}")
            #expect(try await collector.next() == .key(.escape))
            pty.type([0x03, 0x04])
            #expect(try await collector.next() == .key(.controlC))
            #expect(try await collector.next() == .key(.controlD))
            #expect(terminal.isEntered)  // Ctrl-C is a key: the caller decides
        }

        @Test("keys typed before the guard entered are the first keys read")
        func typeahead() async throws {
            let pty = try PseudoTerminal()
            pty.type("ab")
            #expect(pty.read(through: "ab") == "ab")  // echoed while the terminal was still cooked
            let (terminal, events, collector) = try start(pty)
            defer { terminal.restore() }
            defer { events.stop() }
            #expect(try await collector.next() == .key(.character("a")))
            #expect(try await collector.next() == .key(.character("b")))
        }

        @Test("SIGWINCH gives a resize with the new size")
        func resize() async throws {
            let pty = try PseudoTerminal()
            let before = handler(SIGWINCH)
            do {
                let (terminal, events, collector) = try start(pty)
                defer { terminal.restore() }
                defer { events.stop() }
                pty.setSize(columns: 100, rows: 30)
                kill(getpid(), SIGWINCH)
                let size = try #require(TerminalSize.current(fd: pty.slave, environment: [:]))
                #expect(try await collector.next() == .resize(columns: size.columns, rows: size.rows))
                if getenv("COLUMNS") == nil && getenv("LINES") == nil {
                    #expect([size.columns, size.rows] == [100, 30])
                }
            }
            #expect(handler(SIGWINCH) == before)
        }

        @Test("SIGINT, SIGTERM, SIGHUP: terminal restored, then interrupted and the end of the stream",
              arguments: [SIGINT, SIGTERM, SIGHUP])
        func interrupted(_ signal: Int32) async throws {
            let pty = try PseudoTerminal()
            let original = pty.settings()
            let before = handler(signal)
            let resizeBefore = handler(SIGWINCH)
            let (terminal, events, collector) = try start(pty)
            defer { terminal.restore() }
            defer { events.stop() }

            try #require(handler(signal) != before, "not handled: raising it would end the test run")
            let ours = handler(signal)
            kill(getpid(), signal)
            #expect(try await collector.next() == .interrupted(signal))
            #expect(try await collector.next() == nil)
            #expect(!terminal.isEntered)
            #expect(bytes(of: pty.settings()) == bytes(of: original))
            #expect(pty.drain().hasSuffix("\u{1B}[?25h\u{1B}[?1049l#MARK#"))
            // Ours is gone: a second one acts as before the guard. (Compared with our handler rather
            // than with `before`: a library loaded meanwhile by a test running beside this one, such
            // as an audio output's, may have set its own.)
            #expect(handler(signal) != ours)
            events.stop()
            #expect(handler(SIGWINCH) == resizeBefore)
        }

        @Test("the terminal hanging up is the end of input")
        func hangUp() async throws {
            let pty = try PseudoTerminal()
            let (terminal, events, collector) = try start(pty)
            defer { terminal.restore() }
            defer { events.stop() }
            pty.type("x")
            #expect(try await collector.next() == .key(.character("x")))
            pty.closeMaster()
            #expect(try await collector.next() == .endOfInput)
            #expect(try await collector.next() == nil)
        }

        /// Continues this process once it has stopped (the test runner has no shell to type `fg`).
        private func continueWhenStopped() async -> TestChild {
            let script = """
                i=0
                while [ $i -lt 2000 ]; do
                  grep -q '^State:[[:space:]]*T' /proc/$1/status && break
                  i=$((i+1)); sleep 0.01
                done
                kill -CONT $1
                """
            return await TestChild.start("/bin/sh", ["-c", script, "sh", String(getpid())])
        }

        @Test("Ctrl-Z and SIGTSTP: terminal restored, process stopped, taken again on SIGCONT, resumed",
              arguments: ["ctrl-z", "SIGTSTP"])
        func suspend(_ how: String) async throws {
            let pty = try PseudoTerminal()
            let original = pty.settings()
            let before = handler(SIGTSTP)
            do {
                let (terminal, events, collector) = try start(pty)
                defer { terminal.restore() }
                defer { events.stop() }
                let helper = await continueWhenStopped()
                defer { helper.stop() }

                if how == "ctrl-z" { pty.type([0x1A]) } else { kill(getpid(), SIGTSTP) }
                #expect(try await collector.next(within: 30) == .resumed)
                let seen = pty.read(through: Self.enterSequence)
                #expect(seen == "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l" + Self.enterSequence)
                #expect(isRaw(pty.settings()))
                #expect(terminal.isEntered)
                pty.type("x")  // and no second `resumed` for the same stop
                #expect(try await collector.next() == .key(.character("x")))
            }
            #expect(bytes(of: pty.settings()) == bytes(of: original))
            #expect(handler(SIGTSTP) == before)
        }

        @Test("SIGCONT after a stop that was not ours: the terminal taken again, resumed")
        func foreignContinue() async throws {
            let pty = try PseudoTerminal()
            let (terminal, events, collector) = try start(pty)
            defer { terminal.restore() }
            defer { events.stop() }
            kill(getpid(), SIGCONT)
            #expect(try await collector.next() == .resumed)
            #expect(pty.read(through: Self.enterSequence).hasSuffix(Self.enterSequence))
            #expect(isRaw(pty.settings()))
        }
    }
}

/// Keys from a pipe: no terminal, no signal handlers, so it runs with everything else.
@Suite("Terminal events from a pipe")
struct TerminalEventsPipeTests {
    @Test("keys from a pipe, a trailing ESC flushed, then the end of input")
    func pipeInput() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let events = try TerminalEvents(input: ends[0])
        defer { events.stop() }
        let collector = EventCollector(events)
        _ = "ab\u{1B}".utf8CString.withUnsafeBytes { write(ends[1], $0.baseAddress, 3) }
        close(ends[1])
        for event: TerminalEvent in [.key(.character("a")), .key(.character("b")), .key(.escape), .endOfInput] {
            #expect(try await collector.next() == event)
        }
        #expect(try await collector.next() == nil)
    }

    @Test("ESC [ at the end of the input (Alt+[) is dropped, not Escape")
    func altBracketAtEnd() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let events = try TerminalEvents(input: ends[0])
        defer { events.stop() }
        let collector = EventCollector(events)
        _ = Array("a\u{1B}[".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, 3) }
        close(ends[1])
        for event: TerminalEvent in [.key(.character("a")), .endOfInput] {
            #expect(try await collector.next() == event)
        }
        #expect(try await collector.next() == nil)
    }
}
