import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// An extension answering with Swift concurrency, after `delay`.
final class AsyncAnsweringExtension: TerminalViewController, UNNotificationContentExtension {
    nonisolated(unsafe) static var option = UNNotificationContentExtensionResponseOption.doNotDismiss
    nonisolated(unsafe) static var delay = Duration.zero
    /// The clock the delay passes on.
    nonisolated(unsafe) static var clock: any Clock<Duration> = ContinuousClock()
    var answered: [String] = []

    func didReceive(_ notification: UNNotification) {}

    func didReceive(_ response: any UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption {
        if Self.delay > .zero { try? await Self.clock.sleep(for: Self.delay) }
        answered.append(response.actionIdentifier)
        return Self.option
    }
}

/// An extension that forwards whatever it gets to the app.
final class ForwardingExtension: TerminalViewController, UNNotificationContentExtension {
    func didReceive(_ notification: UNNotification) {}

    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        completion(.dismissAndForwardAction)
    }
}

@MainActor
@Suite("Responses: the async variant, and the app's command for forwarded actions", .serialized, .timeLimit(.minutes(1)))
struct ResponseVariantsTests {
    let engine = FakeEngine.scripted()

    func session(
        _ typeName: String, command: [String]? = nil, limit: Duration = .seconds(5), commandLimit: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws -> PresentationSession {
        var types = ExtensionTypes()
        types.register(AsyncAnsweringExtension.self, as: "Test.AsyncAnsweringExtension")
        types.register(ForwardingExtension.self, as: "Test.ForwardingExtension")
        types.register(PlainExtension.self, as: "Test.PlainExtension")
        let manifest = ExtensionManifest(
            bundleName: "Test", path: "Test.appex/Info.plist", point: .content, principalClass: typeName,
            mainStoryboard: nil, typeName: typeName, bundleIdentifier: nil, displayName: nil, categories: ["test"],
            initialContentSizeRatio: 0.5, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        let category = UNNotificationCategory(
            identifier: "test",
            actions: [
                UNNotificationAction(identifier: "done", title: "Done"),
                UNTextInputNotificationAction(
                    identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: ""),
            ],
            intentIdentifiers: [])
        let app = AppDefinition(
            name: "Test", categories: [category], extensionsDirectory: nil,
            forwardedActions: .init(print: true, command: command))
        return PresentationSession(
            app: app, registry: try ExtensionRegistry([manifest]), types: types, engine: engine,
            configuration: .init(responseTimeLimit: limit, commandTimeLimit: commandLimit, clock: clock))
    }

    func notification(userInfo: JSONObject = JSONObject()) -> UNNotification {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        content.categoryIdentifier = "test"
        content.threadIdentifier = "chores"
        content.jsonUserInfo = userInfo
        return UNNotification(request: UNNotificationRequest(identifier: "n1", content: content, trigger: nil), date: Date())
    }

    func scratch(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-\(UUID().uuidString)-\(name)").path
        return path
    }

    @Test("an async handler's answer is applied", arguments: [
        (UNNotificationContentExtensionResponseOption.doNotDismiss, false, false),
        (.dismiss, true, false),
        (.dismissAndForwardAction, true, true),
    ])
    func asyncAnswer(option: UNNotificationContentExtensionResponseOption, dismissed: Bool, forwarded: Bool) async throws {
        AsyncAnsweringExtension.option = option
        AsyncAnsweringExtension.delay = .zero
        let s = try session("Test.AsyncAnsweringExtension")
        try s.present(notification())
        s.handle(.action(1))
        // An `async` handler that answers without suspending is answered at once, as a completion
        // handler called before returning is.
        #expect(!s.awaitsResponse)
        let response = s.log.events(named: "response").first
        #expect(response?.string("option") == option.rawValue)
        #expect(s.isDismissed == dismissed)
        #expect(s.log.events(named: "forwarded").map { $0.string("action") } == (forwarded ? ["done"] : []))
        #expect((s.controller as? AsyncAnsweringExtension)?.answered ?? ["done"] == ["done"])
        #expect(!s.awaitsResponse)
    }

    @Test("an async answer after the time limit is ignored and logged; the response counted as dismiss")
    func asyncLate() async throws {
        // The limit (50 ms) and the extension's answer (after 300 ms) on one clock the test moves:
        // the limit comes first, whatever else the machine is doing.
        let clock = ManualClock()
        AsyncAnsweringExtension.option = .doNotDismiss
        AsyncAnsweringExtension.delay = .milliseconds(300)
        AsyncAnsweringExtension.clock = clock
        defer {
            AsyncAnsweringExtension.delay = .zero
            AsyncAnsweringExtension.clock = ContinuousClock()
        }
        let s = try session("Test.AsyncAnsweringExtension", limit: .milliseconds(50), clock: clock)
        try s.present(notification())
        s.handle(.action(1))
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(50))
        let response = await s.log.next(timeout: .seconds(60)) { $0.name == "response" }
        #expect(response?.string("option") == "dismiss")
        #expect(response?.string("reason") == "timeout")
        #expect(s.isDismissed)
        clock.advance(by: .milliseconds(250))
        let late = await s.log.next(timeout: .seconds(60)) { $0.name == "error" && ($0.string("message") ?? "").contains("after the time limit") }
        #expect(late != nil)
        #expect(s.log.events(named: "response").count == 1)
    }

    @Test("a forwarded action runs the app's command with the response in its environment")
    func commandEnvironment() async throws {
        let out = scratch("env.txt")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let script = #"printf '%s\n%s\n%s\n%s\n%s\n' "$NOTIPLAY_ACTION" "$NOTIPLAY_TEXT" "$NOTIPLAY_NOTIFICATION" "$NOTIPLAY_THREAD" "$NOTIPLAY_RESPONSE" > "$0""#
        let s = try session("Test.ForwardingExtension", command: ["/bin/sh", "-c", script, out])
        try s.present(notification(userInfo: JSONObject([("memo", .string("a\u{0}b"))])))
        s.handle(.action(2, text: "on my way"))
        await s.settle()
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(4) == ["reply", "on my way", "n1", "chores"])
        let response = String(lines[4])
        #expect(response.hasPrefix(#"{"action":"reply","notification":"n1","category":"test","thread":"chores","text":"on my way","#))
        #expect(response.contains(#""userInfo":{"memo":"a"#))
        #expect(s.log.events(named: "command").first?.string("action") == "reply")
        #expect(s.log.events(named: "error").isEmpty)
    }

    @Test("an extension without response handling: the action is forwarded and the command runs")
    func commandForUnhandled() async throws {
        let out = scratch("action.txt")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let s = try session("Test.PlainExtension", command: ["/bin/sh", "-c", #"printf %s "$NOTIPLAY_ACTION" > "$0""#, out])
        try s.present(notification())
        s.handle(.action(1))
        await s.settle()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "done")
        #expect(s.isDismissed)
    }

    @Test("a command that fails, is missing or hangs: an error event, and the session goes on")
    func commandFailures() async throws {
        let failing = try session("Test.PlainExtension", command: ["/bin/sh", "-c", "exit 3"])
        try failing.present(notification())
        failing.handle(.defaultAction)
        await failing.settle()
        #expect(failing.log.events(named: "error").compactMap { $0.string("message") }.contains { $0.contains("exit status 3") })

        let missing = try session("Test.PlainExtension", command: ["/nonexistent/notiplay-command"])
        try missing.present(notification())
        missing.handle(.defaultAction)
        await missing.settle()
        #expect(missing.log.events(named: "error").compactMap { $0.string("message") }.contains { $0.contains("cannot run /nonexistent/notiplay-command") })

        // The watchdog runs on a clock the test moves: once it waits, 200 ms pass and it stops the
        // command (a command it failed to stop would end by itself, without the error).
        let clock = ManualClock()
        let hanging = try session("Test.PlainExtension", command: ["/bin/sleep", "30"], commandLimit: .milliseconds(200), clock: clock)
        try hanging.present(notification())
        hanging.handle(.defaultAction)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(200))
        await hanging.settle()
        #expect(hanging.log.events(named: "error").compactMap { $0.string("message") }.contains { $0.contains("was stopped after 0.2 seconds") })
    }

    @Test("open(_:) is forwarded with its URL and runs the command")
    func openURL() async throws {
        let out = scratch("url.txt")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let s = try session("Test.PlainExtension", command: ["/bin/sh", "-c", #"printf %s "$NOTIPLAY_URL" > "$0""#, out])
        try s.present(notification())
        s.controller?.extensionContext?.open(URL(string: "nagme://reminder/42")!)
        await s.settle()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "nagme://reminder/42")
        #expect(s.log.events(named: "forwarded").first?.string("url") == "nagme://reminder/42")
    }
}
