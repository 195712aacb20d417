import NotiplaySystem
import NotiplayTesting
import Testing

@testable import NotiplayCommandLine

/// What `test` makes of a worker's report (``ScriptWorkerReport``): the frames it streamed, the
/// fatal error it wrote, and how the process ended. No process here: the frames are given.
@Suite("test's worker reports: frames, crashes, the script they are charged to")
struct ScriptWorkerReportTests {
    static let received = #"{"event":"didReceive","t":0.001,"identifier":"a","category":"c","extension":"Crashing"}"#
    static let plain = #"{"event":"didReceive","t":0.002,"identifier":"b","category":"","extension":"DefaultContentExtension"}"#

    @Test("each frame is one line of JSON and reads back the same, a path with a newline included")
    func framesRoundTrip() {
        let frames: [ScriptWorkerFrame] = [
            .request("/tmp/a b\n\"c\".playback"), .step(line: 3, column: 1), .event(Self.received), .ended,
            .result(.init(failure: nil, reusable: true)),
            .result(.init(failure: .init(.init(line: 2, column: 5, message: "m", lastEvents: ["e"], screen: ["s"])), reusable: false)),
        ]
        for frame in frames {
            #expect(!frame.line.contains("\n"), "\(frame.line)")
            #expect(ScriptWorkerFrame(line: frame.line) == frame, "\(frame.line)")
        }
        #expect(ScriptWorkerFrame(line: "not json") == nil)
    }

    /// A report of a script that reached step 5:1 having presented Crashing, then the default card.
    static func midScript() -> ScriptWorkerReport {
        var report = ScriptWorkerReport()
        for frame: ScriptWorkerFrame in [.step(line: 2, column: 1), .event(received), .step(line: 4, column: 1), .event(plain), .step(line: 5, column: 1)] {
            report.take(frame)
        }
        report.takeError(Array("ALSA lib noise\nmain.swift:9: Fatal error: Attempted to read an unowned reference\nCurrent stack trace:\n".utf8))
        return report
    }

    @Test("a worker that died mid-script: not ok at its step, with the signal, the extension, the fatal error and the events")
    func diedMidScript() throws {
        let result = Self.midScript().result(path: "s.playback", end: .signaled(SignalNumber.abort), seconds: 1)
        let failure = try #require(result.failure)
        #expect((failure.line, failure.column) == (5, 1))
        #expect(failure.message.hasPrefix("crashed (SIGABRT: abort()"), "\(failure.message)")
        #expect(failure.message.contains(") at this step, presenting Crashing: main.swift:9: Fatal error: Attempted to read an unowned reference"),
                "\(failure.message)")
        #expect(failure.lastEvents == [Self.received, Self.plain])
    }

    @Test("a crash once the steps were over is charged to the script, after its last step")
    func diedAfterTheSteps() throws {
        var report = Self.midScript()
        report.take(.ended)
        let failure = try #require(report.result(path: "s.playback", end: .signaled(SignalNumber.illegalInstruction), seconds: 1).failure)
        #expect(failure.message.hasPrefix("crashed (SIGILL: a Swift runtime trap"), "\(failure.message)")
        #expect(failure.message.contains(") after its last step, presenting Crashing"), "\(failure.message)")
    }

    @Test("a result, then a bad end: the script fails, its own failure kept first")
    func resultThenBadEnd() throws {
        var passed = Self.midScript()
        passed.take(.result(.init(failure: nil, reusable: false)))
        #expect(passed.result(path: "s", end: .exited(0), seconds: 1).passed)
        let crashed = try #require(passed.result(path: "s", end: .signaled(SignalNumber.segmentationFault), seconds: 1).failure)
        #expect(crashed.message.hasPrefix("crashed (SIGSEGV: a bad memory access) after its last step"), "\(crashed.message)")

        var failed = ScriptWorkerReport()
        failed.take(.result(.init(failure: .init(.init(line: 4, column: 2, message: "expected a mediaPlay event, saw none")), reusable: false)))
        let both = try #require(failed.result(path: "s", end: .exited(3), seconds: 1).failure)
        #expect((both.line, both.column) == (4, 2))
        #expect(both.message == "expected a mediaPlay event, saw none; then its worker exited with status 3 after its last step")
    }

    @Test("ten events kept; each extension named once; the default card alone is named as such; a killed worker timed out")
    func keptAndNamed() throws {
        var report = ScriptWorkerReport()
        report.take(.event(Self.plain))
        for n in 0..<12 { report.take(.event(#"{"event":"buttonState","t":\#(n),"state":"none"}"#)) }
        #expect(report.events.count == 10 && report.events.last == #"{"event":"buttonState","t":11,"state":"none"}"#)
        #expect(report.extensions == ["DefaultContentExtension"])
        let alone = try #require(report.result(path: "s", end: .signaled(SignalNumber.abort), seconds: 1).failure)
        #expect(alone.message.hasSuffix("at this step, presenting the default card"), "\(alone.message)")
        let killed = try #require(report.result(path: "s", end: .signaled(9), seconds: 91, killed: .seconds(60)).failure)
        #expect(killed.message == "timed out after 60 s at this step; its worker no longer answered and was killed")
    }
}
