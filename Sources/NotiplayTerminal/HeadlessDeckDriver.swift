import NotiplayCore
import Notiplay

/// No screen, a deck of cards: the key script first, then one key script a line from the input
/// (`serve --headless`), each fed to the card shown when it arrives. A dismissed card gives way
/// to the next (the center sees it; a key that dismisses tells it at once, so the next line goes
/// to the next card). The input's end does not end the presentation: a server
/// keeps serving until `q` or an interrupt.
@MainActor
package final class HeadlessDeckDriver {
    private let deck: any CardDeck

    /// Called with a line that is not a key script, and why.
    package var onBadLine: (@MainActor (_ line: String, _ problem: String) -> Void)?

    /// A driver for `deck`.
    package init(deck: any CardDeck) {
        self.deck = deck
    }

    /// Feeds `keys`, then each of `lines`, until a `q` (``CardEnd/closed``), a Ctrl-C key
    /// (``CardEnd/interrupted(signal:)`` 2) or a signal from `signals`.
    /// - Parameters:
    ///   - keys: Fed first.
    ///   - lines: Key scripts, one a line (`space`, `~end d`, `n`); blank lines do nothing.
    ///   - signals: The numbers of the signals that end the presentation (the first does).
    package func present(keys: KeyScript, lines: AsyncStream<String>, signals: AsyncStream<Int32>) async -> CardEnd {
        if let end = await run(keys) { return end }
        // The first end wins: a key that quits, or a signal (even while a line's `~end` waits).
        let (ends, continuation) = AsyncStream.makeStream(of: CardEnd.self)
        let feeding = Task { @MainActor [self] in
            for await line in lines {
                let script: KeyScript
                do throws(KeyScript.UnknownKey) { script = try KeyScript(parsing: line) } catch {
                    onBadLine?(line, error.description)
                    continue
                }
                if let end = await run(script) {
                    continuation.yield(end)
                    return
                }
            }
        }
        let watching = Task {
            for await signal in signals {
                continuation.yield(.interrupted(signal: signal))
                return
            }
        }
        defer {
            feeding.cancel()
            watching.cancel()
        }
        for await end in ends { return end }
        return .closed
    }

    /// Feeds `script` to the shown card (moving between cards on n and N).
    private func run(_ script: KeyScript) async -> CardEnd? {
        guard !script.steps.isEmpty else { return nil }
        deck.keyPressed()
        guard let session = deck.shownSession else {
            // No card: only quitting means something.
            for case .key(let key) in script.steps {
                switch KeyBindings.command(for: key) {
                case .quit?: return .closed
                case .interrupt?: return .interrupted(signal: 2)
                default: continue
                }
            }
            return nil
        }
        let end = await script.run(
            on: session, moveCard: { [deck] step in deck.move(by: step) },
            dismissAll: { [deck] in
                deck.dismissAll()
                return deck.shownSession
            }
        ).cardEnd
        dismissIfNeeded()
        return end
    }

    /// The shown card was dismissed: the deck shows the next.
    private func dismissIfNeeded() {
        guard let session = deck.shownSession, session.isDismissed else { return }
        deck.shownCardDismissed()
    }
}
