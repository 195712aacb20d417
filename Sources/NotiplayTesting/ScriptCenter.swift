package import Notiplay
package import NotiplayCore
package import NotiplayPlayback

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The notification center a script's `serve` step starts: a headless center on a virtual clock,
/// with its own store. Whoever runs scripts makes it (``ScriptRunner/makeCenter``): the command
/// line makes notiplay's center, which this module does not depend on.
@MainActor
package protocol ScriptCenter: AnyObject {
    /// Hands the center a notification (the payload file at `payload`, with `attachments`),
    /// delivered now or scheduled by `trigger`; returns its identifier.
    /// - Throws: An error whose description says why the center refused it.
    func send(payload: String, attachments: [String], identifier: String?, trigger: (any UNNotificationTrigger)?) throws -> String
    /// Moves the virtual clock on: each request due meanwhile fires at its own date.
    func advance(by seconds: Double)
    /// Stops the center and starts it again on the same store, the clock moved on by `seconds`
    /// while it was down.
    func restart(after seconds: Double) async throws
    /// Turns Focus on or off.
    func setFocus(_ on: Bool)
    /// The number of pending requests.
    var pendingCount: Int { get }
    /// Each delivery of the notification `identifier` so far, in order: whether it was late.
    func deliveries(of identifier: String) -> [Bool]
    /// The arrival sounds played or held back so far, in order.
    var sounds: [ScriptSound] { get }
    /// The session of the card shown now.
    var shownSession: PresentationSession? { get }
    /// The engine the cards play through.
    var engine: MPVEngine { get }
    /// Waits until what was sent or fell due has been through its service extension and
    /// queued, and its arrival sound has reached the engine.
    func settle() async
    /// Stops the center and removes its store.
    func close() async
}

/// An arrival sound as a script sees it.
package struct ScriptSound: Sendable, Equatable {
    /// The notification's identifier.
    package var identifier: String
    /// The sound's name (`default` for the default sound).
    package var name: String
    /// Whether it waited for the card's media (`queued`) rather than playing at once.
    package var queued: Bool

    /// A sound.
    package init(identifier: String, name: String, queued: Bool) {
        self.identifier = identifier
        self.name = name
        self.queued = queued
    }
}

/// What a script's `serve` asks for.
package struct ScriptCenterSetup: Sendable {
    /// The app files given before `serve` (absolute paths).
    package var apps: [String]
    /// Where the virtual clock starts.
    package var start: Date
    /// The extension types.
    package var types: ExtensionTypes
    /// Whether the cards' media play faster than real time.
    package var untimed: Bool

    /// A setup.
    package init(apps: [String], start: Date, types: ExtensionTypes, untimed: Bool) {
        self.apps = apps
        self.start = start
        self.types = types
        self.untimed = untimed
    }
}
