import NotiplayCore
package import NotiplayPlayback

extension NotificationDelivery {
    /// Presents the notification in `session`: a new card, or the shown card's extension again
    /// for a notification of its thread.
    /// - Throws: ``NotiplayError`` if the extension claiming its category has no registered type.
    @MainActor
    package func present(in session: PresentationSession) throws(NotiplayError) {
        try session.present(notification)
    }

    /// Presents the notification in a new session for `app`, with the extensions of `registry`
    /// implemented by `types`, playing through `engine`, and returns the session (the caller
    /// closes it).
    /// - Throws: ``NotiplayError`` if the extension claiming its category has no registered type;
    ///   the session is closed then.
    @MainActor
    package func present(
        app: AppDefinition, registry: ExtensionRegistry, types: ExtensionTypes, engine: any PlaybackEngine,
        log: EventLog, configuration: PresentationSession.Configuration
    ) throws(NotiplayError) -> PresentationSession {
        let session = PresentationSession(
            app: app, registry: registry, types: types, engine: engine, log: log, configuration: configuration)
        do {
            try present(in: session)
        } catch {
            session.close()
            throw error
        }
        return session
    }
}
