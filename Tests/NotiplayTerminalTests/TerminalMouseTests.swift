#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import NotiplayCore
import Notiplay
import NotiplayTerminal
import NotiplayViews
import NotiplayTestSupport
import Testing

extension RealTime {
    /// Mouse reporting on a pseudo-terminal: the guard turns it on and always off again, and the
    /// terminal card driver takes clicks and Tab from what the terminal sends. Here, in the real-time
    /// lane, for the reasons ``TerminalGuardTests`` gives (the guard and the event source install
    /// process-wide signal handlers). Every time limit is a hang guard; events are waited for.
    @Suite("Mouse reporting: the guard and the terminal card")
    struct TerminalMouseTests {
        static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h"
        static let leave = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l\u{1B}[?1006l\u{1B}[?1000l"

        @Test("a guard that reports the mouse turns it on when it enters and off, last of all, when it restores or suspends")
        func guardSequences() throws {
            let pty = try PseudoTerminal()
            let original = pty.settings()
            let terminal = TerminalGuard(reportsMouse: true)
            try terminal.enter(input: pty.slave, output: pty.slave)
            #expect(pty.drain() == Self.enter + "#MARK#")
            terminal.suspend()
            #expect(pty.drain() == Self.leave + "#MARK#")
            terminal.resume()
            #expect(pty.drain() == Self.enter + "#MARK#")
            terminal.restore()
            #expect(pty.drain() == Self.leave + "#MARK#")
            #expect(bytes(of: pty.settings()) == bytes(of: original))

            // A guard that does not report the mouse leaves it alone.
            let plain = TerminalGuard()
            try plain.enter(input: pty.slave, output: pty.slave)
            plain.restore()
            #expect(!pty.drain().contains("?100"))
        }

        @Test("a signal while the card reports the mouse: restored with the mouse off")
        func signal() async throws {
            let pty = try PseudoTerminal()
            let terminal = TerminalGuard(reportsMouse: true)
            try terminal.enter(input: pty.slave, output: pty.slave)
            defer { terminal.restore() }
            #expect(pty.read(through: "\u{1B}[?1006h").hasSuffix("\u{1B}[?1006h"))
            let events = try TerminalEvents(terminal: terminal)
            defer { events.stop() }
            let collector = EventCollector(events)
            var action = sigaction()
            sigaction(SIGTERM, nil, &action)
            let handled = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
            try #require(handled != 0 && handled != 1, "not handled: raising it would end the test run")
            kill(getpid(), SIGTERM)
            #expect(try await collector.next() == .interrupted(SIGTERM))
            #expect(pty.drain() == Self.leave + "#MARK#")
        }

        @Test("the terminal card: a click at the media button's cell plays, Tab and Enter reach the extension's button, the wheel and other buttons do nothing, and mouse reporting is off at the end")
        func card() async throws {
            let pty = try PseudoTerminal(columns: 60, rows: 20)
            let (session, ext) = try await MainActor.run { try clickableSession(interaction: true) }
            let driver = await TerminalCardDriver(
                input: pty.slave, output: pty.slave, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"],
                escapeDelay: .seconds(5))  // a report split after its ESC on a busy machine is still one report
            let presenting = Task { @MainActor in await driver.present(session, keys: KeyScript()) }

            // The card is drawn with the terminal reporting the mouse.
            let drawn = pty.read(through: "Snooze")
            #expect(drawn.hasPrefix(Self.enter), "\(drawn.debugDescription)")
            let media = try #require(await MainActor.run { session.cardMap().cell(of: .mediaButton) })

            // Press and release of the left button on the ▶ (terminal cells count from 1).
            pty.type("\u{1B}[<0;\(media.column + 1);\(media.row + 1)M\u{1B}[<0;\(media.column + 1);\(media.row + 1)m")
            #expect(await session.waitFor("mediaPlay"))
            #expect(await MainActor.run { ext.calls } == ["mediaPlay"])

            // The wheel, the right button and motion over the button press nothing; Tab and Enter,
            // typed after them, reach the extension's first button.
            let at = "\(media.column + 1);\(media.row + 1)"
            pty.type("\u{1B}[<64;\(at)M\u{1B}[<65;\(at)M\u{1B}[<2;\(at)M\u{1B}[<2;\(at)m\u{1B}[<35;\(at)M")
            pty.type("\t\r")
            #expect(await session.waitFor("control"))
            #expect(await MainActor.run { ext.pressed } == ["Snooze"])
            #expect(await MainActor.run { ext.calls } == ["mediaPlay"], "the wheel and the right button pressed nothing")

            // A click on the ✕ closes the card, and the card gives the terminal back.
            let close = try #require(await MainActor.run { session.cardMap().cell(of: .close) })
            pty.type("\u{1B}[<0;\(close.column + 1);\(close.row + 1)M")
            #expect(await presenting.value == .closed)
            #expect(await MainActor.run { session.log.events(named: "dismissed").map { $0.string("reason") } } == ["user"])
            let rest = pty.read(through: Self.leave)
            #expect(rest.hasSuffix(Self.leave), "mouse reporting off last: \(rest.suffix(80).debugDescription)")
            #expect(pty.drain() == "#MARK#", "nothing written after")
        }

        @Test("the terminal card: q quits with mouse reporting off; an extension that takes no input gets no Tab")
        func quit() async throws {
            let pty = try PseudoTerminal(columns: 60, rows: 20)
            let (session, ext) = try await MainActor.run { try clickableSession(interaction: false) }
            let driver = await TerminalCardDriver(
                input: pty.slave, output: pty.slave, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"],
                escapeDelay: .seconds(5))  // a report split after its ESC on a busy machine is still one report
            let presenting = Task { @MainActor in await driver.present(session, keys: KeyScript()) }
            _ = pty.read(through: "Snooze")
            // Tab goes to the action (the extension's buttons are passed by); Shift-Tab back to nothing.
            pty.type("\t\u{1B}[Z\t\t")
            pty.type("q")
            #expect(await presenting.value == .closed)
            #expect(await MainActor.run { session.focus } == nil, "action, nothing, action, nothing")
            #expect(await MainActor.run { ext.pressed }.isEmpty)
            #expect(pty.read(through: Self.leave).hasSuffix(Self.leave))
        }
    }
}
