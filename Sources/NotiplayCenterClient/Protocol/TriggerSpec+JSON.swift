#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A trigger's protocol form and its JSON text (NotiplayCore's `TriggerJSON` writes and reads
/// the same text): how an app's `UNUserNotificationCenter` turns a request's trigger into a
/// `send`'s, and a pending request's back.
extension TriggerSpec {
    /// The trigger `text` describes (`{"type": "timeInterval", …}`), or `nil` when it is not a
    /// trigger's JSON.
    public init?(jsonText text: String) {
        guard let spec = try? CenterProtocol.makeDecoder().decode(TriggerSpec.self, from: Data(text.utf8)) else { return nil }
        self = spec
    }

    /// The trigger as JSON text.
    public var jsonText: String {
        guard let data = try? CenterProtocol.makeEncoder().encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
