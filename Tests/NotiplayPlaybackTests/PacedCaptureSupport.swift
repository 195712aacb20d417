import Foundation
import NotiplayCore
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing
import Logging

/// Files, engines and helpers shared by the paced-capture suites.
enum PacedMedia {
    static let validator = AudioFileValidator()

    /// A 1.4 s mono tone at 44.1 kHz, 61,740 frames: shorter than one write of libmpv's pcm
    /// output (65,536), so libmpv has written all of it long before it is heard.
    static let shortTone = "generated-tone-1.4s.wav"
    static let shortToneFrames = 61_740

    /// `Media/NAME`, or the generated tone.
    static func file(_ name: String) throws -> AudioFile {
        if name == shortTone { return try validator.validate(try makeShortTone()) }
        return try validator.validate(TestMedia.path(name))
    }

    static func makeShortTone() throws -> String {
        let path = try TestMedia.scratch().appendingPathComponent(shortTone).path
        let frames = shortToneFrames
        var bytes = Array("RIFF".utf8) + le32(36 + 2 * frames) + Array("WAVEfmt ".utf8)
        bytes += le32(16) + [1, 0, 1, 0] + le32(44_100) + le32(88_200) + [2, 0, 16, 0]
        bytes += Array("data".utf8) + le32(2 * frames)
        for i in 0..<frames {
            let value = Int16((sin(2 * Double.pi * 440 * Double(i) / 44_100) * 12_000).rounded())
            bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func scratchWAV() throws -> String { try TestMedia.scratch().appendingPathComponent("heard.wav").path }

    /// How far ahead of real time the capture may read: one block (220 frames).
    static let block = 220.0 / 44_100

    /// Bytes per second in the capture.
    static let bytesPerSecond = 176_400.0

    /// An engine whose paced capture follows `clock`.
    static func engine(_ out: String, clock: VirtualPacingClock) throws -> MPVEngine {
        try MPVEngine(
            output: .pacedCapture(path: out), logger: .init(label: "notiplay.playback"),
            positionInterval: .milliseconds(250), pacingClock: clock)
    }

    /// A paced engine on a virtual clock that captures into a scratch WAV file at `out`, with a
    /// cursor on its events from its start.
    static func rig() throws -> (out: String, clock: VirtualPacingClock, engine: MPVEngine, events: EventCursor) {
        let out = try scratchWAV()
        let clock = VirtualPacingClock()
        let engine = try engine(out, clock: clock)
        return (out, clock, engine, EventCursor(engine))
    }

    /// A ``rig()`` playing `name` from its start: loaded, and its audio started (the clock has
    /// not moved yet).
    static func playing(_ name: String) async throws -> (
        out: String, clock: VirtualPacingClock, engine: MPVEngine, item: PlaybackItemID, events: EventCursor
    ) {
        let (out, clock, engine, cursor) = try rig()
        var events = cursor
        let item = try await engine.load(try file(name), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        return (out, clock, engine, item, events)
    }

    /// Plays `name` to its end without a pause, into a capture of its own (on a virtual clock
    /// moved on as far as the file lasts, at once).
    static func straightCapture(_ name: String) async throws -> WAVFile {
        let (out, clock, engine, item, started) = try await playing(name)
        var events = started
        try await clock.playOut()
        let reason = try await events.end(of: item)
        await engine.shutdown()
        #expect(reason == .endOfFile)
        return try WAVFile(contentsOf: out)
    }

    /// The offset of the first byte where `a` and `b` differ, if any (or the shorter's end).
    static func firstDifference(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int? {
        for (offset, pair) in zip(a, b).enumerated() where pair.0 != pair.1 { return offset }
        return a.count == b.count ? nil : min(a.count, b.count)
    }
}

extension MPVEngine {
    /// The paced capture's clock; `nil` for other outputs.
    var pacedClock: PacedCaptureClock? { outputClock as? PacedCaptureClock }

    /// The paced capture; `nil` for other outputs.
    var capture: PacedCapture? { pacedClock?.capture }

    /// The bytes the capture had played at the last boundary (a load's or a seek's restart):
    /// what had been heard when the current audio began.
    func playedAtLastRestart() async throws -> Int64 {
        try #require(try await onQueue { self.pacedClock?.state.playedBase })
    }
}

extension ContinuousClock {
    /// Runs `body` and returns how long it took.
    func timed(_ body: () async throws -> Void) async rethrows -> Duration {
        let begin = now
        try await body()
        return now - begin
    }
}
