import Foundation
import NotiplayCenterClient
import NotiplayCore
import NotiplayTestSupport
import Testing

@testable import Notiplay

/// An app's `UNUserNotificationCenter` without a server: what the server's failures become,
/// what a request becomes on the wire, and the calls when no server is running.
@Suite("An app's notification center: errors, requests on the wire, no server")
@MainActor
struct AppCenterTests {
    @Test(
        "Each failure code the server answers with becomes Apple's UNError where Apple has one, else ours",
        arguments: [
            ("not-allowed", "UNErrorDomain 1"), ("invalid-trigger", "UNErrorDomain 1400"),
            ("invalid-payload", "UNErrorDomain 1401"), ("unknown-app", "unknownApp"),
            ("invalid-categories", "refused invalid-categories"), ("store-io-error", "refused store-io-error"),
            ("internal", "refused internal"), ("some-future-code", "refused some-future-code"),
        ])
    func failureCodes(code: String, expected: String) {
        let error = CenterErrorMapping.error(for: .failed(CenterFailure(CenterFailure.Code(rawValue: code), "the server's words")))
        switch error {
        case let error as UNError:
            #expect("UNErrorDomain \(error.code.rawValue)" == expected)
            #expect(error.message == "the server's words")
        case NotificationCenterError.unknownApp(let message):
            #expect(expected == "unknownApp" && message == "the server's words")
        case NotificationCenterError.refused(let refused, let message):
            #expect("refused \(refused)" == expected && message == "the server's words")
        default:
            Issue.record("\(code) became \(error)")
        }
    }

    @Test("The socket's failures: no server says how to start one, a cancelled wait is CancellationError, the rest unavailable")
    func socketFailures() {
        let none = CenterErrorMapping.error(for: .noServer(path: "/run/user/1/notiplay/center.sock"))
        #expect(none as? NotificationCenterError == .noServer(socketPath: "/run/user/1/notiplay/center.sock"))
        #expect("\(none)" == "no notification center is running at /run/user/1/notiplay/center.sock; start one with `notiplay serve`")
        #expect(CenterErrorMapping.error(for: .cancelled) is CancellationError)
        let failures: [CenterSocketError] = [
            .timedOut(waitingFor: "reply to send", after: .seconds(30)), .connectionClosed(path: "/s"), .protocolViolation("junk"),
            .pathTooLong(path: "/long", limit: 107), .unsafeFolder(path: "/f", reason: "is not yours"),
        ]
        for failure in failures {
            #expect(CenterErrorMapping.error(for: failure) as? NotificationCenterError == .unavailable(failure.description))
        }
    }

    @Test("catch UNError.code matches a UNError with that code, and nothing else")
    func catchByCode() {
        func matches(_ error: any Error) -> Bool {
            do { throw error } catch UNError.notificationsNotAllowed { return true } catch { return false }
        }
        #expect(matches(UNError(.notificationsNotAllowed, "denied")))
        #expect(!matches(UNError(.notificationInvalidNoDate, "never")))
        #expect(!matches(NotificationCenterError.noServer(socketPath: "/s")))
        #expect("\(UNError(.notificationsNotAllowed, "denied"))" == "denied (UNErrorDomain 1)")
    }

    /// Seed 002's request.
    static func seedRequest() -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = "category"
        content.title = "Notification Title"
        content.subtitle = "Notification Subtitle"
        content.body = "Notification body text"
        content.jsonUserInfo = ["customNumber": 33]
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)
        return UNNotificationRequest(identifier: "extensionNotification", content: content, trigger: trigger)
    }

    @Test("A request is sent as its payload, identifier and trigger; a pending one listed reads back the same")
    func requestOnTheWire() throws {
        let send = try AppRequestCoding.send(Self.seedRequest(), app: "custom-number")
        #expect(send.app == "custom-number" && send.identifier == "extensionNotification" && send.attachments.isEmpty)
        #expect(send.trigger == TriggerSpec(type: "timeInterval", timeInterval: 30, repeats: false))
        let payload = try PayloadDecoder().decode(Array(send.payload.utf8))
        #expect(payload.content.jsonUserInfo["customNumber"] == .integer(33))
        #expect(payload.content.categoryIdentifier == "category" && payload.content.subtitle == "Notification Subtitle")

        var mine = NotificationSummary(identifier: "extensionNotification", app: "Custom Number", state: .pending, date: Date())
        mine.payload = send.payload
        mine.trigger = send.trigger
        var other = NotificationSummary(identifier: "theirs", app: "Another App", state: .pending, date: Date())
        other.payload = send.payload
        let read = AppRequestCoding.requests(ListReply(notifications: [mine, other]), app: "custom-number")
        #expect(read.map(\.identifier) == ["extensionNotification"], "only the app's own")
        #expect(read.first?.content.jsonUserInfo["customNumber"] == .integer(33) && read.first?.content.title == "Notification Title")
        #expect(read.first?.trigger as? UNTimeIntervalNotificationTrigger == UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false))
        #expect(AppRequestCoding.notifications(ListReply(notifications: [mine]), app: "custom-number").isEmpty, "pending is not delivered")
    }

    @Test("A request without a trigger is delivered now; its attachment's file travels with it")
    func attachments() throws {
        let content = UNMutableNotificationContent()
        content.title = "Memo"
        content.attachments = [try UNNotificationAttachment(identifier: "", url: URL(fileURLWithPath: TestMedia.path("chime.wav")))]
        let send = try AppRequestCoding.send(UNNotificationRequest(identifier: "memo", content: content, trigger: nil), app: "a")
        #expect(send.trigger == nil)
        #expect(send.attachments.map(\.name) == ["chime.wav"] && send.attachments.first?.kind == .audio)
        #expect(send.attachments.first?.data == (try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("chime.wav")))))
    }

    @Test("With no server, every call ends at once: handlers are called before returning, async add throws, lists are empty")
    func noServer() async throws {
        let path = "/tmp/notiplay-none-\(UUID().uuidString.prefix(8))/center.sock"
        let center = UNUserNotificationCenter(server: AppServerLink(socketPath: path, app: "custom-number"))
        var answers: [String] = []
        center.requestAuthorization(options: [.alert]) { granted, error in answers.append("authorized \(granted): \(error.map { "\($0)" } ?? "")") }
        center.setNotificationCategories([UNNotificationCategory(identifier: "category", actions: [])])
        center.add(Self.seedRequest()) { error in answers.append("added: \(error.map { "\($0)" } ?? "")") }
        let expected = NotificationCenterError.noServer(socketPath: path).description
        #expect(answers == ["authorized false: \(expected)", "added: \(expected)"])
        await #expect(throws: NotificationCenterError.noServer(socketPath: path)) { try await center.add(Self.seedRequest()) }
        await #expect(throws: NotificationCenterError.noServer(socketPath: path)) { try await center.requestAuthorization(options: []) }
        #expect(await center.pendingNotificationRequests().isEmpty)
        #expect(await center.deliveredNotifications().isEmpty)
        #expect(Self.listedWithoutWaiting(center) == [0, 0, 0, 0])
        center.removeAllPendingNotificationRequests()
        center.removeDeliveredNotifications(withIdentifiers: ["x"])
    }

    /// How many requests and notifications the synchronous forms list: the plain calls, then
    /// those with completion handlers.
    static func listedWithoutWaiting(_ center: UNUserNotificationCenter) -> [Int] {
        var listed = [center.pendingNotificationRequests().count, center.deliveredNotifications().count]
        center.getPendingNotificationRequests { listed.append($0.count) }
        center.getDeliveredNotifications { listed.append($0.count) }
        return listed
    }

    @Test("Inside a presentation, the lists and removals are the presentation's; authorizing and adding are refused at once")
    func insidePresentation() {
        let log = EventLog()
        let store = NotificationStore(log: log)
        store.deliver(UNNotification(request: Self.seedRequest(), date: Date()))
        var answers: [String] = []
        PresentationScope(lease: EngineLease(router: nil), notifications: store).bind {
            let center = UNUserNotificationCenter.current()
            #expect(center.server == nil)
            #expect(center.deliveredNotifications().map(\.request.identifier) == ["extensionNotification"])
            center.requestAuthorization(options: [.alert]) { granted, error in answers.append("\(granted) \(error.map { "\($0)" } ?? "")") }
            center.setNotificationCategories([UNNotificationCategory(identifier: "category", actions: [])])
            center.add(Self.seedRequest()) { error in answers.append(error.map { "\($0)" } ?? "added") }
            center.removeAllDeliveredNotifications()
        }
        #expect(answers == [
            "false requestAuthorization is for an app's program; an extension presenting a notification cannot do it",
            "add is for an app's program; an extension presenting a notification cannot do it",
        ])
        #expect(store.delivered.isEmpty)
        #expect(log.events.contains { if case .removed(.delivered, ["extensionNotification"]) = $0.event { true } else { false } })
    }

    @Test("Outside a presentation, current() speaks for $NOTIPLAY_APP or the program, at the session's socket")
    func current() {
        let center = UNUserNotificationCenter.current()
        #expect(center.server == AppServerLink.forThisProcess())
        #expect(center.server?.socketPath.hasSuffix("/center.sock") == true)
    }
}
