import NotiplayCore

extension NotificationDelivery {
    /// Runs the service extension stage (``ServiceExtensionStage``) for this notification when it
    /// concerns it, and returns the delivery as the stage left it: the same payload and date, the
    /// notification with the content the stage's rules allow.
    ///
    /// When this delivery was read from a file, `configuration` takes the file and its folder for
    /// `payloadFile` and `payloadDirectory` unless it names them: a `media-url` without a scheme is
    /// then a path relative to the payload's folder.
    /// - Parameters:
    ///   - registry: The app's extensions; its service extension runs.
    ///   - types: The Swift types implementing the extensions.
    ///   - log: Where `service` and `error` events go.
    ///   - configuration: Time limits, attachment limits, the media cache and media folders.
    ///   - reportingSkip: Whether an app's service extension that the payload is not eligible for
    ///     is recorded (a `service` event, `outcome: skipped`, ``concernsServiceStage(in:)``), as
    ///     `deliver` and the test host do; when `false` the stage runs only when
    ///     ``wantsServiceExtension(in:)``, and records nothing otherwise.
    @MainActor
    package func runningServiceStage(
        registry: ExtensionRegistry, types: ExtensionTypes, log: EventLog,
        configuration: ServiceExtensionStage.Configuration, reportingSkip: Bool
    ) async -> NotificationDelivery {
        let runs = reportingSkip ? concernsServiceStage(in: registry) : wantsServiceExtension(in: registry)
        guard runs else { return self }
        var configuration = configuration
        if let payloadFile {
            if configuration.payloadDirectory == nil { configuration.payloadDirectory = Path.directory(of: payloadFile) }
            if configuration.payloadFile == nil { configuration.payloadFile = payloadFile }
        }
        let request = await ServiceExtensionStage.run(
            request: notification.request, payloadIsMutable: mutableContent, registry: registry, types: types, log: log,
            configuration: configuration)
        return presenting(request)
    }
}
