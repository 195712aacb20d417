import NotiplayCore

extension PresentationEvent {
    /// The event's details, in the order its line writes them.
    public var fields: [(String, JSONScalar)] {
        switch self {
        case .didReceive(let identifier, let category, let name, let redelivery):
            var fields: [(String, JSONScalar)] = [
                ("identifier", .string(identifier)), ("category", .string(category)), ("extension", .string(name)),
            ]
            if redelivery { fields.append(("redelivery", .bool(true))) }
            return fields
        case .mediaPlay, .mediaPause, .mediaPlayingStarted, .mediaPlayingPaused:
            return []
        case .buttonState(let state):
            return [("state", .string(state.rawValue))]
        case .action(let identifier, let text, let source):
            var fields: [(String, JSONScalar)] = [("identifier", .string(identifier))]
            if let text { fields.append(("text", .string(text))) }
            if let source { fields.append(("source", .string(source.rawValue))) }
            return fields
        case .actions(let identifiers):
            return [("identifiers", .string(identifiers.joined(separator: ",")))]
        case .control(let title):
            return [("title", .string(title))]
        case .response(let option, let identifier, let timedOut):
            var fields: [(String, JSONScalar)] = [("option", .string(option.rawValue)), ("identifier", .string(identifier))]
            if timedOut { fields.append(("reason", .string("timeout"))) }
            return fields
        case .forwarded(let action, let text, let url):
            var fields: [(String, JSONScalar)] = [("action", .string(action))]
            if let text { fields.append(("text", .string(text))) }
            if let url { fields.append(("url", .string(url))) }
            return fields
        case .command(let action, let status):
            return [("action", .string(action)), ("status", .integer(status))]
        case .dismissed(let reason):
            return [("reason", .string(reason.rawValue))]
        case .playback(let state, let position, let message):
            var fields: [(String, JSONScalar)] = [("state", .string(state.rawValue)), ("position", .number(position))]
            if let message { fields.append(("message", .string(message))) }
            return fields
        case .service(let name, let identifier, let outcome):
            var fields: [(String, JSONScalar)] = [("extension", .string(name)), ("identifier", .string(identifier))]
            switch outcome {
            case .skipped(let reason):
                fields += [("outcome", .string("skipped")), ("reason", .string(reason))]
            case .finished(let result, let attachments, let timeWillExpire):
                fields += [("outcome", .string(result.rawValue)), ("attachments", .integer(attachments))]
                if timeWillExpire { fields.append(("timeWillExpire", .bool(true))) }
            }
            return fields
        case .removed(let kind, let identifiers):
            return [("kind", .string(kind.rawValue)), ("identifiers", .string(identifiers.joined(separator: ",")))]
        case .error(let message):
            return [("message", .string(message))]
        }
    }

    /// The event as a line recorded `t` seconds after the log's origin.
    public func line(at t: Double) -> EventLine {
        EventLine(name, t: t, fields)
    }

    /// The event a line written by ``line(at:)`` came from, or `nil` if `name` and `fields` are
    /// not such a line. Lists of identifiers come back split at commas.
    init?(name: String, fields: [(String, JSONScalar)]) {
        let line = FieldReader(fields)
        switch name {
        case "didReceive":
            guard let identifier = line.string("identifier"), let category = line.string("category"),
                let name = line.string("extension")
            else { return nil }
            self = .didReceive(identifier: identifier, category: category, extension: name, redelivery: line.bool("redelivery"))
        case "mediaPlay": self = .mediaPlay
        case "mediaPause": self = .mediaPause
        case "mediaPlayingStarted": self = .mediaPlayingStarted
        case "mediaPlayingPaused": self = .mediaPlayingPaused
        case "buttonState":
            guard let state = line.string("state").flatMap(PresentationSession.ButtonState.init) else { return nil }
            self = .buttonState(state)
        case "action":
            guard let identifier = line.string("identifier") else { return nil }
            self = .action(identifier: identifier, text: line.string("text"), source: line.string("source").flatMap(ActionSource.init))
        case "actions":
            guard let identifiers = line.list("identifiers") else { return nil }
            self = .actions(identifiers: identifiers)
        case "control":
            guard let title = line.string("title") else { return nil }
            self = .control(title: title)
        case "response":
            guard let option = line.string("option").flatMap(UNNotificationContentExtensionResponseOption.init),
                let identifier = line.string("identifier")
            else { return nil }
            self = .response(option: option, identifier: identifier, timedOut: line.string("reason") == "timeout")
        case "forwarded":
            guard let action = line.string("action") else { return nil }
            self = .forwarded(action: action, text: line.string("text"), url: line.string("url"))
        case "command":
            guard let action = line.string("action"), let status = line.integer("status") else { return nil }
            self = .command(action: action, status: status)
        case "dismissed":
            guard let reason = line.string("reason").flatMap(DismissReason.init) else { return nil }
            self = .dismissed(reason: reason)
        case "playback":
            guard let state = line.string("state").flatMap(PlaybackState.init), let position = line.number("position") else {
                return nil
            }
            self = .playback(state, position: position, message: line.string("message"))
        case "service":
            guard let name = line.string("extension"), let identifier = line.string("identifier"),
                let outcome = line.string("outcome")
            else { return nil }
            if outcome == "skipped" {
                guard let reason = line.string("reason") else { return nil }
                self = .service(extension: name, identifier: identifier, outcome: .skipped(reason: reason))
            } else {
                guard let result = ServiceResult(rawValue: outcome), let attachments = line.integer("attachments") else {
                    return nil
                }
                self = .service(
                    extension: name, identifier: identifier,
                    outcome: .finished(result, attachments: attachments, timeWillExpire: line.bool("timeWillExpire")))
            }
        case "removed":
            guard let kind = line.string("kind").flatMap(RemovalKind.init), let identifiers = line.list("identifiers") else {
                return nil
            }
            self = .removed(kind, identifiers: identifiers)
        case "error":
            guard let message = line.string("message") else { return nil }
            self = .error(message)
        default:
            return nil
        }
    }
}

/// Reads the fields of an event line by key.
private struct FieldReader {
    let fields: [(String, JSONScalar)]

    init(_ fields: [(String, JSONScalar)]) { self.fields = fields }

    func value(_ key: String) -> JSONScalar? { fields.first { $0.0 == key }?.1 }

    func string(_ key: String) -> String? {
        if case .string(let s) = value(key) { s } else { nil }
    }

    func integer(_ key: String) -> Int? {
        if case .integer(let i) = value(key) { i } else { nil }
    }

    func number(_ key: String) -> Double? {
        switch value(key) {
        case .number(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }

    func bool(_ key: String) -> Bool {
        if case .bool(let b) = value(key) { b } else { false }
    }

    /// A comma-separated list; an empty string is an empty list.
    func list(_ key: String) -> [String]? {
        string(key).map { $0.isEmpty ? [] : $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }
}
