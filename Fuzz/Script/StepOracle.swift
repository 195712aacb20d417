import FuzzSupport
import NotiplayScript

/// The values a parsed step may hold, as the language documents them.
enum StepOracle {
    static func check(_ kind: ScriptStep.Kind) {
        switch kind {
        case .app(let p): path(p)
        case .extensions(let p): path(p)
        case .deliver(let p, let attachments):
            path(p)
            attachments.forEach(path)
        case .wait(let d), .seek(let d), .expectPosition(let d), .expectHeard(_, let d): cardDuration(d)
        case .waitUntil(let event, let timeout):
            require(ScriptParser.eventNames.contains(event), "unknown event \(event)")
            if let timeout { cardDuration(timeout) }
        case .resize(let columns, let rows):
            require((10...500).contains(columns) && (3...200).contains(rows), "resize \(columns)x\(rows)")
        case .expectEvent(let name, let count):
            require(ScriptParser.eventNames.contains(name) && (count ?? 0) >= 0, "expect event \(name) count \(count ?? 0)")
        case .expectNoEvent(let name): require(ScriptParser.eventNames.contains(name), "expect no event \(name)")
        case .action(let id, _), .expectForwarded(let id), .expectExtension(let id), .expectError(let id):
            require(!id.isEmpty, "an empty identifier in \(kind)")
        case .expectScreen(_, let text): require(!text.isEmpty, "expect screen with empty text")
        case .expectActions(let ids): require(!ids.contains(""), "expect actions with an empty identifier")
        case .send(let p, let attachments, let id, let trigger):
            path(p)
            attachments.forEach(path)
            require(id != "", "send with an empty id")
            if case .timeInterval(let interval, let repeats) = trigger {
                centerDuration(interval)
                require(!repeats || interval >= .seconds(60), "a repeating interval under 60 s: \(interval)")
            }
            if case .calendar(let date, _) = trigger { self.date(date) }
        case .serve(let start): date(start)
        case .advance(let d): centerDuration(d)
        case .restart(let d): if let d { centerDuration(d) }
        case .expectDelivered(let id, _, let count): require(!id.isEmpty && (count ?? 0) >= 0, "\(kind)")
        case .expectNotDelivered(let id), .expectSound(let id, _): require(!id.isEmpty, "\(kind)")
        case .expectPending(let count): require(count >= 0, "expect pending \(count)")
        default: break
        }
    }

    static func require(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { oracleFailure("a step the language does not allow: \(what())") }
    }

    static func path(_ p: String) {
        require(p.hasPrefix("/") && !p.contains("/./") && !p.contains("//"), "the path \(p.debugDescription)")
    }

    static func cardDuration(_ d: Duration) {
        require(d >= .zero && d <= .seconds(3600), "a card step's duration of \(d)")
    }

    static func centerDuration(_ d: Duration) {
        require(d > .zero && d <= .seconds(3650 * 86_400), "a center step's duration of \(d)")
    }

    static func date(_ date: ScriptDate) {
        let leap = date.year % 4 == 0 && (date.year % 100 != 0 || date.year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let valid =
            (1970...9999).contains(date.year) && (1...12).contains(date.month)
            && (1...days[date.month - 1]).contains(date.day) && (0...23).contains(date.hour)
            && (0...59).contains(date.minute) && (0...59).contains(date.second)
        require(valid, "the date \(date)")
    }
}
