import Notiplay
import NotiplayTestSupport
import NotiplayTesting
import Testing

/// A failed `expect screen` shows the card as rows, one a line, wherever it is reported: the
/// test host's failure, TAP, the summary, JUnit.
@Suite("a failed expect screen shows the card row by row")
struct ScreenFailureReportTests {
    static let rows = ["┌─ notiplay ─┐", "│ Water      │", "└────────────┘"]
    static let results = [
        ScriptResult(
            path: "wrong.playback",
            failure: .init(
                line: 2, column: 1, message: "expected the screen to contain \"Dinner\"", lastEvents: ["{\"event\":\"didReceive\"}"],
                screen: rows),
            seconds: 0.5)
    ]

    @Test("TAP: a screen list in the YAML block, a quoted row a line")
    func tap() {
        let tap = ScriptReport.tap(Self.results)
        #expect(tap.contains("""
              message: "expected the screen to contain \\"Dinner\\""
              at: "wrong.playback:2:1"
              screen:
                - "┌─ notiplay ─┐"
                - "│ Water      │"
                - "└────────────┘"
              events:

            """), "\(tap)")
    }

    @Test("The summary and JUnit: the rows indented, one a line")
    func summaryAndJUnit() {
        let summary = ScriptReport.summary(Self.results)
        #expect(summary.contains("""
            ✘ wrong.playback:2:1: expected the screen to contain "Dinner"
                screen:
                  ┌─ notiplay ─┐
                  │ Water      │
                  └────────────┘

            """), "\(summary)")
        let junit = ScriptReport.junit(Self.results)
        #expect(junit.contains("\nscreen:\n    ┌─ notiplay ─┐\n    │ Water      │\n    └────────────┘\nlast events:"), "\(junit)")
    }

    @Test("The test host's failure: the message, then the rows indented, then the last events")
    func hostFailure() {
        let failure = TestHostFailure("expected the screen to contain \"Dinner\"", lastEvents: ["{}"], screen: Self.rows)
        #expect(failure.description == """
            expected the screen to contain "Dinner"; it shows:
                ┌─ notiplay ─┐
                │ Water      │
                └────────────┘
            last events:
              {}
            """)
    }
}

extension RealEngine {
    @MainActor
    @Suite("The test host's expect screen", .timeLimit(.minutes(1)))
    struct HostScreenTests {
        @Test("expectScreen(contains:) and (lacks:) pass on what the card shows; a failure holds the card's rows")
        func expectScreen() async throws {
            let host = try NotificationTestHost()
            try await host.deliver(payload: TestMedia.path("nagme.apns"))
            try await host.expectScreen(contains: "Water the plants")
            try await host.expectScreen(lacks: "Dinner")
            do {
                try await host.expectScreen(contains: "Dinner")
                Issue.record("no failure")
            } catch {
                #expect(error.message == "expected the screen to contain \"Dinner\"")
                #expect(error.screen == host.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
                #expect(error.screen.contains { $0.contains("Water the plants") })
                #expect(error.description.contains("; it shows:\n    "), "\(error)")
            }
            await host.close()
        }
    }
}
