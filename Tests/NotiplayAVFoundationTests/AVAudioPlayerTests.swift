import Foundation
import Notiplay
import NotiplayAVFoundation
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// An extension ported from iOS plays its attachment with `AVAudioPlayer` in `mediaPlay()`:
    /// through the card's libmpv engine, told of the end by its delegate.
    @MainActor
    @Suite("AVAudioPlayer through the card's engine", .timeLimit(.minutes(2)))
    struct AVAudioPlayerTests {
        /// `Media/tone-1s.wav`: 44,100 frames at 44.1 kHz.
        static let tone = TestMedia.path("tone-1s.wav")

        @Test("mediaPlay's AVAudioPlayer(contentsOf: attachment.url).play() plays the attachment through the card's engine; the delegate hears the end")
        func playsThroughTheCard() async throws {
            var memo: MemoExtension?
            let heard = try await AVCard.run(.capture) { card in
                let ext = try card.present(MemoExtension.self, category: "memo", attachment: Self.tone)
                memo = ext
                let mark = card.mark
                card.session.handle(.media)
                #expect(ext.plays == [true])
                #expect(ext.player?.isPlaying == true, "playing from the moment play() returned true")
                // The delegate's end report (audioPlayerDidFinishPlaying → mediaPlayingPaused).
                try await card.event("mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(card.playbackStates(since: mark) == ["started", "ended"])
                #expect(ext.finishes == [true])
                #expect(ext.decodeErrors.isEmpty)
                let player = try #require(ext.player)
                #expect(!player.isPlaying)
                #expect(player.currentTime == 0, "the end sets currentTime to 0, as on iOS")
                #expect(abs(player.duration - 1) < 0.001, "duration \(player.duration)")
                #expect(card.session.buttonState == .play)
                // libmpv itself: the file opened, started and played to its end.
                try await card.recorder.wait("the engine's end of file") { $0.kind == .ended(.endOfFile) }
                let kinds = card.recorder.events.map(\.kind)
                #expect(kinds.contains { abs(($0.loadedDuration ?? 0) - 1) < 0.001 }, "\(kinds)")
                #expect(kinds.contains { if case .started = $0 { true } else { false } }, "\(kinds)")
            }
            #expect(memo?.finishes == [true])
            let wav = try #require(heard, "nothing was rendered")
            #expect(abs(wav.frames - 44_100) <= 1, "rendered \(wav)")
        }

        @Test("The volume set before play() scales what is rendered on a linear scale: 0.5 renders half the amplitude")
        func volumeScalesTheAmplitude() async throws {
            func peak(volume: Float?) async throws -> Double {
                let wav = try await AVCard.run(.capture) { card in
                    let ext = try card.present(MemoExtension.self, category: "memo", attachment: Self.tone)
                    ext.volume = volume
                    let mark = card.mark
                    card.session.handle(.media)
                    try await card.event("the delegate's end", since: mark) { $0.name == "mediaPlayingPaused" }
                    #expect(ext.finishes == [true])
                    if let volume { #expect(ext.player?.volume == volume) }
                }
                return try #require(wav).peak()
            }
            let full = try await peak(volume: nil)
            let half = try await peak(volume: 0.5)
            let silent = try await peak(volume: 0)
            #expect(full > 0.1, "peak \(full)")
            #expect(abs(half / full - 0.5) < 0.01, "peak \(half) at 0.5, \(full) at 1")
            #expect(silent == 0)
        }

        @Test("currentTime set before play() is where playing starts; numberOfLoops 1 plays twice and finishes once")
        func startTimeAndLoops() async throws {
            let heard = try await AVCard.run(.capture) { card in
                let ext = try card.present(MemoExtension.self, category: "memo", attachment: Self.tone)
                ext.startTime = 0.25
                ext.loops = 1
                let mark = card.mark
                card.session.handle(.media)
                try await card.event("the delegate's end", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(ext.finishes == [true])
                #expect(card.playbackStates(since: mark) == ["started", "ended", "started", "ended"])
                let starts = card.session.log.events[mark...].filter { $0.name == "playback" && $0.string("state") == "started" }
                #expect(starts.map { $0.number("position") } == [0.25, 0], "the loop starts the file again from 0")
                #expect(card.session.log.events[mark...].filter { $0.name == "mediaPlayingPaused" }.count == 1)
            }
            // libmpv opens the pcm output anew for each file: the capture holds the loop, the whole file.
            let wav = try #require(heard)
            #expect(abs(wav.frames - 44_100) <= 1, "rendered \(wav)")
        }

        @Test("A file that passes validation but cannot be decoded: the delegate hears the decoding error, then the end, unsuccessful")
        func decodingError() async throws {
            let broken = try Self.undecodableWAV()
            try await AVCard.run(.untimed) { card in
                let ext = try card.present(MemoExtension.self, category: "memo", attachment: broken)
                let mark = card.mark
                card.session.handle(.media)
                try await card.event("the delegate's end", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(ext.finishes == [false])
                #expect(ext.decodeErrors.count == 1)
                #expect(ext.decodeErrors.first?.contains("broken.wav") == true, "\(ext.decodeErrors)")
                #expect(ext.player?.isPlaying == false)
                #expect(card.playbackStates(since: mark) == ["error"])
            }
        }

        @Test("Made outside a presentation, play() and prepareToPlay() return false and nothing is told")
        func outsidePresentation() async throws {
            let delegate = CountingDelegate()
            let player = try AVAudioPlayer(contentsOf: URL(fileURLWithPath: Self.tone))
            player.delegate = delegate
            #expect(!player.prepareToPlay())
            #expect(!player.play())
            #expect(!player.isPlaying)
            player.pause()
            player.currentTime = 0.5
            #expect(player.currentTime == 0.5, "where play() would start")
            player.volume = 2
            #expect(player.volume == 1)
            #expect(player.url == URL(fileURLWithPath: Self.tone))
            #expect(delegate.calls.isEmpty)
        }

        /// A file that passes validation (a RIFF/WAVE header) with no audio libmpv can decode.
        static func undecodableWAV() throws -> String {
            let path = try TestMedia.scratch().appendingPathComponent("broken.wav").path
            var bytes = Array("RIFF".utf8) + [0x24, 0x10, 0, 0] + Array("WAVE".utf8)
            bytes += (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}

/// A delegate that records what it was told.
@MainActor
final class CountingDelegate: AVAudioPlayerDelegate {
    private(set) var calls: [String] = []

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        calls.append("finished \(flag)")
    }

    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {
        calls.append("error")
    }
}

extension RealTime {
    /// `stop()` in real time, on a 30 s tone that plays on through the test.
    @MainActor
    @Suite("AVAudioPlayer: stop keeps the position", .timeLimit(.minutes(2)))
    struct AVAudioPlayerStopTests {
        /// Bounds: none on time. The verdict is where libmpv paused and where it started again:
        /// a stop that reset the position would start again at 0, not where it paused.
        @Test("stop() pauses and keeps currentTime, so play() resumes where it stopped, as on iOS")
        func stopKeepsCurrentTime() async throws {
            let tone = try LongTone.path()
            try await AVCard.run(.realTime) { card in
                let ext = try card.present(MemoExtension.self, category: "memo", attachment: tone)
                var mark = card.mark
                card.session.handle(.media)
                try await card.playback("started", since: mark)
                let player = try #require(ext.player)
                // Some audio is heard before the stop: the position moves past 0.2 s.
                try await card.recorder.wait("the position past 0.2 s") { ($0.kind.position ?? 0) > 0.2 }
                mark = card.mark
                player.stop()
                #expect(!player.isPlaying)
                let paused = try await card.playback("paused", since: mark)
                let stoppedAt = try #require(paused.number("position"))
                #expect(stoppedAt > 0.2)
                #expect(abs(player.currentTime - stoppedAt) < 0.001, "currentTime \(player.currentTime), paused at \(stoppedAt)")
                mark = card.mark
                #expect(player.play())
                let resumed = try await card.playback("started", since: mark)
                #expect(abs((resumed.number("position") ?? 0) - stoppedAt) < 0.05, "resumed at \(resumed.json)")
                player.pause()
                try await card.playback("paused", since: mark)
                #expect(ext.finishes.isEmpty)
            }
        }
    }
}
