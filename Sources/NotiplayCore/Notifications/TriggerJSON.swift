#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Triggers as JSON: how the notification center keeps a pending request's trigger, and how a
/// client hands it one.
///
/// ```json
/// {"type": "timeInterval", "timeInterval": 30, "repeats": false}
/// {"type": "calendar", "dateComponents": {"weekday": 3, "hour": 9}, "timeZone": "Europe/Berlin", "repeats": true}
/// ```
/// A calendar trigger's components are those of `DateComponents` that a date can match (`era`,
/// `year`, `month`, `day`, `hour`, `minute`, `second`, `weekday`, `weekdayOrdinal`, `quarter`,
/// `weekOfMonth`, `weekOfYear`, `yearForWeekOfYear`); `timeZone` is optional (absent: the
/// computer's).
public enum TriggerJSON {
    /// The components kept, by their JSON names.
    static let components: [(name: String, key: Calendar.Component)] = [
        ("era", .era), ("year", .year), ("month", .month), ("day", .day), ("hour", .hour),
        ("minute", .minute), ("second", .second), ("weekday", .weekday), ("weekdayOrdinal", .weekdayOrdinal),
        ("quarter", .quarter), ("weekOfMonth", .weekOfMonth), ("weekOfYear", .weekOfYear),
        ("yearForWeekOfYear", .yearForWeekOfYear),
    ]

    /// A trigger's JSON; `nil` for a trigger that is not scheduled (a push).
    public static func encode(_ trigger: any UNNotificationTrigger) -> String? {
        switch trigger {
        case let interval as UNTimeIntervalNotificationTrigger:
            let object = JSONObject([
                ("type", .string("timeInterval")), ("timeInterval", .number(interval.timeInterval)),
                ("repeats", .bool(interval.repeats)),
            ])
            return JSONValue.object(object).jsonText
        case let calendar as UNCalendarNotificationTrigger:
            var components = JSONObject()
            for (name, key) in Self.components {
                if let value = calendar.dateComponents.value(for: key) { components[name] = .integer(Int64(value)) }
            }
            var object = JSONObject([("type", .string("calendar")), ("dateComponents", .object(components))])
            if let zone = calendar.dateComponents.timeZone { object["timeZone"] = .string(zone.identifier) }
            object["repeats"] = .bool(calendar.repeats)
            return JSONValue.object(object).jsonText
        default:
            return nil
        }
    }

    /// Why a trigger's JSON cannot be read.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, naming the member.
        public let message: String
        public var description: String { message }
    }

    /// The trigger `text` describes.
    public static func decode(_ text: String) throws(Invalid) -> any UNNotificationTrigger {
        let root: JSONValue
        do { root = try JSONParser.parse(Array(text.utf8)) } catch {
            throw Invalid(message: "a trigger is not JSON: \(error.message)")
        }
        guard let object = root.objectValue else { throw Invalid(message: "a trigger is a JSON object") }
        let repeats = object["repeats"]?.boolValue ?? false
        switch object["type"]?.stringValue {
        case "timeInterval":
            guard let seconds = object["timeInterval"]?.doubleValue else {
                throw Invalid(message: "trigger.timeInterval: expected a number of seconds")
            }
            return UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats)
        case "calendar":
            guard let members = object["dateComponents"]?.objectValue else {
                throw Invalid(message: "trigger.dateComponents: expected an object")
            }
            var components = DateComponents()
            for (name, value) in members {
                guard let key = Self.components.first(where: { $0.name == name })?.key else {
                    throw Invalid(message: "trigger.dateComponents.\(name): not a date component")
                }
                guard let number = value.intValue else {
                    throw Invalid(message: "trigger.dateComponents.\(name): expected an integer")
                }
                components.setValue(number, for: key)
            }
            if let zone = object["timeZone"] {
                guard let name = zone.stringValue, let timeZone = TimeZone(identifier: name) else {
                    throw Invalid(message: "trigger.timeZone: not a time zone this computer knows")
                }
                components.timeZone = timeZone
            }
            return UNCalendarNotificationTrigger(dateMatching: components, repeats: repeats)
        default:
            throw Invalid(message: "trigger.type: expected \"timeInterval\" or \"calendar\"")
        }
    }
}
