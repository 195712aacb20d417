import Foundation
import Notiplay
import NotiplayAVFoundation
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// What the observers of an item's notifications were told, in order: each a label
/// (`nil-queue`, `main-queue`), whether the notification's object was the item, and the error
/// its `userInfo` carries.
@MainActor
final class PostedNotifications {
    let stream: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation
    private let tokens: [any NSObjectProtocol]

    /// Observes `name` for `item` twice, with `queue: nil` and with `queue: .main`, as a Linux
    /// port does (no `#selector`).
    init(_ name: NSNotification.Name, of item: AVPlayerItem) {
        let (stream, sink) = AsyncStream<String>.makeStream()
        self.stream = stream
        self.sink = sink
        let queues: [(label: String, queue: OperationQueue?)] = [("nil-queue", nil), ("main-queue", .main)]
        tokens = queues.map { label, queue in
            NotificationCenter.default.addObserver(forName: name, object: item, queue: queue) { note in
                let isItem = (note.object as AnyObject?) === item
                let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? NotiplayError
                sink.yield("\(label)\(isItem ? "" : " (another object)")\(error.map { ": \($0.reason)" } ?? "")")
            }
        }
    }

    /// The next `count` posts, in the order they came (a guard of 60 s against a hang).
    func next(_ count: Int) async throws -> [String] {
        let stream = self.stream
        return try await withTimeout(60) {
            var posts: [String] = []
            for await post in stream {
                posts.append(post)
                if posts.count == count { break }
            }
            return posts
        }
    }

    /// Stops observing.
    func remove() {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
        sink.finish()
    }
}

extension RealEngine {
    /// An extension ported from iOS plays its attachment with `AVPlayer(playerItem:
    /// AVPlayerItem(url:))`, on real-time output so that a 30 s tone plays on while the test
    /// pauses, seeks and plays it; the verdicts come from what libmpv reported.
    @MainActor
    @Suite("AVPlayer and AVPlayerItem through the card's engine", .timeLimit(.minutes(2)))
    struct AVPlayerTests {
        @Test("It plays and rate says so; pause(); seek(to:) lands where currentTime() and libmpv say; the end posts AVPlayerItemDidPlayToEndTime to both observers")
        func playsPausesSeeksAndEnds() async throws {
            let tone = try LongTone.path()
            try await AVCard.run(.realTime) { card in
                let ext = try card.present(ItemPlayerExtension.self, category: "player", attachment: tone)
                let player = try #require(ext.player)
                let item = try #require(ext.item)
                #expect(player.currentItem === item && item.status == .readyToPlay)
                #expect(player.rate == 0 && player.timeControlStatus == .paused)
                #expect(item.duration == .indefinite)
                let ends = PostedNotifications(.AVPlayerItemDidPlayToEndTime, of: item)
                defer { ends.remove() }

                // Play (the media button: mediaPlay → player.play()).
                var mark = card.mark
                card.session.handle(.media)
                #expect(player.rate == 1)
                try await card.playback("started", since: mark)
                #expect(player.timeControlStatus == .playing)
                #expect(abs(item.duration.seconds - LongTone.seconds) < 0.001, "\(item.duration)")

                // Pause.
                mark = card.mark
                player.pause()
                #expect(player.rate == 0 && player.timeControlStatus == .paused)
                try await card.playback("paused", since: mark)

                // Seek while paused: done when the completion handler says so.
                let target = CMTime(seconds: 12, preferredTimescale: 600)
                let finished = await withCheckedContinuation { done in
                    player.seek(to: target) { done.resume(returning: $0) }
                }
                #expect(finished)
                #expect(player.currentTime() == item.currentTime())
                // libmpv's `time-pos` while paused on the real-time `null` output stands where the
                // seek landed, less what the output had taken of the audio after it (at most its
                // 0.2 s buffer, `ao-null-buffer`); a seek that did not get through would leave it
                // under a second.
                let engineAt = try #require(await card.engine.position())
                #expect(abs(player.currentTime().seconds - engineAt) <= 0.25, "\(player.currentTime()) against libmpv's \(engineAt)")
                try await card.recorder.wait("libmpv at 12 s") { abs(($0.kind.position ?? 0) - 12) <= 0.25 }

                // rate = 1 plays from there.
                mark = card.mark
                player.rate = 1
                let resumed = try await card.playback("started", since: mark)
                #expect(abs((resumed.number("position") ?? 0) - 12) <= 0.25, "\(resumed.json)")

                // Near the end: it plays to it, pauses, and both observers hear of it.
                player.seek(to: CMTime(seconds: LongTone.seconds - 0.3, preferredTimescale: 600))
                mark = card.mark
                let posts = try await ends.next(2)
                #expect(Set(posts) == ["nil-queue", "main-queue"], "\(posts)")
                #expect(card.playbackStates(since: mark).last == "ended")
                #expect(player.rate == 0 && player.timeControlStatus == .paused)
                #expect(abs(player.currentTime().seconds - LongTone.seconds) < 0.001, "at the end: \(player.currentTime())")
                #expect(item.status == .readyToPlay)
            }
        }

        @Test("At the end play() does nothing until a seek; seek(to: .zero) and play() in the observer play it again")
        func playsAgainAfterSeekingToZero() async throws {
            try await AVCard.run(.untimed) { card in
                let ext = try card.present(ItemPlayerExtension.self, category: "player", attachment: TestMedia.path("tone-1s.wav"))
                let player = try #require(ext.player)
                let item = try #require(ext.item)
                let ends = PostedNotifications(.AVPlayerItemDidPlayToEndTime, of: item)
                defer { ends.remove() }
                let first = card.mark
                card.session.handle(.media)
                #expect(try await ends.next(2).count == 2)
                try await card.playback("ended", since: first)
                #expect(player.rate == 0)

                let mark = card.mark
                player.play()  // at the end: nothing
                #expect(player.rate == 0 && player.timeControlStatus == .paused)
                await card.session.settle()
                #expect(card.playbackStates(since: mark).isEmpty)

                // What a looping extension does when the item ends, in the nil-queue observer.
                let again = NotificationCenter.default.addObserver(
                    forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil
                ) { _ in
                    MainActor.assumeIsolated {
                        if card.playbackStates(since: mark).filter({ $0 == "ended" }).count < 2 {
                            player.seek(to: .zero)
                            player.play()
                        }
                    }
                }
                defer { NotificationCenter.default.removeObserver(again) }
                player.seek(to: .zero)
                player.play()
                #expect(player.rate == 1)
                // Played twice more: the seek and play, then the observer's.
                _ = try await ends.next(4)
                let starts = card.session.log.events[mark...].filter { $0.name == "playback" && $0.string("state") == "started" }
                #expect(starts.map { $0.number("position") } == [0, 0], "\(card.playbackStates(since: mark))")
                #expect(card.playbackStates(since: mark) == ["started", "ended", "started", "ended"])
                #expect(player.rate == 0)
            }
        }

        @Test("A file libmpv cannot decode: the item becomes .failed, AVPlayerItemFailedToPlayToEndTime carries the error, rate goes to 0")
        func decodingFailure() async throws {
            let broken = try AVAudioPlayerTests.undecodableWAV()
            try await AVCard.run(.untimed) { card in
                let ext = try card.present(ItemPlayerExtension.self, category: "player", attachment: broken)
                let player = try #require(ext.player)
                let item = try #require(ext.item)
                #expect(item.status == .readyToPlay, "it passed validation")
                let failures = PostedNotifications(.AVPlayerItemFailedToPlayToEndTime, of: item)
                defer { failures.remove() }
                card.session.handle(.media)
                let posts = try await failures.next(2)
                #expect(posts.count == 2 && posts.allSatisfy { $0.hasSuffix(": " + ((item.error as? NotiplayError)?.reason ?? "-")) }, "\(posts)")
                #expect(item.status == .failed)
                #expect((item.error as? NotiplayError)?.file?.hasSuffix("broken.wav") == true, "\(String(describing: item.error))")
                #expect(player.rate == 0)
            }
        }

        @Test("An item that fails validation in a presented card: the player plays nothing, libmpv is never asked")
        func failedItemPlaysNothing() async throws {
            try await AVCard.run(.untimed) { card in
                let ext = try card.present(ItemPlayerExtension.self, category: "player", body: "https://example.com/memo.mp3")
                let player = try #require(ext.player)
                #expect(ext.item?.status == .failed)
                let mark = card.mark
                card.session.handle(.media)
                player.seek(to: CMTime(seconds: 3, preferredTimescale: 1))
                await card.session.settle()
                #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
                #expect(card.playbackStates(since: mark).isEmpty)
                #expect(await card.engine.position() == nil)
                #expect(card.recorder.events.isEmpty, "\(card.recorder.events)")
            }
        }

        @Test("A new notification of the thread: replaceCurrentItem(with:) while playing plays the new item at once")
        func replacesTheItemWhilePlaying() async throws {
            let tone = try LongTone.path()
            try await AVCard.run(.realTime) { card in
                let ext = try card.present(ItemPlayerExtension.self, category: "player", attachment: tone, thread: "t")
                let player = try #require(ext.player)
                let first = try #require(ext.item)
                var mark = card.mark
                card.session.handle(.media)
                try await card.playback("started", since: mark)
                mark = card.mark
                _ = try card.present(
                    ItemPlayerExtension.self, category: "player", attachment: TestMedia.path("tone-1s.wav"), thread: "t")
                let second = try #require(ext.item)
                #expect(second !== first && player.currentItem === second)
                #expect(player.rate == 1)
                let ends = PostedNotifications(.AVPlayerItemDidPlayToEndTime, of: second)
                defer { ends.remove() }
                #expect(try await ends.next(2).count == 2)
                #expect(card.playbackStates(since: mark) == ["started", "ended"])
                #expect(abs(second.duration.seconds - 1) < 0.001 && abs(first.duration.seconds - LongTone.seconds) < 0.001)
                #expect(player.rate == 0)
                // libmpv loaded the second file after the first: the first stopped, not ended.
                try await card.recorder.wait("the second file's end") { $0.kind == .ended(.endOfFile) }
                let loads = card.recorder.events.compactMap(\.kind.loadedDuration)
                #expect(loads.count == 2 && abs(loads[1] - 1) < 0.001, "\(loads)")
            }
        }

        @Test("volume 0.5 renders half the amplitude; isMuted renders silence and keeps the volume")
        func volumeAndMute() async throws {
            func peak(_ set: @MainActor (AVPlayer) -> Void) async throws -> Double {
                let wav = try await AVCard.run(.capture) { card in
                    let ext = try card.present(ItemPlayerExtension.self, category: "player", attachment: TestMedia.path("tone-1s.wav"))
                    let player = try #require(ext.player)
                    set(player)
                    let mark = card.mark
                    card.session.handle(.media)
                    try await card.playback("ended", since: mark)
                }
                return try #require(wav).peak()
            }
            let full = try await peak { _ in }
            let half = try await peak { $0.volume = 0.5 }
            let muted = try await peak {
                $0.volume = 0.5
                $0.isMuted = true
                #expect($0.volume == 0.5)
            }
            #expect(full > 0.1, "peak \(full)")
            #expect(abs(half / full - 0.5) < 0.01, "peak \(half) at 0.5, \(full) at 1")
            #expect(muted == 0)
        }
    }
}
