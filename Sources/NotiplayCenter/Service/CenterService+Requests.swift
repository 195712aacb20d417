internal import FoundationEssentials
import Notiplay
import NotiplayCore
import NotiplaySystem
package import NotiplayCenterClient

extension CenterService {
    /// Answers a client's request: `send` is stored durably before its reply, `list`, `remove`
    /// and `history` read and change the store, `ping` says who serves. Runs on the main actor.
    /// `respondLater` is called with the notification's identifier and the request's id when a
    /// `send` asked to wait for its response.
    package func answer(_ request: CenterRequest, respondLater: (_ identifier: String, _ requestID: Int) -> Void) -> CenterReply {
        switch request.operation {
        case .ping:
            return .pong(PingReply(pid: Posix.processID))
        case .send(let send):
            return receive(send) { respondLater($0, request.id) }
        case .list(let list):
            do {
                var found = try store.pending() + store.delivered()
                if let state = list.state { found = found.filter { NotificationState($0.state) == state } }
                let details = list.details ?? false
                return .listed(ListReply(notifications: found.map { summary($0, details: details) }))
            } catch { return .failure(Self.failure(error)) }
        case .remove(let remove):
            do {
                let removed: [StoredNotification]
                let states: Set<StoredNotification.State> =
                    switch remove.state {
                    case .pending?: [.pending]
                    case .delivered?: [.delivered]
                    default: [.pending, .delivered]
                    }
                switch remove.target {
                case .identifiers(let ids): removed = try self.remove(identifiers: ids, states: states)
                case .all: removed = try self.remove(identifiers: nil, states: states)
                }
                return .removed(RemoveReply(removed: removed.map(\.identifier)))
            } catch { return .failure(Self.failure(error)) }
        case .history(let history):
            do {
                return .history(HistoryReply(notifications: try store.history(limit: history.limit).map { summary($0) }))
            } catch { return .failure(Self.failure(error)) }
        case .focus(let focus):
            if let on = focus.set { setFocus(on) }
            return .focus(FocusReply(focus: self.focus))
        case .clock(let clock):
            guard let seconds = clock.advance else { return .clock(ClockReply(now: time.now, virtual: time.isVirtual)) }
            guard time.isVirtual else {
                return .failure(CenterFailure(.notVirtual, "the server runs on the system's clock; start it with --clock virtual to move it"))
            }
            guard seconds > 0, seconds.isFinite else { return .failure(CenterFailure(.badRequest, "clock: \"advance\" must be more than 0")) }
            guard seconds <= PendingSchedule.horizon else {
                return .failure(CenterFailure(.badRequest, "clock: \"advance\" is at most \(PendingSchedule.horizonText) at a time"))
            }
            return .clock(ClockReply(now: advance(by: seconds), virtual: true))
        case .categories(let categories):
            do {
                return .categories(CategoriesReply(categories: try setCategories(categories.categories, for: categories.app)))
            } catch { return .failure(error) }
        case .authorize(let authorize):
            // As `send` and `categories`: an app the server does not present for is no app of
            // this system's, neither granted nor denied.
            guard let name = appName(matching: authorize.app) else {
                return .failure(CenterFailure(.unknownApp, CenterServiceError.unknownApp(authorize.app, known: appNames).description))
            }
            return .authorized(AuthorizeReply(granted: !isDenied(name)))
        case .reload:
            switch reloadConfiguration() {
            case .reloaded(let rules): return .reloaded(ReloadReply(rules: rules))
            case .kept(let problems): return .failure(CenterFailure(.invalidConfig, problems.joined(separator: "\n")))
            }
        }
    }

    private func receive(_ send: SendOperation, respondLater: (String) -> Void) -> CenterReply {
        if send.identifier?.isEmpty == true {
            return .failure(CenterFailure(.badRequest, "send: \"identifier\" is empty; leave it out for one the server makes"))
        }
        let payload: APNsPayload
        do {
            payload = try NotificationDelivery.decode(Array(send.payload.utf8), sizeLimit: nil)
        } catch {
            return .failure(CenterFailure(.invalidPayload, error.errors.map { "\($0)" }.joined(separator: "; ")))
        }
        let content = payload.content
        if let refusal = Self.refusal(of: send.attachments) { return .failure(refusal) }
        let identifier = send.identifier ?? UUID().uuidString
        var triggerText: String?
        if let trigger = send.trigger {
            do {
                triggerText = String(decoding: try CenterProtocol.makeEncoder().encode(trigger), as: UTF8.self)
                _ = try TriggerJSON.decode(triggerText ?? "")
            } catch {
                return .failure(CenterFailure(.invalidTrigger, "\(error)"))
            }
        }
        let incoming = IncomingNotification(
            identifier: identifier, app: send.app, payload: send.payload,
            threadIdentifier: content.threadIdentifier.isEmpty ? nil : content.threadIdentifier,
            categoryIdentifier: content.categoryIdentifier.isEmpty ? nil : content.categoryIdentifier,
            trigger: triggerText,
            attachments: send.attachments.map { IncomingAttachment(name: $0.name, kind: $0.kind.rawValue, bytes: [UInt8]($0.data)) })
        do {
            let stored = try receive(incoming, payload: payload)
            if send.wait { respondLater(stored.identifier) }
            return .sent(SendReply(identifier: stored.identifier, state: NotificationState(stored.state), nextDate: stored.nextDate))
        } catch {
            switch error {
            case .unknownApp: return .failure(CenterFailure(.unknownApp, error.description))
            case .store(let storeError): return .failure(Self.failure(storeError))
            case .schedule: return .failure(CenterFailure(.invalidTrigger, error.description))
            case .notAllowed: return .failure(CenterFailure(.notAllowed, error.description))
            }
        }
    }

    /// Why the server does not keep `attachments`, checked as `send` checks the files it reads
    /// (a client may send anything): each one not empty, an image or audio format notiplay knows,
    /// of the kind it is sent as, within its type's limit. `nil` when all of them are fine.
    static func refusal(of attachments: [AttachmentUpload]) -> CenterFailure? {
        let validator = AttachmentValidator()
        for attachment in attachments {
            let found: AttachmentContent
            do {
                found = try validator.check(bytes: [UInt8](attachment.data), name: attachment.name)
            } catch {
                return CenterFailure(.invalidPayload, "attachment \(error.description)")
            }
            let kind: AttachmentUpload.Kind = if case .image = found { .image } else { .audio }
            guard kind == attachment.kind else {
                return CenterFailure(
                    .invalidPayload,
                    "attachment \(TerminalText.visible(attachment.name)): is \(kind.rawValue) content, sent as \(attachment.kind.rawValue)")
            }
        }
        return nil
    }

    static func failure(_ error: CenterStoreError) -> CenterFailure {
        switch error.kind {
        case .cannotCreate: CenterFailure(.storeCannotCreate, error.description)
        case .ioError: CenterFailure(.storeIOError, error.description)
        default: CenterFailure(.internal, error.description)
        }
    }

    /// A live notification's summary from what it arrived with (decoded once), any other's from
    /// its stored payload.
    func summary(_ stored: StoredNotification, details: Bool = false) -> NotificationSummary {
        let delivered = stored.state == .delivered ? live[stored.identifier]?.notification?.request.content : nil
        let content = delivered ?? (try? NotificationDelivery.decode(Array(stored.payload.utf8), sizeLimit: nil))?.content
        var summary = NotificationSummary(
            identifier: stored.identifier, app: stored.app, state: NotificationState(stored.state),
            date: stored.nextDate ?? stored.deliveredAt ?? stored.arrivedAt, title: content?.title.nonEmpty,
            subtitle: content?.subtitle.nonEmpty, body: content?.body.nonEmpty, threadIdentifier: stored.threadIdentifier)
        if stored.isLate { summary.late = true }
        if details {
            summary.payload = stored.payload
            if stored.state == .pending, let text = stored.trigger {
                summary.trigger = try? CenterProtocol.makeDecoder().decode(TriggerSpec.self, from: Data(text.utf8))
            }
        }
        return summary
    }
}

extension NotificationState {
    /// The protocol's name for a stored state.
    init(_ state: StoredNotification.State) {
        switch state {
        case .pending: self = .pending
        case .delivered: self = .delivered
        case .dismissed: self = .dismissed
        case .removed: self = .removed
        case .expired: self = .expired
        case .replaced: self = .replaced
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
