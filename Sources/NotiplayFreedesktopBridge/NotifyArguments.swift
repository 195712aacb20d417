import NotiplayDBus
import NotiplayFreedesktop

/// `Notify`'s D-Bus arguments (`susssasa{sv}i`, checked by the D-Bus layer before a handler
/// runs) as the mapping's ``FreedesktopNotify``.
enum NotifyArguments {
    /// The call's arguments (and the strings the D-Bus layer cut), or `nil` when they are not
    /// `Notify`'s.
    static func notify(_ call: DBusMethodCall) -> FreedesktopNotify? {
        guard var notify = notify(call.arguments) else { return nil }
        let names = ["app_name", "replaces_id", "app_icon", "summary", "body", "actions", "hints", "expire_timeout"]
        for cut in call.cutStrings where cut.argument < names.count {
            let name = names[cut.argument]
            let key: String
            switch cut.place {
            case .whole: key = name
            case .element(let index): key = "\(name)[\(index)]"
            case .entryKey: key = name
            case .entryValue(let hint): key = "\(name).\(hint)"
            }
            notify.cutStrings[key] = max(notify.cutStrings[key] ?? 0, cut.byteCount)
        }
        return notify
    }

    /// The call's arguments, or `nil` when they are not `Notify`'s.
    static func notify(_ arguments: [DBusValue]) -> FreedesktopNotify? {
        guard arguments.count == 8,
            case .string(let app) = arguments[0], case .uint32(let replaces) = arguments[1],
            case .string(let icon) = arguments[2], case .string(let summary) = arguments[3],
            case .string(let body) = arguments[4], case .strings(let actions) = arguments[5],
            case .variants(let hints) = arguments[6], case .int32(let timeout) = arguments[7]
        else { return nil }
        return FreedesktopNotify(
            appName: app, replacesID: replaces, appIcon: icon, summary: summary, body: body, actions: actions,
            hints: hints.mapValues(hint), expireTimeout: timeout)
    }

    /// A hint's variant content as the mapping reads hints.
    static func hint(_ value: DBusValue) -> HintValue {
        switch value {
        case .string(let s): .string(s)
        case .bool(let b): .bool(b)
        case .byte(let b): .byte(b)
        case .int16(let i): .int(Int64(i))
        case .int32(let i): .int(Int64(i))
        case .int64(let i): .int(i)
        case .uint16(let u): .uint(UInt64(u))
        case .uint32(let u): .uint(UInt64(u))
        case .uint64(let u): .uint(u)
        case .double(let d): .double(d)
        case .objectPath: .unsupported("o")
        case .strings: .unsupported("as")
        case .variants: .unsupported("a{sv}")
        case .unsupported(let signature): .unsupported(signature)
        }
    }
}
