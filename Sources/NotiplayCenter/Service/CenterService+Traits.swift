#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplayCore
import Notiplay

/// What a notification's card needs beyond its payload, told by whoever understands the payload
/// (the desktop bridge, for the notifications it mapped).
package struct NotificationTraits: Sendable, Equatable {
    /// Buttons the notification brought along, under its own category.
    package var category: UNNotificationCategory?
    /// Its card's media starts by itself when it arrives (a desktop notification's sound file),
    /// as Focus and its interruption level allow.
    package var startsMedia: Bool
    /// How long after it is delivered it leaves the screen (it stays in the history); `nil`: never.
    package var lifetime: Duration?
    /// The history forgets it once it ends.
    package var transient: Bool
    /// What its default action (Enter) is called, when it has one.
    package var defaultAction: String?
    /// The program that sent it, as its card's header names it, when that is not its app (a
    /// desktop notification's `app_name`).
    package var sender: String?
    /// The category configuration rules match, when it is not the payload's category (a desktop
    /// notification's `category` hint: its payload's category carries its buttons).
    package var ruleCategory: String?
    /// The arrival sound a configuration rule gives it instead of its payload's (`nil`: its own).
    package var sound: RuleSound?
    /// Its arrival sound's volume, 0 to 100, as the configuration says (`nil`: the sound's own).
    package var soundVolume: Int?
    /// A configuration rule silences its arrival sound.
    package var silenced: Bool
    /// A configuration rule sends its card ahead of the waiting ones, shown at once.
    package var skipsQueue: Bool

    /// Traits: by default none of these.
    package init(
        category: UNNotificationCategory? = nil, startsMedia: Bool = false, lifetime: Duration? = nil, transient: Bool = false,
        defaultAction: String? = nil, sender: String? = nil, ruleCategory: String? = nil, sound: RuleSound? = nil, soundVolume: Int? = nil,
        silenced: Bool = false, skipsQueue: Bool = false
    ) {
        self.ruleCategory = ruleCategory
        self.sound = sound
        self.soundVolume = soundVolume
        self.silenced = silenced
        self.skipsQueue = skipsQueue
        self.category = category
        self.startsMedia = startsMedia
        self.lifetime = lifetime
        self.transient = transient
        self.defaultAction = defaultAction
        self.sender = sender
    }
}

/// Tells the traits of the notifications it understands.
@MainActor
package protocol NotificationTraitSource: AnyObject {
    /// The traits of `notification` of app `app`, or `nil` when it is not one of this source's.
    func traits(of notification: UNNotification, app: String) -> NotificationTraits?
}

extension CenterService {
    /// Asks `source` for the traits of every notification from now on.
    package func addTraitSource(_ source: any NotificationTraitSource) {
        traitSources.append(source)
    }

    /// What the deck needs of `stored` to place its card.
    func arrival(_ stored: StoredNotification, notification: UNNotification?, startsMedia: Bool) -> CenterDeck.Arrival {
        CenterDeck.Arrival(
            identifier: stored.identifier, app: stored.app, thread: stored.threadIdentifier,
            critical: notification?.request.content.interruptionLevel == .critical, presentable: apps[stored.app] != nil,
            startsMedia: startsMedia, skipsQueue: live[stored.identifier]?.traits.skipsQueue ?? false)
    }

    /// Notifications ended (dismissed, removed, expired): forgotten here, and deleted from the
    /// store when the history does not keep them.
    func ended(_ identifiers: [String]) {
        var forgotten: [String] = []
        for identifier in identifiers {
            guard let gone = live.removeValue(forKey: identifier) else { continue }
            if gone.traits.transient { forgotten.append(identifier) }
        }
        if !forgotten.isEmpty { _ = try? store.forget(identifiers: forgotten) }
        armExpiry()
    }

    // MARK: Expiry

    /// Removes, as expired, the delivered notifications whose time on screen has run out, then
    /// waits for the next one. The shown card does not expire while it is busy (its media plays,
    /// or a key was just pressed on it): its sound is heard to the end, and a card is never
    /// taken from under a person's key; it expires once it is idle. A card whose media waits to
    /// start does not expire before it has played.
    func expireDue() {
        let now = time.now
        var due = live.filter { $0.value.expires.map { $0 <= now } ?? false }.map(\.key).sorted()
        let held = deck.isBusy(at: policyClock()) ? Set(deck.shown?.identifiers ?? []) : []
        let deferred = due.contains(where: held.contains)
        // Its turn comes when the media ahead ends, which checks again.
        let unheard = Set(deck.cards.filter(\.startsMedia).flatMap(\.identifiers))
        due.removeAll { held.contains($0) || unheard.contains($0) }
        if !due.isEmpty {
            _ = try? remove(identifiers: due, states: [.delivered], reason: .expired)
            // Not in the store as delivered (a service extension still had it): gone all the same.
            for identifier in due where live[identifier] != nil {
                live[identifier] = nil
                emit(.removed(identifiers: [identifier], reason: .expired))
            }
        }
        armExpiry(recheckingSoon: deferred)
    }

    /// On the system's time, wakes up when the next notification expires (or in a second, when
    /// the shown card's expiry waits for it to be idle); a virtual time checks at each
    /// ``advance(by:)``.
    func armExpiry(recheckingSoon: Bool = false) {
        expiryTimer?.cancel()
        expiryTimer = nil
        let soon = recheckingSoon ? time.now.addingTimeInterval(1) : nil
        guard let next = (live.values.compactMap(\.expires).filter { $0 > time.now } + [soon].compactMap { $0 }).min() else {
            return
        }
        expiryTimer = wakeUp(at: next) { center in
            center.expiryTimer = nil
            center.expireDue()
        }
    }
}
