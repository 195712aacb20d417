import Notiplay

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `notiplay deliver` in a terminal: the card drawn and redrawn, keys from the keyboard.
///
/// Keys: space or p (media button), 1–9 (actions; a text-input action opens a prompt: type, Enter
/// sends, Esc cancels), Enter (default action), Esc or d (dismiss), t (touch the content), ← and →
/// (5 s back or on, when the card has a media button), q or Ctrl-D (quit), Ctrl-C (quit, status 130). The terminal is restored on every way out.
@MainActor
final class TerminalCard {
    private let session: PresentationSession
    private let terminal = TerminalGuard()
    private var renderer = FrameRenderer()
    private let colors: ColorMode
    private let glyphs: GlyphSet
    private var size: (columns: Int, rows: Int)
    private var prompt: (number: Int, title: String, text: String)?
    private var notice: String?
    private var events: TerminalEvents?
    private var drawPending = false
    /// ← and → move the media by this many seconds, as in mpv.
    nonisolated static let seekStep = 5.0

    private init(session: PresentationSession) {
        self.session = session
        let environment = processEnvironment
        colors = ColorMode.detect(environment: environment, isTerminal: true)
        glyphs = GlyphSet.detect(environment: environment)
        size = TerminalSize.current(fd: 1) ?? (80, 24)
    }

    /// Presents `session`'s card until it is dismissed or the person quits; returns the exit status.
    static func run(_ session: PresentationSession, keys: [HeadlessKey]) async -> Int32 {
        let card = TerminalCard(session: session)
        return await card.run(keys: keys)
    }

    private func run(keys: [HeadlessKey]) async -> Int32 {
        do {
            try terminal.enter(input: 0, output: 1)
        } catch {
            Diagnostics.shared.report("the terminal cannot be used: \(error)")
            return ExitStatus.unavailable
        }
        defer { terminal.restore() }
        let events: TerminalEvents
        do {
            events = try TerminalEvents(terminal: terminal)
        } catch {
            terminal.restore()
            Diagnostics.shared.report("the terminal cannot be read: \(error)")
            return ExitStatus.unavailable
        }
        self.events = events
        defer { events.stop() }

        session.onChange = { [weak self] in self?.requestDraw() }
        session.log.observe { [weak self] line in self?.observe(line) }
        // A notice recorded before the card showed (no sound device, a media fetch that failed).
        for line in session.log.events { observe(line) }
        draw()
        await HeadlessKey.run(keys, on: session)
        if session.isDismissed { return 0 }

        for await event in events {
            switch event {
            case .key(let key):
                if let status = handle(key) { return status }
            case .resize(let columns, let rows):
                size = (columns, rows)
                renderer.invalidate()
                draw()
            case .resumed:
                size = TerminalSize.current(fd: 1) ?? size
                renderer.invalidate()
                draw()
            case .interrupted(let signal):
                return 128 + signal
            case .endOfInput:
                return 0
            }
            if session.isDismissed { return 0 }
        }
        return 0
    }

    /// What a key does; an exit status when it ends the card.
    private func handle(_ key: Key) -> Int32? {
        if var typing = prompt {
            switch key {
            case .enter:
                prompt = nil
                session.handle(.action(typing.number, text: typing.text))
            case .escape:
                prompt = nil
            case .backspace:
                if !typing.text.isEmpty { typing.text.removeLast() }
                prompt = typing
            case .space:
                typing.text.append(" ")
                prompt = typing
            case .character(let c):
                typing.text.append(c)
                prompt = typing
            case .controlC:
                return ExitStatus.interrupted
            default:
                break
            }
            draw()
            return nil
        }
        switch key {
        case .space, .character("p"): session.handle(.media)
        case .character("t"): session.handle(.tapContent)
        case .enter: session.handle(.defaultAction)
        case .escape, .character("d"): session.handle(.dismiss)
        case .left: session.handle(.seekBy(-Self.seekStep))
        case .right: session.handle(.seekBy(Self.seekStep))
        case .character("q"), .controlD: return 0
        case .controlC: return ExitStatus.interrupted
        case .character(let c):
            guard let digit = c.wholeNumberValue, (1...9).contains(digit), session.actions.indices.contains(digit - 1) else {
                break
            }
            let action = session.actions[digit - 1]
            if action.isTextInput {
                prompt = (digit, action.title, "")
                draw()
            } else {
                session.handle(.action(digit))
            }
        default: break
        }
        return nil
    }

    /// Errors the person should see stay on the card's last line.
    private func observe(_ line: EventLine) {
        if line.name == "error", let message = line.string("message") {
            notice = message
            draw()
        }
    }

    /// Draws once for all the changes of this turn (a key changes the button and the view).
    private func requestDraw() {
        guard !drawPending else { return }
        drawPending = true
        Task { @MainActor [weak self] in
            guard let self, self.drawPending else { return }
            self.draw()
        }
    }

    /// Draws the card now: one write with only what changed.
    private func draw() {
        drawPending = false
        guard terminal.isEntered else { return }
        let promptLine = prompt.map { "\($0.title): \($0.text)" }
        let card = CardLayout.render(session.card(prompt: promptLine, status: notice), width: size.columns)
        // The frame is the card itself (the rest of the screen stays blank): a smaller diff.
        var screen = card
        if card.height > size.rows {
            screen = Grid(width: size.columns, height: size.rows)
            screen.draw(card, row: 0, column: 0)
        }
        let bytes = renderer.render(screen, mode: colors, glyphs: glyphs)
        // Not written while suspended: the next frame, after `resumed`, draws everything.
        if !bytes.isEmpty && !terminal.write(frame: bytes) { renderer.invalidate() }
    }
}
