import NotiplayCore
package import NotiplayViews
package import Notiplay

/// Keys fed to a card as if typed, with waits between them: `"space ~500ms 1 ~end q"`.
///
/// Keys are named as `KeyBindings.key(named:)` says and do what `KeyBindings` says; `~500ms`,
/// `~1.5s` or `~2` wait that long, and `~end` waits until the card's media stops. A click is
/// `click:COLUMN:ROW` (the card's cell, from 1, as a terminal reports it), or `click:media` and
/// `click:close` (the middle of the media button and the ✕, wherever the card lays them out).
package struct KeyScript: Sendable, Equatable {
    /// One step of a script.
    package enum Step: Sendable, Equatable {
        /// Press a key.
        case key(Key)
        /// Wait this long.
        case wait(Duration)
        /// Wait until the card's media stops (when it is playing).
        case waitForEnd
        /// Click the middle of this target, if the card shows it (`click:media`, `click:close`).
        case click(CardTarget)
    }

    /// A key script's text that cannot be read.
    package struct UnknownKey: Error, Sendable, Equatable, CustomStringConvertible {
        /// The word that names no key, as written.
        package let token: String
        package var description: String {
            "unknown key '\(TerminalText.visible(token))' (\(KeyBindings.names), click:media, click:close, ~500ms, ~1.5s, ~end)"
        }
    }

    /// The steps, in order.
    package var steps: [Step]

    /// A script of these steps.
    package init(_ steps: [Step] = []) {
        self.steps = steps
    }

    /// Reads `text`. Spaces, tabs and commas separate keys; a text made only of spaces (a space
    /// typed as itself) presses space once for each.
    package init(parsing text: String) throws(UnknownKey) {
        if !text.isEmpty && text.allSatisfy({ $0 == " " }) {
            steps = Array(repeating: .key(.space), count: text.count)
            return
        }
        steps = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
            if token == "~end" {
                steps.append(.waitForEnd)
            } else if token == "click:media" {
                steps.append(.click(.mediaButton))
            } else if token == "click:close" {
                steps.append(.click(.close))
            } else if let key = KeyBindings.key(named: String(token)) {
                steps.append(.key(key))
            } else if token.hasPrefix("~"), let duration = Self.duration(token.dropFirst()) {
                steps.append(.wait(duration))
            } else {
                throw UnknownKey(token: String(token))
            }
        }
    }

    /// `500ms`, `1.5s` or a bare number of seconds, up to an hour.
    static func duration(_ text: Substring) -> Duration? {
        var number = text
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 3_600 else { return nil }
        return .milliseconds(Int((value * scale * 1000).rounded()))
    }

    /// How a script ended.
    package enum Outcome: Sendable, Equatable {
        /// Every step ran.
        case finished
        /// A key said quit.
        case quit
        /// A key said interrupt.
        case interrupted
    }

    /// Feeds the steps to `session`, in order. `n` and `N` ask `moveCard` for the next or previous
    /// card's session (the center's queue) and go on with it; without `moveCard` they do nothing.
    @MainActor
    package func run(
        on session: any CardSession, moveCard: (@MainActor (Int) -> (any CardSession)?)? = nil,
        dismissAll: (@MainActor () -> (any CardSession)?)? = nil
    ) async -> Outcome {
        var session = session
        for step in steps {
            switch step {
            case .key(let key):
                switch KeyBindings.command(for: key) {
                case .input(let input)?:
                    session.handle(input)
                    await Task.yield()
                case .otherCard(let step)?:
                    if let moved = moveCard?(step) { session = moved }
                case .dismissAll?:
                    guard let dismissAll else { break }
                    // Nothing left to show: the rest of the script has no card to go to.
                    guard let next = dismissAll() else { return .finished }
                    session = next
                case .help?: break
                case .quit?: return .quit
                case .interrupt?: return .interrupted
                case nil: break
                }
            case .wait(let duration):
                try? await Task.sleep(for: duration)
            case .click(let target):
                guard let cell = session.cardMap().cell(of: target) else { continue }
                session.handle(.click(column: cell.column, row: cell.row))
                await Task.yield()
            case .waitForEnd:
                guard session.isPlaying, !session.isDismissed else { continue }
                _ = await session.log.next(timeout: .seconds(600)) { $0.event.endsMedia }
            }
        }
        return .finished
    }
}
