import NotiplayCore
import NotiplayViews
import Notiplay
import NotiplayScript

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One script running: its host, the step it is at.
@MainActor
final class ScriptExecution {
    let script: PlaybackScript
    let runner: ScriptRunner
    private(set) var finished = false
    var host: NotificationTestHost?
    var app: String?
    var extensions: String?
    /// The center a `serve` step started.
    var center: (any ScriptCenter)?
    /// How many of the center's sounds `expect sound` steps have passed.
    var soundCursor = 0
    private var current: ScriptStep?
    private var capture: String?
    private var scratch: String?
    /// The event logs ``ScriptRunner/progress`` is told of.
    private var observed: Set<ObjectIdentifier> = []

    init(script: PlaybackScript, runner: ScriptRunner) {
        self.script = script
        self.runner = runner
    }

    /// Runs every step; the first failure, or `nil`.
    func run() async -> ScriptResult.Failure? {
        defer { finished = true }
        for step in script.steps {
            if Task.isCancelled { return nil }
            current = step
            runner.progress?.step(step)
            do {
                try await perform(step)
            } catch let failure as StepFailure {
                return ScriptResult.Failure(line: step.line, column: step.column, message: failure.message, lastEvents: failure.lastEvents)
            } catch let failure as TestHostFailure {
                return ScriptResult.Failure(
                    line: step.line, column: step.column, message: failure.message, lastEvents: failure.lastEvents,
                    screen: failure.screen)
            } catch {
                return ScriptResult.Failure(
                    line: step.line, column: step.column, message: "\(error)", lastEvents: host?.log.events.suffix(10).map(\.json) ?? [])
            }
        }
        return nil
    }

    /// The failure for a script stopped at its time limit.
    func timedOut(after limit: Duration) -> ScriptResult.Failure {
        ScriptResult.Failure(
            line: current?.line ?? 0, column: current?.column ?? 0,
            message: "timed out after \(NotificationTestHost.format(limit)) at this step; stopped",
            lastEvents: host?.log.events.suffix(10).map(\.json) ?? [])
    }

    func close() async {
        await host?.close()
        await center?.close()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    private var measuresHeard: Bool {
        script.steps.contains { if case .expectHeard = $0.kind { true } else { false } }
    }

    /// The host, made at the first step that needs one (after `app` and `extensions`).
    private func theHost() throws -> NotificationTestHost {
        if center != nil { return try shownCard() }
        if let host { return host }
        let audio: TestAudio
        if measuresHeard {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-script-\(UUID().uuidString)").path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw StepFailure("cannot make a folder for the audio capture: \(error)")
            }
            scratch = folder
            audio = .capture(path: folder + "/heard.wav", temporaryFolder: folder)
        } else {
            audio = runner.untimed ? .untimed : .realTime
        }
        do {
            let made = try NotificationTestHost(
                app: app, extensions: extensions, types: runner.types, audio: audio,
                configuration: PresentationSession.Configuration(clock: runner.clock, environment: runner.environment))
            host = made
            observe(made)
            return made
        } catch {
            throw StepFailure(error.description)
        }
    }

    /// Tells ``ScriptRunner/progress`` of `host`'s events: those recorded so far, then each as it
    /// is recorded (once a log, however many hosts look at it).
    func observe(_ host: NotificationTestHost) {
        guard let progress = runner.progress, observed.insert(ObjectIdentifier(host.log)).inserted else { return }
        for logged in host.log.events { progress.event(logged) }
        host.log.observe(progress.event)
    }

    private func perform(_ step: ScriptStep) async throws {
        switch step.kind {
        case .app(let path):
            guard host == nil else { throw StepFailure("app must come before the first deliver") }
            app = path
        case .extensions(let directory):
            guard host == nil else { throw StepFailure("extensions must come before the first deliver") }
            extensions = directory
        case .deliver(let payload, let attachments):
            let host = try theHost()
            do { try await host.deliver(payload: payload, attachments: attachments) } catch {
                throw StepFailure(error.description, host)
            }
        case .press(let press):
            let host = try presented()
            switch press {
            case .media: try host.press(.media)
            case .play: try host.press(.play)
            case .pause: try host.press(.pause)
            case .tab: host.tab()
            case .shiftTab: host.shiftTab()
            case .enter: host.enter()
            }
        case .click(let click):
            let host = try presented()
            switch click {
            case .cell(let column, let row): host.click(column: column, row: row)
            case .media: try host.click(.mediaButton)
            case .close: try host.click(.close)
            case .action(let identifier): try host.click(.action(identifier))
            case .button(let title): try host.click(.button(title))
            }
        case .tapContent:
            try presented().tapContent()
        case .action(let identifier, let text):
            try presented().action(identifier, text: text)
        case .defaultAction:
            try presented().defaultAction()
        case .dismiss:
            try presented().dismiss()
        case .wait(let duration):
            try await presented().wait(duration)
        case .waitUntil(let event, let timeout):
            try await presented().wait(until: event, timeout: timeout)
        case .waitEnd:
            try await presented().waitEnd()
        case .seek(let position):
            let (seconds, attoseconds) = position.components
            try presented().seek(to: Double(seconds) + Double(attoseconds) / 1e18)
        case .resize(let columns, let rows):
            let host = try theHost()
            host.columns = columns
            host.rows = rows
        case .expectEvent(let name, let count):
            let host = try presented()
            await host.session.settle()
            let seen = host.events(named: name).count
            if let count, seen != count {
                throw StepFailure("expected \(count) \(name) event\(count == 1 ? "" : "s"), saw \(seen)", host)
            }
            if count == nil && seen == 0 { throw StepFailure("expected a \(name) event, saw none", host) }
        case .expectNoEvent(let name):
            let host = try presented()
            await host.session.settle()
            let seen = host.events(named: name).count
            if seen > 0 { throw StepFailure("expected no \(name) event, saw \(seen)", host) }
        case .expectButton(let button):
            let host = try presented()
            await host.session.settle()
            if host.buttonState.rawValue != button.rawValue {
                var message = "expected the button \(button.rawValue), it is \(host.buttonState.rawValue)"
                if host.buttonState.rawValue == "none" { message += Self.noButtonHint }
                throw StepFailure(message, host)
            }
        case .expectResponse(let response):
            let host = try presented()
            let answered = host.log.events.compactMap { logged -> UNNotificationContentExtensionResponseOption? in
                if case .response(let option, _, _) = logged.event { option } else { nil }
            }.last
            if answered?.rawValue != response.rawValue {
                throw StepFailure("expected the response \(response.rawValue), got \(answered?.rawValue ?? "none")", host)
            }
        case .expectForwarded(let action):
            let host = try presented()
            let forwarded = host.log.events.compactMap { logged -> String? in
                if case .forwarded(let action, _, _) = logged.event { action } else { nil }
            }
            if !forwarded.contains(action) {
                throw StepFailure("expected \(action) forwarded to the app, forwarded: \(forwarded.isEmpty ? "nothing" : forwarded.joined(separator: ","))", host)
            }
        case .expectDismissed:
            let host = try presented()
            if !host.session.isDismissed { throw StepFailure("expected the card dismissed; it is shown", host) }
        case .expectActions(let identifiers):
            let host = try presented()
            if host.actionIdentifiers != identifiers {
                throw StepFailure("expected the actions \(identifiers.joined(separator: ",")), the card has \(host.actionIdentifiers.joined(separator: ","))", host)
            }
        case .expectExtension(let name):
            let host = try presented()
            if host.extensionName != name {
                throw StepFailure("expected the extension \(name), presented by \(host.extensionName ?? "none")", host)
            }
        case .expectScreen(let contains, let text):
            let host = try presented()
            if contains { try await host.expectScreen(contains: text) } else { try await host.expectScreen(lacks: text) }
        case .expectPosition(let atLeast):
            let host = try presented()
            let position = await host.position()
            if position + 1e-6 < Self.seconds(atLeast) {
                throw StepFailure("expected the position >= \(Self.seconds(atLeast)) s, it is \(Self.rounded(position)) s", host)
            }
        case .expectHeard(let comparison, let duration):
            let host = try presented()
            let heard = try await host.heardSeconds()
            let limit = Self.seconds(duration)
            // One decoder block of slack (libmpv renders in blocks of up to 4,096 frames).
            let ok = comparison == .atLeast ? heard + 0.01 >= limit : heard - 0.01 <= limit
            if !ok {
                throw StepFailure("expected heard \(comparison.rawValue) \(limit) s, heard \(Self.rounded(heard)) s", host)
            }
        case .expectError(let text):
            let host = try presented()
            await host.session.settle()
            let messages = host.log.events.compactMap { logged -> String? in
                if case .error(let message) = logged.event { message } else { nil }
            }
            if !messages.contains(where: { $0.contains(text) }) {
                throw StepFailure("expected an error containing \"\(text)\"; errors: \(messages.isEmpty ? "none" : messages.joined(separator: " | "))", host)
            }
        case .serve, .send, .advance, .restart, .focus, .expectPending, .expectDelivered, .expectNotDelivered,
            .expectSound, .expectNoSound:
            try await performCenterStep(step.kind)
        }
    }

    /// The host once something was delivered.
    private func presented() throws -> NotificationTestHost {
        if center != nil { return try shownCard() }
        guard let host, host.session.notification != nil else { throw StepFailure("nothing has been delivered yet") }
        return host
    }

    static func seconds(_ duration: Duration) -> Double {
        let (s, a) = duration.components
        return Double(s) + Double(a) / 1e18
    }

    static func rounded(_ value: Double) -> String {
        let ms = Int((value * 1000).rounded())
        return "\(ms / 1000).\(String(ms % 1000).leftPadded(to: 3))"
    }

    /// Why a card can have no media button, for a failure that expected one: the usual cause is a
    /// member declared with another type or name than the protocol's, which Swift takes silently
    /// as a member of the extension's own while the protocol's default (no button) applies.
    static let noButtonHint = "; no media button: the extension's mediaPlayPauseButtonType is .none or its"
        + " mediaPlayPauseButtonFrame is empty (they count only when declared exactly as `var mediaPlayPauseButtonType:"
        + " UNNotificationContentExtensionMediaPlayPauseButtonType` and `var mediaPlayPauseButtonFrame: CGRect`)"
}


/// Why a step failed, with the last events.
struct StepFailure: Error {
    var message: String
    var lastEvents: [String]

    @MainActor
    init(_ message: String, _ host: NotificationTestHost? = nil) {
        self.message = message
        lastEvents = host?.log.events.suffix(10).map(\.json) ?? []
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
