import NotiplayCore
import NotiplayViews
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs the service extension for a notification before it is presented, with Apple's rules, and
/// returns the request to present.
///
/// ```swift
/// let request = await ServiceExtensionStage.run(
///     request: payload.request(identifier: "memo"), payloadIsMutable: payload.mutableContent,
///     registry: registry, types: types, log: log)
/// try session.present(UNNotification(request: request, date: .now))
/// ```
///
/// Which extension runs: the app's service extension (``ExtensionRegistry/serviceExtension``);
/// when the app has none, ``MediaAttachmentService`` if the payload carries `media-url`;
/// otherwise none.
///
/// The rules:
/// - It runs only when the payload had `mutable-content: 1` and the content has alert text;
///   otherwise the original content is presented.
/// - The first call of the content handler decides; later calls are ignored, each with an `error`
///   event.
/// - Content with neither a title nor a body when the original had one (or with no alert text at
///   all) removes the alert text: it is ignored with an `error` event, and the original content
///   is presented.
/// - Attachments the extension added are validated again with ``Configuration/attachmentLimits``;
///   an invalid one is dropped with an `error` event naming the file and why, and the rest of the
///   content is kept.
/// - When ``Configuration/timeLimit`` passes first, ``UNNotificationServiceExtension/serviceExtensionTimeWillExpire()``
///   is called; content handed over within ``Configuration/expiryGrace`` after that is used,
///   otherwise the original content is presented with an `error` event.
///
/// Events: one `service` event when the stage is over, with `extension` (the bundle name, or
/// `MediaAttachmentService`), `identifier`, `outcome` — `modified`, `unchanged`, `ignored`,
/// `expired`, or `skipped` (the app has a service extension but the payload is not eligible;
/// `reason` says why) — `attachments` (how many the presented content has) and, when the time
/// limit was reached, `timeWillExpire: true`. Problems are `error` events (`message`). Nothing is
/// recorded when no extension is concerned.
@MainActor
package enum ServiceExtensionStage {
    /// Limits and options.
    public struct Configuration: Sendable {
        /// How long the extension has to call its content handler (30 s, as on iOS).
        public var timeLimit: Duration
        /// How long, after ``UNNotificationServiceExtension/serviceExtensionTimeWillExpire()``,
        /// the content handler is still waited for.
        public var expiryGrace: Duration
        /// The limits attachments added by the extension are validated with.
        public var attachmentLimits: AttachmentLimits
        /// Where ``MediaAttachmentService`` writes fetched media
        /// (`HostEnvironment.mediaCacheDirectory`), and the variables its `curl` runs with
        /// (`HostEnvironment.variables`).
        public var environment: HostEnvironment
        /// The payload file's folder: a `media-url` without a scheme is a path relative to it,
        /// and local media (relative or `file://`) may come from inside it — or from one of
        /// `HostEnvironment.mediaFolders` of ``environment``. `nil` refuses relative references
        /// and leaves only those folders.
        public var payloadDirectory: String?
        /// The payload file, named when its `media-url` is refused.
        public var payloadFile: String?
        /// The clock the time limit and the grace are measured on: the system's, or a test's
        /// clock that moves only when the test says.
        public var clock: any Clock<Duration> = ContinuousClock()

        /// A configuration; the defaults are 30 s, a 1 s grace, iOS's attachment limits and an
        /// empty `HostEnvironment` (no media cache: fetching fails).
        public init(
            timeLimit: Duration = .seconds(30), expiryGrace: Duration = .seconds(1),
            attachmentLimits: AttachmentLimits = .default, environment: HostEnvironment = HostEnvironment(),
            payloadDirectory: String? = nil
        ) {
            self.timeLimit = timeLimit
            self.expiryGrace = expiryGrace
            self.attachmentLimits = attachmentLimits
            self.environment = environment
            self.payloadDirectory = payloadDirectory
        }
    }

    /// Runs the service extension that applies to `request`, if any, and returns the request to
    /// present: the same identifier and trigger, with the content the rules allow.
    /// - Parameters:
    ///   - request: The notification as the payload made it (``APNsPayload/request(identifier:)``,
    ///     with any attachments given on the command line).
    ///   - payloadIsMutable: Whether the payload had `mutable-content: 1`
    ///     (``APNsPayload/mutableContent``).
    ///   - registry: The app's extensions; its ``ExtensionRegistry/serviceExtension`` runs.
    ///   - types: The Swift types implementing the extensions.
    ///   - log: Where `service` and `error` events go.
    ///   - configuration: Time limits, attachment limits and the media cache.
    public static func run(
        request: UNNotificationRequest, payloadIsMutable: Bool, registry: ExtensionRegistry, types: ExtensionTypes,
        log: EventLog, configuration: Configuration = Configuration()
    ) async -> UNNotificationRequest {
        let original = request.content
        let manifest = registry.serviceExtension
        let eligible = payloadIsMutable && original.hasAlertText
        let name: String
        let typeName: String
        if let manifest {
            name = manifest.bundleName
            typeName = manifest.typeName
            guard eligible else {
                let reason = payloadIsMutable ? "the notification has no alert text" : "the payload has no mutable-content: 1"
                log.record(.service(extension: name, identifier: request.identifier, outcome: .skipped(reason: reason)))
                return request
            }
        } else if eligible, original.jsonUserInfo[MediaAttachmentService.payloadKey] != nil {
            name = MediaAttachmentService.typeName
            typeName = MediaAttachmentService.typeName
        } else {
            return request
        }
        guard let factory = types.serviceFactory(for: typeName) else {
            log.record(
                .error("service extension \(name) names \(typeName), which is not a registered service extension type; the original content is shown"))
            return request
        }
        let instance = factory()
        instance.reportError = { [weak log] message in log?.record(.error(message)) }
        if let media = instance as? MediaAttachmentService {
            media.fetcher = MediaFetcher(
                cacheDirectory: configuration.environment.mediaCacheDirectory, limits: configuration.attachmentLimits,
                baseDirectory: configuration.payloadDirectory, mediaFolders: configuration.environment.mediaFolders,
                payloadFile: configuration.payloadFile, environment: configuration.environment.variables)
            media.fetchTimeLimit = configuration.timeLimit + configuration.expiryGrace
        }
        let call = ServiceCall(name: name, log: log)
        instance.didReceive(request) { content in call.handle(content.frozen) }
        var expired = false
        if await !call.wait(configuration.timeLimit, on: configuration.clock) {
            expired = true
            instance.serviceExtensionTimeWillExpire()
            _ = await call.wait(configuration.expiryGrace, on: configuration.clock)
        }
        let answer = call.finish()

        let presented: UNNotificationContent
        let outcome: PresentationEvent.ServiceResult
        if let answer {
            if removesAlertText(answer, from: original) {
                log.record(
                    .error("service extension \(name) removed the alert text (no title and no body); its content is ignored and the original is shown"))
                presented = original
                outcome = .ignored
            } else {
                presented = validated(answer, original: original, name: name, limits: configuration.attachmentLimits, log: log)
                outcome = presented == original ? .unchanged : .modified
            }
        } else {
            log.record(
                .error("service extension \(name) did not call its content handler within \(configuration.timeLimit), nor within \(configuration.expiryGrace) after serviceExtensionTimeWillExpire(); the original content is shown"))
            presented = original
            outcome = .expired
        }
        log.record(
            .service(
                extension: name, identifier: request.identifier,
                outcome: .finished(outcome, attachments: presented.attachments.count, timeWillExpire: expired)))
        return UNNotificationRequest(identifier: request.identifier, content: presented, trigger: request.trigger)
    }

    /// Whether `content` takes away the alert text of `original`: neither title nor body where the
    /// original had one, or no alert text at all.
    static func removesAlertText(_ content: UNNotificationContent, from original: UNNotificationContent) -> Bool {
        let hadTitleOrBody = !original.title.isEmpty || !original.body.isEmpty
        let hasTitleOrBody = !content.title.isEmpty || !content.body.isEmpty
        return !content.hasAlertText || (hadTitleOrBody && !hasTitleOrBody)
    }

    /// `content` with each attachment the original did not have validated again; invalid ones are
    /// dropped with an `error` event.
    static func validated(
        _ content: UNNotificationContent, original: UNNotificationContent, name: String, limits: AttachmentLimits,
        log: EventLog
    ) -> UNNotificationContent {
        let validator = AttachmentValidator(limits: limits)
        let edited = UNMutableNotificationContent(content)
        edited.attachments = content.attachments.compactMap { attachment in
            if original.attachments.contains(attachment) { return attachment }
            do throws(NotiplayError) {
                return try validator.validate(attachment.url.path, identifier: attachment.identifier)
            } catch {
                log.record(.error("service extension \(name) attached \(error.description); the attachment is dropped"))
                return nil
            }
        }
        return edited.content
    }
}

/// One run of a service extension: the content handler's calls, and the waits for them.
@MainActor
private final class ServiceCall {
    let name: String
    weak var log: EventLog?
    /// The content of the handler's first call.
    private var answer: UNNotificationContent?
    /// Whether the stage has decided; later calls are ignored.
    private var finished = false
    private var waiter: CheckedContinuation<Bool, Never>?
    private var timer: Task<Void, Never>?

    init(name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    /// The content handler.
    func handle(_ content: UNNotificationContent) {
        if answer != nil {
            log?.record(.error("service extension \(name) called its content handler again; the call is ignored"))
            return
        }
        if finished {
            log?.record(.error("service extension \(name) called its content handler after its time was up; the call is ignored"))
            return
        }
        answer = content
        wake(true)
    }

    /// Waits until the handler is called (`true`) or `limit` passes (`false`). Cancelling the
    /// calling task ends the wait as the time limit would.
    func wait(_ limit: Duration, on clock: any Clock<Duration>) async -> Bool {
        if answer != nil { return true }
        if Task.isCancelled { return false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter = continuation
                timer = Task { @MainActor [weak self] in
                    try? await clock.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    self?.wake(false)
                }
            }
        } onCancel: {
            Task { @MainActor in self.wake(false) }
        }
    }

    private func wake(_ answered: Bool) {
        timer?.cancel()
        timer = nil
        waiter?.resume(returning: answered)
        waiter = nil
    }

    /// Ends the run: the handler's first content, if it came; later calls are ignored.
    func finish() -> UNNotificationContent? {
        finished = true
        wake(false)
        return answer
    }
}
