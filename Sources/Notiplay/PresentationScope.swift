/// What extension code running for a presentation reaches: the engine lease of the card it runs
/// for, and the app's notifications.
///
/// The session binds it, as a task-local value, while it calls into an extension — presenting,
/// handling input, handing over a response, and passing on what the card's media player did — so
/// that a ``MediaPlayer`` made then (or in a `Task` started then, which inherits it) plays through
/// that card's lease, and ``UNUserNotificationCenter/current()`` finds the app's notifications.
/// Outside such a call nothing is bound.
struct PresentationScope: Sendable {
    /// The scope bound now, if any.
    @TaskLocal static var current: PresentationScope?

    /// The lease of the card the code runs for.
    let lease: EngineLease
    /// The app's delivered and pending notifications.
    let notifications: NotificationStore

    /// Runs `body` with this scope bound.
    func bind<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self, operation: body)
    }
}
