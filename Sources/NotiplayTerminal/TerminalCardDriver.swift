#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCore
package import Notiplay
import NotiplayViews

/// A card in a terminal: drawn and redrawn, keys from the keyboard and clicks from the mouse (as
/// `KeyBindings` maps them).
///
/// A text-input action — its key, a click on it, Enter while it is focused — opens a prompt
/// (type, Enter sends, Esc cancels). The terminal reports the mouse while the card is shown; the
/// terminal, mouse reporting off, is restored on every way out.
@MainActor
package struct TerminalCardDriver: CardDriver {
    private let makeTerminal: @MainActor () -> any CardTerminal
    private let environment: [String: String]
    private let escapeDelay: Duration

    /// A driver on the terminal at `input` and `output`; `environment` (the process's) decides
    /// colours (`NO_COLOR`, `COLORTERM`, `TERM`), glyphs (the locale) and `COLUMNS`/`LINES`.
    /// `escapeDelay` is how long an ESC waits for the rest of a sequence before it is the Escape
    /// key (`TerminalEvents`; tests on a busy machine make it long).
    package init(
        input: Int32 = 0, output: Int32 = 1, environment: [String: String], escapeDelay: Duration = .milliseconds(50)
    ) {
        self.init(
            terminal: { LocalCardTerminal(input: input, output: output, environment: environment) }, environment: environment,
            escapeDelay: escapeDelay)
    }

    /// A driver drawing on what `terminal` makes (a viewer attached to the center, say);
    /// `environment` (the viewer's) decides colours and glyphs.
    package init(
        terminal: @escaping @MainActor () -> any CardTerminal, environment: [String: String],
        escapeDelay: Duration = .milliseconds(50)
    ) {
        self.makeTerminal = terminal
        self.environment = environment
        self.escapeDelay = escapeDelay
    }

    package func present(_ session: PresentationSession, keys: KeyScript) async -> CardEnd {
        let card = TerminalCardScreen(source: .single(session), terminal: makeTerminal(), environment: environment)
        return await card.run(keys: keys, escapeDelay: escapeDelay)
    }

    /// Shows `deck`'s cards one at a time until the person quits or an interrupt comes: n and N
    /// move between them, a dismissed card gives way to the next, and while none waits the
    /// deck's status shows alone.
    package func present(deck: any CardDeck, keys: KeyScript) async -> CardEnd {
        let card = TerminalCardScreen(source: .deck(deck), terminal: makeTerminal(), environment: environment)
        return await card.run(keys: keys, escapeDelay: escapeDelay)
    }
}

/// What a terminal screen shows: one session, or a deck's shown one.
@MainActor
private enum CardSource {
    case single(any CardSession)
    case deck(any CardDeck)
}

/// The state of a card on a terminal while it is shown (a deck's cards, one after another).
@MainActor
private final class TerminalCardScreen {
    private let source: CardSource
    /// The session whose hooks are set (onChange, the log's observer).
    private var hooked: (any CardSession)?
    private let terminal: any CardTerminal
    private let environment: [String: String]
    private var renderer = FrameRenderer()
    /// The pictures drawn, for a terminal that draws them (set once it is open).
    private var pictures = PictureLayer(graphics: nil)
    private let colors: ColorMode
    private let glyphs: GlyphSet
    private var size: (columns: Int, rows: Int)
    private var prompt: (number: Int, title: String, text: String)?
    private var notice: String?
    private var drawPending = false
    /// `?` was pressed: the keys are listed until the next key.
    private var showingHelp = false

    init(source: CardSource, terminal: any CardTerminal, environment: [String: String]) {
        self.source = source
        self.terminal = terminal
        self.environment = environment
        colors = ColorMode.detect(environment: environment, isTerminal: true)
        glyphs = GlyphSet.detect(environment: environment)
        size = terminal.currentSize() ?? (80, 24)
    }

    func run(keys: KeyScript, escapeDelay: Duration) async -> CardEnd {
        let events: AsyncStream<TerminalEvent>
        do {
            events = try terminal.open(escapeDelay: escapeDelay)
        } catch {
            return .unavailable(error.message)
        }
        pictures = PictureLayer(
            graphics: terminal.graphics,
            sixel: terminal.cellPixels.map {
                SixelSupport(cell: $0, canDecode: { PNGPixels.canDecode($0.bytes) }, decode: { PNGPixels.decode($0.bytes) })
            })
        defer {
            // The card's pictures go with it (kitty keeps an image until told).
            let clear = pictures.clear()
            if !clear.isEmpty && terminal.isOpen { _ = terminal.write(frame: clear) }
            terminal.close()
        }

        if case .deck(let deck) = source {
            deck.onDeckChange = { [weak self] in self?.shownChanged() }
        }
        hook(session)
        draw()
        if let session, let end = await keys.run(on: session, moveCard: moveCard, dismissAll: dismissAll).cardEnd { return end }
        if let end = afterInput() { return end }

        for await event in events {
            switch event {
            case .key(let key):
                if let end = handle(key) { return end }
            case .resize, .resumed:
                size = terminal.currentSize() ?? size
                renderer.invalidate()
                draw()
            case .interrupted(let signal):
                return .interrupted(signal: signal)
            case .endOfInput:
                return .closed
            }
            if let end = afterInput() { return end }
        }
        return .closed
    }

    /// The session shown now.
    private var session: (any CardSession)? {
        switch source {
        case .single(let session): session
        case .deck(let deck): deck.shownSession
        }
    }

    /// Sets the redraw and notice hooks on `session` (once per session).
    private func hook(_ session: (any CardSession)?) {
        guard let session, session !== hooked else { return }
        hooked = session
        notice = nil
        session.onChange = { [weak self] in self?.requestDraw() }
        session.log.observe { [weak self, weak session] logged in
            guard let self, let session, session === self.session else { return }
            self.observe(logged.event)
        }
        // A notice recorded before the card showed (no sound device, a media fetch that failed).
        for logged in session.log.events { observe(logged.event) }
    }

    /// After a key or an event: a single card that was dismissed ends; a deck shows its next.
    private func afterInput() -> CardEnd? {
        guard let session, session.isDismissed else { return nil }
        switch source {
        case .single: return .closed
        case .deck(let deck):
            deck.shownCardDismissed()
            return nil
        }
    }

    /// The deck's shown card or its status changed: draw whatever shows now, from scratch.
    private func shownChanged() {
        prompt = nil
        hook(session)
        renderer.invalidate()
        draw()
    }

    /// The next or previous card of a deck (`nil` on a single card).
    private func moveCard(_ step: Int) -> (any CardSession)? {
        guard case .deck(let deck) = source else { return nil }
        let moved = deck.move(by: step)
        shownChanged()
        return moved
    }

    /// Every card of a deck dismissed (`nil` on a single card, or when none is left).
    private func dismissAll() -> (any CardSession)? {
        guard case .deck(let deck) = source else { return nil }
        deck.dismissAll()
        shownChanged()
        return deck.shownSession
    }

    /// What a key does; the end of the card when it ends it.
    private func handle(_ key: Key) -> CardEnd? {
        if case .deck(let deck) = source { deck.keyPressed() }
        if prompt != nil { return type(key) }
        if showingHelp, key != .controlC {
            // Any key closes the list of keys, and does nothing else.
            showingHelp = false
            renderer.invalidate()
            draw()
            return nil
        }
        guard let session else {
            switch KeyBindings.command(for: key) {
            case .quit?: return .closed
            case .interrupt?: return .interrupted(signal: 2)
            case .help?: showHelp()
            default: break
            }
            return nil
        }
        switch KeyBindings.command(for: key) {
        case .input(let input)?:
            if let number = session.textInputAction(for: input) {
                prompt = (number, session.actionTitles[number - 1], "")
                draw()
            } else {
                session.handle(input)
            }
        case .otherCard(let step)?: _ = moveCard(step)
        case .dismissAll?: _ = dismissAll()
        case .help?: showHelp()
        case .quit?: return .closed
        case .interrupt?: return .interrupted(signal: 2)
        case nil: break
        }
        return nil
    }

    /// A key typed into a text-input action's prompt.
    private func type(_ key: Key) -> CardEnd? {
        guard var typing = prompt else { return nil }
        switch key {
        case .enter:
            prompt = nil
            session?.handle(.action(typing.number, text: typing.text))
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
            return .interrupted(signal: 2)
        default:
            break
        }
        draw()
        return nil
    }

    /// Errors the person should see stay on the card's last line.
    private func observe(_ event: PresentationEvent) {
        if case .error(let message) = event {
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

    private func showHelp() {
        showingHelp = true
        renderer.invalidate()
        draw()
    }

    /// Draws the card now: one write with only what changed.
    private func draw() {
        drawPending = false
        guard terminal.isOpen else { return }
        if showingHelp {
            var screen = Grid(width: size.columns, height: size.rows)
            for (row, line) in (["keys (any key closes this)"] + KeyBindings.help).prefix(size.rows).enumerated() {
                _ = screen.put(line, row: row, column: 0, limit: size.columns)
            }
            write(screen)
            return
        }
        let promptLine = prompt.map { "\($0.title): \($0.text)" }
        var deckStatus: String?
        var queued: [QueuedCard] = []
        var critical = false
        var cardNotice: String?
        var hint: String?
        if case .deck(let deck) = source {
            deckStatus = deck.deckStatus
            cardNotice = deck.shownNotice.map { TerminalText.clean($0) }
            hint = deck.shownHint.map { TerminalText.clean($0) }
            queued = deck.queuedCards(limit: size.rows)
            critical = deck.shownIsCritical
        }
        guard let session else {
            var screen = Grid(width: size.columns, height: size.rows)
            _ = screen.put(deckStatus ?? "", row: 0, column: 0, limit: size.columns)
            write(screen)
            return
        }
        let status = [critical ? "‼ CRITICAL" : nil, notice, cardNotice, hint, deckStatus].compactMap { $0 }.joined(separator: " · ")
        // Clicks and Tab go by the card as drawn here.
        session.layoutWidth = size.columns
        var card = CardLayout.render(
            session.card(now: nil, prompt: promptLine, status: status.isEmpty ? nil : status), width: size.columns)
        if critical {
            // A critical card stands out: its top edge and header in bold red.
            for column in 0..<card.width where card.height > 0 {
                card[0, column].style = card[0, column].style.foreground(.ansi(9))
                card[0, column].style.bold = true
            }
        }
        // The frame is the card itself (the rest of the screen stays blank): a smaller diff.
        var screen = card
        if card.height > size.rows || !queued.isEmpty {
            // The waiting cards a line each under the card, as far as the pane allows.
            let lines = queued.prefix(max(0, size.rows - card.height))
            screen = Grid(width: size.columns, height: min(size.rows, card.height + lines.count))
            screen.draw(card, row: 0, column: 0)
            for (offset, waiting) in lines.enumerated() {
                _ = screen.put(waiting.line, row: card.height + offset, column: 0, style: .dim, limit: size.columns)
            }
        }
        write(screen)
    }

    /// Writes `screen` in one write: only what changed of its text; when its pictures changed, or
    /// the text is drawn whole, the old pictures taken away first and the new ones drawn after.
    private func write(_ screen: Grid) {
        var bytes: [UInt8] = []
        let whole = renderer.needsFullRedraw || pictures.changes(screen)
        if whole {
            bytes += pictures.clear()
            renderer.invalidate()
        }
        bytes += renderer.render(pictures.blanking(screen), mode: colors, glyphs: glyphs)
        if whole { bytes += pictures.draw(screen, parkRow: max(0, screen.height - 1)) }
        // Not written while suspended: the next frame, after `resumed`, draws everything.
        if !bytes.isEmpty && !terminal.write(frame: bytes) { renderer.invalidate() }
    }
}
