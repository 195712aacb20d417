/// A push payload read from APNs JSON (an `.apns` file, as `xcrun simctl push` takes).
public struct APNsPayload: Sendable, Equatable {
    /// The notification content: the alert, sound, badge, category, thread… and every key of the
    /// payload in `userInfo`.
    public var content: UNNotificationContent
    /// `aps.mutable-content` is 1: a service extension may edit the content.
    public var mutableContent: Bool
    /// `aps.content-available` is 1: a background notification.
    public var contentAvailable: Bool
    /// The top-level `Simulator Target Bundle` key of `.apns` files, if present.
    public var simulatorTargetBundle: String?
    /// The payload's size as APNs counts it: the JSON without insignificant whitespace.
    public var byteCount: Int
    /// Doubts that did not stop decoding (unknown keys, values APNs ignores).
    public var warnings: [Diagnostic]

    /// Whether a service extension runs for it: an alert, and `mutable-content: 1`.
    public var wantsServiceExtension: Bool { mutableContent && content.hasAlertText }

    /// A push request for this payload.
    public func request(identifier: String) -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: content, trigger: UNPushNotificationTrigger())
    }
}

/// Reads APNs payloads: strict where APNs is strict, and every problem named by its key.
///
/// Every key of `aps` Apple documents is read: `alert` (a string, or a dictionary with `title`,
/// `subtitle`, `body`, `launch-image` and the localization keys), `badge`, `sound` (a string, or a
/// dictionary with `critical`, `name`, `volume`), `thread-id`, `category`, `content-available`,
/// `mutable-content`, `target-content-id`, `interruption-level`, `relevance-score` and
/// `filter-criteria`. Live Activity keys and unknown keys are warnings.
///
/// Localized alerts: notiplay has no string tables, so `loc-key` (and `title-loc-key`,
/// `subtitle-loc-key`) is shown the way iOS shows a key missing from its table — the key itself
/// used as the format: `%@`, `%1$@`… and `%d` take the `loc-args` in turn. A key with no
/// placeholders is shown followed by its arguments in parentheses: `GAME_INVITE (Shelly, Rick)`.
public struct PayloadDecoder: Sendable {
    /// APNs' limit for a notification payload, in bytes.
    public static let apnsLimit = 4096
    /// The largest payload file read at all, limit lifted or not.
    public static let fileCap = 1 << 20

    /// The largest payload accepted in bytes, or `nil` for no limit.
    public var sizeLimit: Int?

    /// A decoder with APNs' 4096-byte limit, or another (`nil` lifts it).
    public init(sizeLimit: Int? = PayloadDecoder.apnsLimit) {
        self.sizeLimit = sizeLimit
    }

    /// Reads and decodes the payload file at `path`.
    public func decodeFile(_ path: String) throws(InvalidFileError) -> APNsPayload {
        try decodeFileKeepingBytes(path).payload
    }

    /// Decodes the payload file at `path`, as ``decodeFile(_:)`` does, and returns the bytes it
    /// read too: for a caller that hands on exactly what it checked (`notiplay send`).
    /// - Parameter acceptingPipes: Whether a pipe the user named (`/dev/stdin` in a pipeline, a
    ///   shell's `<(…)`) is read too, to its end or past ``fileCap`` (an error).
    public func decodeFileKeepingBytes(
        _ path: String, acceptingPipes: Bool = false
    ) throws(InvalidFileError) -> (payload: APNsPayload, bytes: [UInt8]) {
        let bytes = try FileBytes.contents(of: path, cap: Self.fileCap, what: "a payload", acceptingPipes: acceptingPipes)
        do {
            return (try decode(bytes), bytes)
        } catch {
            throw InvalidFileError(file: path, errors: error.errors, warnings: error.warnings)
        }
    }

    /// Decodes a payload from its JSON bytes.
    /// - Throws: ``PayloadError`` with every problem found.
    public func decode(_ bytes: [UInt8]) throws(PayloadError) -> APNsPayload {
        var log = DiagnosticLog()
        let size = Self.compactSize(bytes)
        if let sizeLimit, size > sizeLimit {
            log.error(
                nil, "the payload is \(size) bytes without its whitespace; APNs accepts at most \(sizeLimit)",
                cause: .payloadTooLarge(size: size, limit: sizeLimit))
        }
        let root: JSONValue
        var duplicates: [JSONDuplicateKey] = []
        do {
            root = try JSONParser.parse(bytes, duplicateKeys: &duplicates)
            log.warnings += duplicates.map(Diagnostic.init)
        } catch {
            let syntax = Diagnostic(line: error.line, column: error.column, error.message)
            throw PayloadError(errors: log.errors + [syntax], warnings: log.warnings)
        }
        guard let object = root.objectValue else {
            log.error(nil, "a payload is a JSON object with an \"aps\" dictionary; found \(root.found)")
            throw PayloadError(errors: log.errors, warnings: log.warnings)
        }
        var reader = Reader(log: log)
        let payload = reader.payload(object, size: size)
        guard reader.log.errors.isEmpty, let payload else {
            throw PayloadError(errors: reader.log.errors, warnings: reader.log.warnings)
        }
        return payload
    }

    /// The byte count of `bytes` without whitespace outside strings (and without a BOM): the
    /// size APNs would count for the payload sent compactly.
    public static func compactSize(_ bytes: [UInt8]) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        for i in start..<bytes.count {
            let b = bytes[i]
            if inString {
                count += 1
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                continue
            } else {
                count += 1
                if b == UInt8(ascii: "\"") { inString = true }
            }
        }
        return count
    }
}

/// A payload that could not be decoded, with every problem found.
public struct PayloadError: Error, Sendable, Equatable {
    /// The problems, in the order of the keys in the file; never empty.
    public var errors: [Diagnostic]
    /// Doubts found on the way.
    public var warnings: [Diagnostic]
}

/// Walks a parsed payload, filling a content and logging problems by key path.
private struct Reader {
    var log: DiagnosticLog

    static let liveActivityKeys: Set<String> = [
        "stale-date", "content-state", "timestamp", "event", "dismissal-date", "attributes-type",
        "attributes", "input-push-token", "input-push-channel",
    ]

    mutating func payload(_ object: JSONObject, size: Int) -> APNsPayload? {
        var content = NotificationFields()
        var simulatorTarget: String?
        var userInfo = object
        if let value = object["Simulator Target Bundle"] {
            if let s = value.stringValue {
                simulatorTarget = s
            } else {
                expected("\"Simulator Target Bundle\"", "a string (a bundle identifier)", value)
            }
            userInfo["Simulator Target Bundle"] = nil
        }
        content.userInfo = userInfo
        guard let apsValue = object["aps"] else {
            log.error("aps", "missing: a payload needs an \"aps\" dictionary (custom keys go beside it)")
            return nil
        }
        guard let aps = apsValue.objectValue else {
            expected("aps", "a dictionary", apsValue)
            return nil
        }
        var mutable = false
        var available = false
        for (key, value) in aps {
            let path = "aps.\(key)"
            switch key {
            case "alert": alert(value, into: &content)
            case "badge":
                if case .integer(let n) = value, n >= 0, let badge = Int(exactly: n) {
                    content.badge = badge
                } else if case .integer = value {
                    log.error(path, "must not be negative (0 removes the badge); found \(value.found)")
                } else {
                    expected(path, "an integer (0 removes the badge)", value)
                }
            case "sound": content.sound = sound(value)
            case "thread-id": content.threadIdentifier = string(path, value) ?? ""
            case "category": content.categoryIdentifier = string(path, value) ?? ""
            case "target-content-id": content.targetContentIdentifier = string(path, value)
            case "filter-criteria": content.filterCriteria = string(path, value)
            case "mutable-content": mutable = flag(path, value)
            case "content-available": available = flag(path, value)
            case "interruption-level":
                guard let name = string(path, value) else { break }
                if let level = UNNotificationInterruptionLevel(rawValue: name) {
                    content.interruptionLevel = level
                } else {
                    log.error(
                        path,
                        "expected one of passive, active, time-sensitive, critical; found \(value.found)")
                }
            case "relevance-score":
                if let score = value.doubleValue {
                    if (0...1).contains(score) {
                        content.relevanceScore = score
                    } else {
                        log.error(path, "must be between 0 and 1; found \(value.found)")
                    }
                } else {
                    expected(path, "a number between 0 and 1", value)
                }
            default:
                if Self.liveActivityKeys.contains(key) {
                    log.warning(path, "is a Live Activity key; notiplay shows notifications only and ignores it")
                } else {
                    log.warning(path, "is not an APNs key and is ignored; put custom keys beside \"aps\", not in it")
                }
            }
        }
        if !content.title.isEmpty || !content.body.isEmpty || !content.subtitle.isEmpty {
            // An alert: fine.
        } else if available {
            log.warning("aps", "no alert: a background notification (content-available), nothing is shown")
        } else if content.sound == nil && content.badge == nil {
            log.warning("aps", "no alert, sound or badge: APNs would deliver nothing visible")
        }
        if mutable && !content.hasAlertText {
            log.warning("aps.mutable-content", "has no effect without alert text: service extensions run only for alerts")
        }
        return APNsPayload(
            content: UNNotificationContent(fields: content), mutableContent: mutable, contentAvailable: available,
            simulatorTargetBundle: simulatorTarget, byteCount: size, warnings: log.warnings)
    }

    mutating func alert(_ value: JSONValue, into content: inout NotificationFields) {
        if let text = value.stringValue {
            content.body = text
            return
        }
        guard let alert = value.objectValue else {
            expected("aps.alert", "a string or a dictionary (title, subtitle, body…)", value)
            return
        }
        var title: String?
        var subtitle: String?
        var body: String?
        var localized: [String: (key: String?, args: [String])] = [:]
        for (key, item) in alert {
            let path = "aps.alert.\(key)"
            switch key {
            case "title": title = string(path, item)
            case "subtitle": subtitle = string(path, item)
            case "body": body = string(path, item)
            case "launch-image": content.launchImageName = string(path, item) ?? ""
            case "title-loc-key", "subtitle-loc-key", "loc-key":
                let field = String(key.dropLast("loc-key".count))
                localized[field, default: (nil, [])].key = string(path, item)
            case "title-loc-args", "subtitle-loc-args", "loc-args":
                let field = String(key.dropLast("loc-args".count))
                localized[field, default: (nil, [])].args = strings(path, item)
            case "action-loc-key", "action", "summary-arg", "summary-arg-count":
                break  // Accepted by APNs; not shown on a card.
            default:
                log.warning(path, "is not an APNs alert key and is ignored")
            }
        }
        for (field, entry) in localized {
            let name = field.isEmpty ? "loc" : "\(field)loc"
            guard let key = entry.key else {
                if !entry.args.isEmpty {
                    log.warning("aps.alert.\(name)-args", "has no \(name)-key to go with it and is ignored")
                }
                continue
            }
            let text = Self.localizedText(key: key, arguments: entry.args)
            switch field {
            case "title-": if title != nil { overridden("title") }; title = text
            case "subtitle-": if subtitle != nil { overridden("subtitle") }; subtitle = text
            default: if body != nil { overridden("body") }; body = text
            }
        }
        content.title = title ?? ""
        content.subtitle = subtitle ?? ""
        content.body = body ?? ""
    }

    mutating func overridden(_ field: String) {
        let key = field == "body" ? "loc-key" : "\(field)-loc-key"
        log.warning("aps.alert.\(key)", "takes the place of aps.alert.\(field), as on iOS")
    }

    /// A localization key shown as iOS shows a key missing from its table (see ``PayloadDecoder``).
    static func localizedText(key: String, arguments: [String]) -> String {
        var out = ""
        var next = 0
        var usedPlaceholder = false
        let scalars = Array(key.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "%", i + 1 < scalars.count else {
                out.unicodeScalars.append(c)
                i += 1
                continue
            }
            if scalars[i + 1] == "%" {
                out += "%"
                i += 2
                continue
            }
            // %@, %d, %i, %s, %u, %f or positional %N$@.
            var j = i + 1
            var position: Int?
            var digits = 0
            while j < scalars.count, (0x30...0x39).contains(scalars[j].value), digits < 100 {
                digits = digits * 10 + Int(scalars[j].value - 0x30)
                j += 1
            }
            if j < scalars.count, scalars[j] == "$", j > i + 1 {
                position = digits
                j += 1
            } else {
                j = i + 1
            }
            guard j < scalars.count, "@disuf".unicodeScalars.contains(scalars[j]) else {
                out.unicodeScalars.append(c)
                i += 1
                continue
            }
            usedPlaceholder = true
            let index = position.map { $0 - 1 } ?? next
            if position == nil { next += 1 }
            out += arguments.indices.contains(index) ? arguments[index] : ""
            i = j + 1
        }
        if !usedPlaceholder && !arguments.isEmpty {
            out += " (" + arguments.joined(separator: ", ") + ")"
        }
        return out
    }

    mutating func sound(_ value: JSONValue) -> UNNotificationSound? {
        if let name = value.stringValue {
            return name == "default" ? .default : UNNotificationSound(named: name)
        }
        guard let dict = value.objectValue else {
            expected("aps.sound", "a string (a sound name or \"default\") or a dictionary (critical, name, volume)", value)
            return nil
        }
        var sound = UNNotificationSound.default
        var sawName = false
        for (key, item) in dict {
            let path = "aps.sound.\(key)"
            switch key {
            case "name":
                sawName = true
                if let name = string(path, item) { sound.name = name == "default" ? nil : name }
            case "critical": sound.isCritical = flag(path, item)
            case "volume":
                if let volume = item.doubleValue, (0...1).contains(volume) {
                    sound.volume = volume
                } else if item.doubleValue != nil {
                    log.error(path, "must be between 0 and 1; found \(item.found)")
                } else {
                    expected(path, "a number between 0 and 1", item)
                }
            default:
                log.warning(path, "is not an APNs sound key and is ignored")
            }
        }
        if !sawName { log.warning("aps.sound", "a sound dictionary should have a \"name\"; the default sound is used") }
        return sound
    }

    /// A 0/1 flag (`mutable-content`, `content-available`, `critical`).
    mutating func flag(_ path: String, _ value: JSONValue) -> Bool {
        switch value {
        case .integer(1): return true
        case .integer(0): return false
        case .integer: log.warning(path, "APNs reads only the number 1; found \(value.found), taken as 0"); return false
        default:
            expected(path, "the number 1 (or 0)", value)
            return false
        }
    }

    mutating func string(_ path: String, _ value: JSONValue) -> String? {
        if let s = value.stringValue { return s }
        expected(path, "a string", value)
        return nil
    }

    mutating func strings(_ path: String, _ value: JSONValue) -> [String] {
        guard let items = value.arrayValue else {
            expected(path, "an array of strings", value)
            return []
        }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            if let s = item.stringValue { out.append(s) } else { expected("\(path)[\(i)]", "a string", item) }
        }
        return out
    }

    mutating func expected(_ path: String, _ what: String, _ value: JSONValue) {
        log.error(path, "expected \(what); found \(value.found)")
    }
}
