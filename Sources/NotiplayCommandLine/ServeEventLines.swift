import NotiplayCenter
import NotiplayCore
import NotiplayFreedesktop
import NotiplayPlayback

/// The center's events as event lines, for `serve --headless`.
extension ServeCommand {
    /// A center event as an event line (`nil` for those that are not lines of their own: a
    /// card's presentation events are printed as they are, actions and responses by them).
    static func line(_ event: CenterService.Event, at t: Double) -> EventLine? {
        switch event {
        case .arrived(let identifier, let app, let queued):
            EventLine("arrived", t: t, [("identifier", .string(identifier)), ("app", .string(app)), ("waiting", .integer(queued))])
        case .skipped(let identifier, let app):
            EventLine("skipped", t: t, [
                ("identifier", .string(identifier)), ("app", .string(app)),
                ("message", .string("not shown: no app named \"\(app)\" is registered with this server; it stays listed")),
            ])
        case .removed(let identifiers, let reason):
            EventLine("removed", t: t, [
                ("identifiers", .string(identifiers.joined(separator: ","))),
                ("reason", .string(reason == .expired ? "expired" : "removed")),
            ])
        case .shown(let identifier):
            EventLine("shown", t: t, [("identifier", identifier.map { .string($0) } ?? .null)])
        case .fired(let identifier, let late):
            EventLine("fired", t: t, [("identifier", .string(identifier)), ("late", .bool(late))])
        case .focus(let on):
            EventLine("focus", t: t, [("state", .string(on ? "on" : "off"))])
        case .sound(let sound):
            soundLine(sound, at: t)
        case .warning(let identifier, let key, let message):
            warningLine(identifier: identifier, key: key, message: message, at: t)
        case .configuration(.reloaded(let rules)):
            EventLine("config", t: t, [("outcome", .string("reloaded")), ("rules", .integer(rules))])
        case .configuration(.kept(let problems)):
            EventLine("config", t: t, [
                ("outcome", .string("kept")),
                ("message", .string("the configuration in force stays: " + problems.joined(separator: "; "))),
            ])
        case .presentation, .action, .response:
            nil
        }
    }

    /// A warning about a notification: `warning identifier=… [id=ID] key=… message=…` (the id of
    /// a desktop notification).
    static func warningLine(identifier: String, key: String?, message: String, at t: Double) -> EventLine {
        var fields: [(String, JSONScalar)] = [("identifier", .string(identifier))]
        if let id = FreedesktopIDs.id(fromIdentifier: identifier) { fields.append(("id", .integer(Int(id)))) }
        fields += [("key", key.map { .string($0) } ?? .null), ("message", .string(message))]
        return EventLine("warning", t: t, fields)
    }

    /// An arrival sound's event as an event line: `sound identifier=… outcome=…`.
    static func soundLine(_ event: SoundEvent, at t: Double) -> EventLine {
        switch event {
        case .played(let identifier, let sound, let path, let volume):
            return EventLine("sound", t: t, [
                ("identifier", .string(identifier)), ("outcome", .string("played")), ("name", .string(sound)),
                ("path", .string(path)), ("volume", .number(volume)),
            ])
        case .queued(let identifier, let sound, let replaced):
            return EventLine("sound", t: t, [
                ("identifier", .string(identifier)), ("outcome", .string("queued")), ("name", .string(sound)),
                ("replaced", replaced.map { .string($0) } ?? .null),
            ])
        case .silenced(let identifier, let reason):
            return EventLine("sound", t: t, [
                ("identifier", .string(identifier)), ("outcome", .string("silenced")), ("reason", .string("\(reason)")),
            ])
        case .ended(let identifier, let reason):
            let why: String
            switch reason {
            case .endOfFile: why = "eof"
            case .truncated: why = "truncated"
            case .stopped: why = "stopped"
            case .failed: why = "failed"
            }
            return EventLine("sound", t: t, [("identifier", .string(identifier)), ("outcome", .string("ended")), ("reason", .string(why))])
        case .warning(let identifier, let message):
            return EventLine("sound", t: t, [
                ("identifier", .string(identifier)), ("outcome", .string("warning")), ("message", .string(message)),
            ])
        }
    }
}
