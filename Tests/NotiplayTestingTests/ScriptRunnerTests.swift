import NotiplayCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Notiplay
import NotiplayScript
import NotiplayTestSupport
import NotiplayTesting
import Testing

// The script runner on real libmpv, with scripts built step by step (the parser has tests of its
// own): what passes, what fails and where, what was heard, time limits, scripts side by side.

/// `deliver nagme.apns attach chime.wav` (a 2 s chime on the default card) and `steps`, one a line.
func chimeScript(_ steps: [ScriptStep.Kind], path: String = "chime.playback") -> PlaybackScript {
    let deliver = ScriptStep.Kind.deliver(payload: TestMedia.path("nagme.apns"), attachments: [TestMedia.path("chime.wav")])
    let all = [deliver] + steps
    return PlaybackScript(path: path, steps: all.enumerated().map { ScriptStep(line: $0.offset + 1, column: 1, kind: $0.element) })
}

extension RealEngine {
    @MainActor
    @Suite("Script runner on real libmpv", .timeLimit(.minutes(1)))
    struct ScriptRunnerTests {
        @Test("a script that holds passes: button, media to the end, events, extension, screen")
        func passing() async {
            let script = chimeScript([
                .expectButton(.play), .expectExtension("DefaultContentExtension"),
                .expectScreen(contains: true, text: "Water the plants"),
                .press(.play), .waitEnd, .expectButton(.play),
                .expectEvent(name: "mediaPlayingStarted", count: 1), .expectEvent(name: "mediaPlayingPaused", count: 1),
                .expectNoEvent(name: "error"), .expectPosition(atLeast: .milliseconds(1_900)),
            ])
            let result = await ScriptRunner(untimed: true).run(script)
            #expect(result.passed, "\(String(describing: result.failure))")
        }

        @Test("a failing step stops the script: its line and column, what was wrong, the last ten events")
        func failing() async throws {
            let script = chimeScript([.press(.play), .waitEnd, .expectScreen(contains: true, text: "Dinner"), .expectButton(.none)])
            let result = await ScriptRunner(untimed: true).run(script)
            let failure = try #require(result.failure)
            #expect(failure.line == 4 && failure.column == 1)
            #expect(failure.message == "expected the screen to contain \"Dinner\"")
            // The screen as rows, for the report to print one a line.
            #expect(failure.screen.count > 2 && failure.screen.allSatisfy { !$0.contains("\n") }, "\(failure.screen)")
            #expect(failure.screen.contains { $0.contains("Water the plants") }, "the screen is shown: \(failure.screen)")
            #expect((1...10).contains(failure.lastEvents.count))
            #expect(failure.lastEvents.last?.contains("buttonState") == true)
        }

        @Test("press play fails unless the button shows ▶; actions that are not on the card fail")
        func wrongPresses() async throws {
            var result = await ScriptRunner(untimed: true).run(chimeScript([.press(.pause)]))
            #expect(result.failure?.message == "press pause: the button shows play, not pause")
            result = await ScriptRunner(untimed: true).run(chimeScript([.action(identifier: "nope", text: nil)]))
            #expect(result.failure?.message.hasPrefix("action nope: not on the card") == true)
            result = await ScriptRunner(untimed: true).run(chimeScript([.waitUntil(event: "forwarded", timeout: .milliseconds(200))]))
            #expect(result.failure?.message == "wait until forwarded: no forwarded event within 200 ms")
        }

        @Test("heard: the whole chime when it plays to the end; nothing when it never plays")
        func heard() async {
            let whole = await ScriptRunner(untimed: true).run(chimeScript([.press(.play), .waitEnd, .expectHeard(.atLeast, .milliseconds(1_990)), .expectHeard(.atMost, .milliseconds(2_010))]))
            #expect(whole.passed, "\(String(describing: whole.failure))")
            let none = await ScriptRunner(untimed: true).run(chimeScript([.expectHeard(.atMost, .zero)]))
            #expect(none.passed, "\(String(describing: none.failure))")
            let wrong = await ScriptRunner(untimed: true).run(chimeScript([.press(.play), .waitEnd, .expectHeard(.atMost, .milliseconds(500))]))
            #expect(wrong.failure?.message.hasPrefix("expected heard <= 0.5 s, heard 2.0") == true, "\(String(describing: wrong.failure))")
        }

        @Test("a script past its time limit is stopped and reported at the step it was on")
        func timeLimit() async throws {
            // The limit and the script's wait run on a clock the test moves: once the script is asleep
            // in its `wait 30s` (line 3) beside its time limit, 500 ms pass, and only the limit is due.
            let clock = ManualClock()
            var runner = ScriptRunner(untimed: false)
            runner.timeLimit = .milliseconds(500)
            runner.clock = clock
            let run = Task { await runner.run(chimeScript([.press(.play), .wait(.seconds(30))])) }
            await clock.waitForSleepers(2)
            clock.advance(by: .milliseconds(499))
            #expect(clock.sleepers == 2, "nothing is due before the limit")
            clock.advance(by: .milliseconds(1))
            let result = await run.value
            let failure = try #require(result.failure)
            #expect(failure.line == 3 && failure.message.hasPrefix("timed out after 500 ms"), "\(failure)")
            #expect(clock.sleepers == 0, "the script's wait was cancelled with it")
        }

        @Test("many scripts side by side: each isolated, results in order")
        func sideBySide() async {
            let scripts = (0..<8).map { n in
                Result<PlaybackScript, ScriptResult.Failure>.success(
                    chimeScript(n == 5 ? [.expectButton(.pause)] : [.press(.play), .waitEnd, .expectEvent(name: "mediaPlayingStarted", count: 1)], path: "s\(n)"))
            }
            let results = await ScriptRunner(untimed: true, parallelism: 3).run(scripts, paths: (0..<8).map { "s\($0)" })
            #expect(results.map(\.path) == (0..<8).map { "s\($0)" })
            #expect(results.map(\.passed) == (0..<8).map { $0 != 5 })
        }

        @Test("a script that hangs is stopped at its limit while the others go on")
        func hangingScriptBesideOthers() async {
            // The limits and the waits run on a clock the test moves, after the four scripts that end
            // by themselves have ended (their limits gone) and the fifth sleeps in its `wait 30s` beside
            // its limit: then 700 ms pass, and only that script's limit is due, however long the others
            // took on a loaded machine.
            let clock = ManualClock()
            var runner = ScriptRunner(untimed: true, parallelism: 2)
            runner.timeLimit = .milliseconds(700)
            runner.clock = clock
            // `expect heard` makes the script's waits real (on the clock): --untimed does not apply.
            let hanging = chimeScript([.press(.play), .wait(.seconds(30)), .expectHeard(.atLeast, .zero)], path: "hang")
            let scripts: [Result<PlaybackScript, ScriptResult.Failure>] =
                [.success(hanging)] + (0..<4).map { .success(chimeScript([.press(.play), .waitEnd], path: "ok\($0)")) }
            let run = Task { await runner.run(scripts, paths: ["hang", "ok0", "ok1", "ok2", "ok3"]) }
            // Five limits and one wait have begun, and only the hanging script's two sleep on.
            await clock.wait { begun, sleepers in begun >= 6 && sleepers <= 2 }
            clock.advance(by: .milliseconds(700))
            let results = await run.value
            #expect(results.map(\.passed) == [false, true, true, true, true], "\(results.map { $0.failure?.description ?? "ok" })")
            #expect(results[0].failure?.message.hasPrefix("timed out after 700 ms") == true)
            #expect(results[0].failure?.line == 3)
        }

        @Test("TAP and JUnit reports")
        func reports() async throws {
            let results = [
                ScriptResult(path: "ok.playback", failure: nil, seconds: 0.25),
                ScriptResult(path: "bad <1>.playback", failure: .init(line: 3, column: 5, message: "expected \"x\" & y", lastEvents: ["{\"event\":\"dismissed\"}"]), seconds: 1),
            ]
            let tap = ScriptReport.tap(results)
            #expect(tap.hasPrefix("TAP version 13\n1..2\nok 1 - ok.playback\nnot ok 2 - bad <1>.playback\n  ---\n"))
            #expect(tap.contains("  at: \"bad <1>.playback:3:5\"\n"))
            let xml = ScriptReport.junit(results)
            let document = try XMLDocument(xmlString: xml)
            let cases = try document.nodes(forXPath: "//testcase")
            #expect(cases.count == 2)
            #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
            #expect(xml.contains("message=\"expected &quot;x&quot; &amp; y\""))
        }
    }
}

extension RealTime {
    @MainActor
    @Suite("heard is what a listener heard", .timeLimit(.minutes(1)))
    struct HeardTests {
        /// Real time: the bounds catch a pause that does not stop what is heard (the whole 2 s
        /// chime, > 1.5 s) and a capture that hears nothing or is not paced (0 s, or 2 s at once);
        /// a loaded machine moves the pause by tens of milliseconds, far inside them.
        @Test("play, wait 0.5 s, pause, wait 0.5 s: about 0.5 s heard (0.25–1.5 s on a loaded machine), not the whole 2 s chime")
        func pauseStopsWhatIsHeard() async {
            let script = chimeScript([
                .press(.play), .waitUntil(event: "mediaPlayingStarted", timeout: nil), .wait(.milliseconds(500)), .press(.pause),
                .wait(.milliseconds(500)), .expectHeard(.atLeast, .milliseconds(250)), .expectHeard(.atMost, .milliseconds(1_500)),
            ])
            // --untimed does not apply to a script that measures what is heard.
            let result = await ScriptRunner(untimed: true).run(script)
            #expect(result.passed, "\(String(describing: result.failure))")
            #expect(result.seconds >= 1.0, "the waits passed in real time")
        }
    }
}

extension RealEngine {
    @MainActor
    @Suite("The test host's wait end", .timeLimit(.minutes(1)))
    struct WaitEndTests {
        @Test("media that already ended since the press: wait end returns, it does not wait for another end")
        func alreadyEnded() async throws {
            let host = try NotificationTestHost()
            try await host.deliver(payload: TestMedia.path("nagme.apns"), attachments: [TestMedia.path("chime.wav")])
            try host.press(.play)
            // The end comes without a `wait until`, which would move the host's cursor past it.
            _ = await host.log.next(timeout: .seconds(30)) { $0.event.endsMedia }
            try await host.waitEnd(timeout: .seconds(30))
            #expect(host.buttonState == .play)
            await host.close()
        }
    }
}
