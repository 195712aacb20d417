package import Notiplay
package import NotiplayScript

/// What a script does as it runs, told as it happens: each step as it starts, and each event its
/// cards record. `notiplay test` runs every script in a worker process of its own and streams
/// this to the parent, which can then report a script whose worker crashed with the step it was
/// at, the extension it was presenting and its last events.
package struct ScriptProgress: Sendable {
    /// Called as `step` starts.
    package var step: @MainActor @Sendable (ScriptStep) -> Void
    /// Called with each event recorded, at once (before the extension is called for it, when the
    /// event says that it is: `didReceive` comes before the extension's `didReceive`).
    package var event: @MainActor @Sendable (LoggedEvent) -> Void
    /// Called once the steps are over (passed, failed or stopped), before the script's card is
    /// closed: what crashes after it crashed after the script's last step.
    package var ended: @MainActor @Sendable () -> Void

    /// Progress told to `step`, `event` and `ended`.
    package init(
        step: @escaping @MainActor @Sendable (ScriptStep) -> Void, event: @escaping @MainActor @Sendable (LoggedEvent) -> Void,
        ended: @escaping @MainActor @Sendable () -> Void = {}
    ) {
        self.step = step
        self.event = event
        self.ended = ended
    }
}
