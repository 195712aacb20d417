internal import FoundationEssentials
import Notiplay
package import NotiplayCore
import NotiplaySystem
import SystemPackage

/// Arrivals through their app's service extension (or the built-in media fetcher), as on iOS:
/// the notification is stored at once (so `send` returns), then changed by the extension, stored
/// again as changed, and only then queued and shown.
///
/// A server stopped while an extension runs keeps the notification as it arrived; after a restart
/// it is shown so, without running the extension again.
extension CenterService {
    /// Runs the app's service extension (or the built-in media fetcher) on `delivery` when one
    /// applies, keeps what it made, then queues the notification (unless it was removed or
    /// replaced meanwhile). Returns `false` when none applies.
    func runServiceStage(_ stored: StoredNotification, delivery: NotificationDelivery, app: App) -> Bool {
        guard delivery.wantsServiceExtension(in: app.registry) else { return false }
        let log = EventLog(clock: clock)
        log.observe { [weak self] logged in self?.emit(.presentation(logged)) }
        serviceStages[stored.sequence] = Task { @MainActor [weak self, types, serviceConfiguration] in
            defer { self?.serviceStages[stored.sequence] = nil }
            let changed = await delivery.runningServiceStage(
                registry: app.registry, types: types, log: log, configuration: serviceConfiguration, reportingSkip: false)
            guard let self else { return }
            var admitted = stored
            var presented = delivery.notification
            let content = changed.notification.request.content
            if content != delivery.notification.request.content {
                do {
                    guard let revised = try self.store.revise(
                        stored.sequence, payload: content.payloadJSON,
                        threadIdentifier: content.threadIdentifier.isEmpty ? nil : content.threadIdentifier,
                        categoryIdentifier: content.categoryIdentifier.isEmpty ? nil : content.categoryIdentifier,
                        attachments: try Self.incoming(content.attachments))
                    else { return }  // Removed or replaced while the extension ran.
                    admitted = revised
                    // The store holds a new payload and attachments: the card presents those.
                    presented = self.remember(revised) ?? changed.notification
                } catch {
                    log.record(.error("the service extension's content could not be stored (\(error)); the notification is shown as it arrived"))
                }
            } else if (try? store.notification(sequence: stored.sequence))??.state.isLive != true {
                return
            }
            admit(admitted, notification: presented)
        }
        return true
    }

    /// Returns once every service-extension stage running now has ended (and its notification
    /// was queued, or not).
    package func serviceStagesFinished() async {
        for task in Array(serviceStages.values) { await task.value }
    }

    /// Attachments as the store takes them: each file's bytes, read now.
    package static func incoming(_ attachments: [UNNotificationAttachment]) throws -> [IncomingAttachment] {
        try attachments.map { attachment in
            let path = attachment.url.path
            let file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            defer { try? file.close() }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try Posix.read(file, into: $0) }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            let kind = attachment.audioFile != nil ? "audio" : "image"
            return IncomingAttachment(name: attachment.identifier, kind: kind, bytes: bytes)
        }
    }
}
