/// Hands out the `UINT32` ids `Notify` returns, and ties each to the center's identifiers.
///
/// - Ids increase from 1 and are never 0 (the spec's "no notification").
/// - Past `UInt32.max` they wrap to 1, skipping 0 and every id still live, so a live
///   notification's id is never given to another.
/// - `replaces_id` naming a live notification returns that id: the new notification takes the
///   old one's place (the center replaces by identifier, and the identifier is made from the
///   id). `replaces_id` naming no live notification — never given, or already closed — gets a
///   new id, as the spec says.
///
/// A value: the server keeps one, seeded after a restart with the live notifications the
/// center still holds (``init(live:next:)``), and calls ``release(_:)`` when one closes.
public struct FreedesktopIDs: Sendable, Hashable {
    /// The ids of the notifications still live.
    public private(set) var live: Set<UInt32>
    /// The id tried first next time (never 0).
    public private(set) var next: UInt32

    /// What ``assign(replacing:)`` decided.
    public struct Assignment: Sendable, Hashable {
        /// The id to return to the client.
        public var id: UInt32
        /// Whether it is the id of a live notification being replaced.
        public var replaces: Bool

        /// An assignment.
        public init(id: UInt32, replaces: Bool) {
            self.id = id
            self.replaces = replaces
        }
    }

    /// Ids for a server with these live notifications.
    /// - Parameters:
    ///   - live: The ids of the live notifications (a restarted server reads them from the
    ///     center's identifiers with ``id(fromIdentifier:)``).
    ///   - next: The id to try first; by default the one after the largest live id, or 1.
    public init(live: some Sequence<UInt32> = [], next: UInt32? = nil) {
        self.live = Set(live)
        self.live.remove(0)
        let start = next ?? self.live.max().map { $0 &+ 1 } ?? 1
        self.next = start == 0 ? 1 : start
    }

    /// The id for a `Notify` call with `replacesID`, marked live.
    public mutating func assign(replacing replacesID: UInt32) -> Assignment {
        if replacesID != 0, live.contains(replacesID) {
            return Assignment(id: replacesID, replaces: true)
        }
        // The loop ends: fewer than UInt32.max ids can be live (each is a notification in memory).
        var id = next
        while id == 0 || live.contains(id) { id &+= 1 }
        next = id &+ 1 == 0 ? 1 : id &+ 1
        live.insert(id)
        return Assignment(id: id, replaces: false)
    }

    /// Marks `id` closed: it may be handed out again once the ids wrap.
    public mutating func release(_ id: UInt32) {
        live.remove(id)
    }

    /// Whether `id` is live.
    public func isLive(_ id: UInt32) -> Bool {
        live.contains(id)
    }

    /// The prefix of the center's identifiers for freedesktop notifications.
    public static let identifierPrefix = "freedesktop-"
    /// The prefix of the per-notification categories' identifiers.
    public static let categoryPrefix = "freedesktop."

    /// The center's identifier for the notification with `id`: `freedesktop-ID`.
    public static func identifier(for id: UInt32) -> String {
        identifierPrefix + String(id)
    }

    /// The id in an identifier made by ``identifier(for:)``; `nil` for any other identifier.
    public static func id(fromIdentifier identifier: String) -> UInt32? {
        guard identifier.hasPrefix(identifierPrefix) else { return nil }
        let digits = identifier.dropFirst(identifierPrefix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitCharacter), digits.first != "0",
            let id = UInt32(digits)
        else { return nil }
        return id
    }

    /// The identifier of the category holding the buttons of the notification with `id`:
    /// `freedesktop.ID`.
    public static func categoryIdentifier(for id: UInt32) -> String {
        categoryPrefix + String(id)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
