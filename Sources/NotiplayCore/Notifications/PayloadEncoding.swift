/// Content written back as an APNs payload: what the notification center stores once a service
/// extension has changed a notification, so that it is shown the same after a restart.
extension UNNotificationContent {
    /// The content as an APNs payload (JSON text) that ``PayloadDecoder`` reads back into the same
    /// fields: `userInfo`'s keys as they are, except `aps`, which is made from the content's
    /// fields (alert `title`, `subtitle`, `body`, `launch-image`; `badge`, `sound`, `category`,
    /// `thread-id`, `interruption-level`, `relevance-score`, `target-content-id`,
    /// `filter-criteria`) plus the original `aps`'s `content-available`. `mutable-content` is
    /// left out: the service extension has run. Attachments are not part of a payload.
    public var payloadJSON: String { JSONValue.object(payloadObject).jsonText }

    /// The content as the payload to store and as ``PayloadDecoder`` reads that payload back, made
    /// at once without parsing the text: for a host that builds a notification's content itself
    /// (the desktop bridge) and hands the center both.
    public var encodedPayload: (json: String, payload: APNsPayload) {
        let object = payloadObject
        let json = JSONValue.object(object).jsonText
        let decoded = UNMutableNotificationContent(self)
        decoded.attachments = []
        decoded.jsonUserInfo = object
        let available = object["aps"]?["content-available"] == .integer(1)
        return (
            json,
            APNsPayload(
                content: decoded.content, mutableContent: false, contentAvailable: available, simulatorTargetBundle: nil,
                byteCount: json.utf8.count, warnings: [])
        )
    }

    /// The payload's top-level object: `userInfo` with `aps` made from the fields.
    private var payloadObject: JSONObject {
        var root = jsonUserInfo
        var aps = JSONObject()
        var alert = JSONObject()
        if !title.isEmpty { alert["title"] = .string(title) }
        if !subtitle.isEmpty { alert["subtitle"] = .string(subtitle) }
        if !body.isEmpty { alert["body"] = .string(body) }
        if !launchImageName.isEmpty { alert["launch-image"] = .string(launchImageName) }
        if alert.count > 0 { aps["alert"] = .object(alert) }
        if let badge { aps["badge"] = .integer(Int64(badge)) }
        if let sound { aps["sound"] = Self.json(sound) }
        if !categoryIdentifier.isEmpty { aps["category"] = .string(categoryIdentifier) }
        if !threadIdentifier.isEmpty { aps["thread-id"] = .string(threadIdentifier) }
        if interruptionLevel != .active { aps["interruption-level"] = .string(interruptionLevel.apnsName) }
        if relevanceScore != 0 { aps["relevance-score"] = .number(relevanceScore) }
        if let targetContentIdentifier { aps["target-content-id"] = .string(targetContentIdentifier) }
        if let filterCriteria { aps["filter-criteria"] = .string(filterCriteria) }
        if let available = jsonUserInfo["aps"]?["content-available"] { aps["content-available"] = available }
        root["aps"] = .object(aps)
        return root
    }

    /// `"default"`, a file name, or the critical form `{"critical": 1, "name": …, "volume": …}`.
    private static func json(_ sound: UNNotificationSound) -> JSONValue {
        guard sound.isCritical else { return .string(sound.name ?? "default") }
        var critical = JSONObject([("critical", .integer(1)), ("name", .string(sound.name ?? "default"))])
        if let volume = sound.volume { critical["volume"] = .number(volume) }
        return .object(critical)
    }
}
