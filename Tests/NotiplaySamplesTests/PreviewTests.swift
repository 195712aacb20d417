import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Testing

@testable import NotiplaySamples

/// WAV files made in the tests.
enum MadeWAV {
    /// A WAV file of `frames` frames: `format` 1 (integer) or 3 (float), `bits` per sample,
    /// `channels`, each sample `value(frame, channel)` in −1…1; `extensible` wraps the format
    /// in WAVE_FORMAT_EXTENSIBLE.
    static func bytes(
        rate: Int = 8_000, channels: Int = 1, bits: Int = 16, format: Int = 1, extensible: Bool = false, frames: Int,
        value: (Int, Int) -> Double
    ) -> [UInt8] {
        var out: [UInt8] = []
        func le(_ v: Int, _ count: Int) {
            for k in 0..<count { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
        }
        let sampleBytes = bits / 8
        let dataSize = frames * channels * sampleBytes
        let fmtSize = extensible ? 40 : 16
        out += Array("RIFF".utf8)
        le(4 + 8 + fmtSize + 8 + dataSize, 4)
        out += Array("WAVEfmt ".utf8)
        le(fmtSize, 4)
        le(extensible ? 0xFFFE : format, 2)
        le(channels, 2)
        le(rate, 4)
        le(rate * channels * sampleBytes, 4)
        le(channels * sampleBytes, 2)
        le(bits, 2)
        if extensible {
            le(22, 2)
            le(bits, 2)
            le(channels == 1 ? 4 : 3, 4)
            le(format, 2)
            out += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        out += Array("data".utf8)
        le(dataSize, 4)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let v = value(frame, channel)
                switch (format, bits) {
                case (3, 32): le(Int(Float(v).bitPattern), 4)
                case (3, 64): le(Int(truncatingIfNeeded: v.bitPattern), 8)
                case (1, 8): le(Int((v * 127).rounded()) + 128, 1)
                default: le(Int((v * Double((1 << (bits - 1)) - 1)).rounded()), sampleBytes)
                }
            }
        }
        return out
    }

    /// Writes `bytes` to a new scratch file named `name`.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = try TestMedia.scratch().appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite("LevelEnvelope: a coarse RMS curve from WAV samples")
struct LevelEnvelopeTests {
    @Test("Full-scale square and half-scale sine have the RMS they should, in every sample format")
    func formats() throws {
        let formats: [(Int, Int, Bool)] = [(1, 8, false), (1, 16, false), (1, 24, false), (1, 32, false), (3, 32, false), (3, 64, false), (1, 16, true), (3, 32, true)]
        for (format, bits, extensible) in formats {
            let square = MadeWAV.bytes(bits: bits, format: format, extensible: extensible, frames: 800) { frame, _ in frame % 2 == 0 ? 0.99 : -0.99 }
            let envelope = try LevelEnvelope.decode(square, window: 0.05)
            #expect(envelope.levels.count == 2 && envelope.duration == 0.1, "\(format)/\(bits)")
            #expect(envelope.levels.allSatisfy { abs($0 - 0.99) < 0.01 }, "\(format)/\(bits): \(envelope.levels)")
            let sine = MadeWAV.bytes(channels: 2, bits: bits, format: format, extensible: extensible, frames: 8_000) { frame, _ in
                0.5 * sin(2 * .pi * 500 * Double(frame) / 8_000)
            }
            let levels = try LevelEnvelope.decode(sine).levels
            #expect(levels.count == 20)
            #expect(levels.allSatisfy { abs($0 - 0.5 / 2.0.squareRoot()) < 0.01 }, "\(format)/\(bits): \(levels)")
        }
    }

    @Test("Silence then a tone: the level at a position follows the audio; the meter's scale is −60…0 dBFS")
    func levelAtPosition() throws {
        let bytes = MadeWAV.bytes(frames: 8_000) { frame, _ in frame < 4_000 ? 0 : (frame % 2 == 0 ? 0.5 : -0.5) }
        let envelope = try LevelEnvelope.decode(bytes)
        #expect(envelope.level(at: 0.2) == 0)
        #expect(abs(envelope.level(at: 0.7) - 0.5) < 0.001)
        #expect(envelope.level(at: -1) == 0 && envelope.level(at: 5) == 0 && envelope.level(at: .nan) == 0)
        #expect(LevelEnvelope.meter(1) == 1 && LevelEnvelope.meter(0.001) == 0 && LevelEnvelope.meter(0) == 0)
        #expect(abs(LevelEnvelope.meter(0.1) - 2.0 / 3) < 1e-9)
        #expect(LevelEnvelope.decibels(0.5) == "-6 dB" && LevelEnvelope.decibels(0) == "-∞ dB")
    }

    @Test("The sample's ringtone: six beeps getting louder, silence between them")
    func ringtone() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SampleFiles.path("Preview/ringtone.wav"))))
        let envelope = try LevelEnvelope.decode(bytes)
        #expect(envelope.levels.count == 60 && envelope.duration == 3)
        let beeps = (0..<6).map { envelope.level(at: Double($0) * 0.5 + 0.15) }
        #expect(beeps == beeps.sorted() && Set(beeps).count == 6, "\(beeps)")
        #expect(abs(20 * log10(beeps[0]) - -29) < 1 && abs(20 * log10(beeps[5]) - -6) < 1, "\(beeps)")
        for gap in 0..<6 { #expect(envelope.level(at: Double(gap) * 0.5 + 0.4) < 1e-3) }
    }

    @Test("Malformed files are refused with a reason, never a trap")
    func malformed() throws {
        let good = MadeWAV.bytes(frames: 100) { _, _ in 0.1 }
        func fails(_ bytes: [UInt8], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: LevelEnvelope.Failure.self, sourceLocation: sourceLocation) { try LevelEnvelope.decode(bytes) }
            do {
                _ = try LevelEnvelope.decode(bytes)
            } catch {
                #expect(error.description.contains(reason), "\(error)", sourceLocation: sourceLocation)
            }
        }
        fails([], "not a WAV file")
        fails(Array("RIFF\0\0\0\0AVIX".utf8), "not a WAV file")
        fails(Array(good.prefix(16)), "no fmt chunk")
        fails(Array(good.prefix(30)), "fmt chunk is too short")
        fails(Array(good.prefix(36)), "no data chunk")
        var noChannels = good
        noChannels[22] = 0
        fails(noChannels, "0 channels")
        var mu = good
        mu[20] = 7  // µ-law
        fails(mu, "not PCM")
        var twelve = good
        twelve[34] = 12
        fails(twelve, "not PCM")
        var zeroRate = good
        zeroRate[24...27] = [0, 0, 0, 0]
        fails(zeroRate, "samples a second")
        // A data chunk claiming 4 GB is read as far as the file goes.
        var huge = good
        huge[40...43] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(try LevelEnvelope.decode(huge).duration == 100.0 / 8_000)
        // A chunk size that runs past the end before the data chunk.
        var runaway = good
        runaway[16...19] = [0xF0, 0xFF, 0xFF, 0xFF]
        fails(runaway, "no data chunk")
        // Random damage anywhere: an answer or a reason, never a trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
            if let envelope = try? LevelEnvelope.decode(bytes) {
                #expect(envelope.levels.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
            }
        }
        // NaN and infinite float samples count as silence; loud ones are clipped.
        let wild = MadeWAV.bytes(bits: 32, format: 3, frames: 400) { frame, _ in [Double.nan, .infinity, 7, -7][frame % 4] }
        #expect(try LevelEnvelope.decode(wild).levels.allSatisfy { abs($0 - 0.5.squareRoot()) < 1e-9 })
    }
}

@Suite("LevelMeter: the loudest window heard since the previous position report")
struct LevelMeterTests {
    @Test("Between two reports every window counts; a seek shows where it landed; at rest it is 0")
    func meter() throws {
        // 0.1 s of silence, 0.1 s at half scale, silence: windows of 50 ms.
        let bytes = MadeWAV.bytes(frames: 4_000) { frame, _ in (800..<1_600).contains(frame) ? (frame % 2 == 0 ? 0.5 : -0.5) : 0 }
        let envelope = try LevelEnvelope.decode(bytes)
        #expect(envelope.loudest(from: 0, through: 0.09) == 0)
        #expect(abs(envelope.loudest(from: 0.05, through: 0.26) - 0.5) < 0.001)
        #expect(envelope.loudest(from: 0.25, through: 0.45) == 0)
        #expect(envelope.loudest(from: 0.3, through: 0.2) == 0 && envelope.loudest(from: 9, through: 10) == 0)
        #expect(abs(envelope.loudest(from: -5, through: 1e300) - 0.5) < 0.001)
        #expect(envelope.loudest(from: .nan, through: 1) == 0 && envelope.loudest(from: 0, through: .infinity) == 0)

        var meter = LevelMeter(envelope)
        meter.moved(to: 0.3)  // not playing: nothing moves
        #expect(meter.level == 0)
        meter.started(at: 0)
        #expect(meter.level == 0)
        meter.moved(to: 0.3)  // the tone was heard on the way
        #expect(abs(meter.level - 0.5) < 0.001)
        meter.moved(to: 0.45)
        #expect(meter.level == 0)
        meter.moved(to: 0.12)  // a seek back: the level where it landed
        #expect(abs(meter.level - 0.5) < 0.001)
        meter.moved(to: 0.4)
        meter.stopped()
        #expect(meter.level == 0)
        meter.moved(to: 0.45)
        #expect(meter.level == 0)
    }
}

/// The card at positions the test reports, on an engine that plays nothing: what the meter shows
/// does not depend on when a real engine happens to report.
@MainActor
@Suite("Preview: the meter follows the position between reports")
struct PreviewMeterTests {
    /// libmpv reports the 8 kHz ringtone's position about twice a second, in step with its beeps
    /// (one every 0.5 s): the reports can all fall in the silent gaps. Here they do, each one
    /// 0.4 s into a half second; the meter still shows each beep heard since the last report,
    /// louder and louder, as a finite level and a bar that is not empty.
    @Test("Positions reported only in the ringtone's gaps: a finite level and a bar at each, climbing")
    func reportsInTheGaps() async throws {
        let engine = FakeEngine(.driven(duration: 3))
        try await SampleCard.run("Preview", output: .driven(engine)) { card in
            let controller = try #require(try await card.present("preview.apns") as? PreviewViewController)
            let mark = card.mark
            card.session.handle(.media)
            try await card.wait(for: "mediaPlayingStarted", since: mark) { $0.name == "mediaPlayingStarted" }
            var levels: [Int] = []
            for position in [0.4, 0.9, 1.4, 1.9, 2.4, 2.9] {
                engine.report(position)
                try await card.waitForText("the position \(position)") { _ in controller.player?.position == position }
                let meterRow = card.text.split(separator: "\n").map(String.init)[2]
                let level = try #require(meterRow.firstMatch(of: /level -(\d+) dB/), "at \(position): \(card.text)")
                #expect(meterRow.contains("█"), "the bar is empty at \(position): \(card.text)")
                levels.append(-(Int(level.1) ?? 0))
            }
            #expect(levels == levels.sorted() && Set(levels).count == 6, "\(levels)")
            #expect(abs(levels[0] - -29) <= 1 && abs(levels[5] - -6) <= 1, "\(levels)")
        }
    }
}

extension RealEngine {
    @MainActor
    @Suite("Preview: the .overlay button over a level meter drawn from the audio, on real libmpv")
    struct PreviewTests {
        @Test("Presents with a dim ▶ over the meter, the whole clip's loudness and its duration")
        func presents() async throws {
            try await SampleCard.run("Preview") { card in
                let controller = try #require(try await card.present("preview.apns") as? PreviewViewController)
                #expect(card.events("didReceive").first?.string("extension") == "Preview")
                #expect(card.session.buttonType == .overlay && card.session.buttonState == .play)
                #expect(controller.envelope?.levels.count == 60)
                let rows = card.text.split(separator: "\n").map(String.init)
                // The strip: loud beeps and silent gaps, quiet first.
                #expect(rows[1].contains("▁") && rows[1].contains("▇"), "\(card.text)")
                // The ▶ is in the middle of the 40-column frame, on its middle row.
                let meter = Array(rows[2])
                #expect(meter[2 + 19] == "▶", "\(card.text)")
                #expect(rows[2].hasSuffix("level – │"), "\(card.text)")
                #expect(card.text.contains("0:00 / 0:03  ringtone.wav") && card.text.contains("Press space (or tap) to preview."))
                #expect(card.text.contains("1 Use as ringtone  2 More sounds"))
            }
        }

        @Test("All of the preview is heard when it plays through")
        func heard() async throws {
            let heard = try await SampleCard.run("Preview", output: .capture) { card in
                try await card.present("preview.apns")
                let mark = card.mark
                card.session.handle(.media)
                try await card.playback("ended", since: mark)
            }
            let wav = try #require(heard)
            #expect(abs(wav.seconds - 3) < 0.03, "heard \(wav.seconds) s")
        }

        @Test("use keeps the card and says so; another action goes to the app and stops the sound")
        func actions() async throws {
            // A minute of sound: it still plays when the action comes, however busy the machine.
            let path = try MadeWAV.write(
                MadeWAV.bytes(frames: 60 * 8_000) { frame, _ in 0.3 * sin(Double(frame) * 0.35) }, name: "minute.wav")
            defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent()) }
            try await SampleCard.run("Preview", output: .realTime) { card in
                let content = UNMutableNotificationContent()
                content.categoryIdentifier = "preview"
                content.attachments = [try AttachmentValidator().validate(path)]
                try card.present(content)
                var mark = card.mark
                card.session.handle(.action(1))
                #expect(try await card.response(to: "use", since: mark).string("option") == "doNotDismiss")
                #expect(card.text.contains("Chosen as your ringtone."), "\(card.text)")
                let engineEvents = card.engine.events()
                card.session.handle(.media)
                try await card.playback("started", since: mark)
                mark = card.mark
                card.session.handle(.action(2))
                #expect(try await card.response(to: "open", since: mark).string("option") == "dismissAndForwardAction")
                #expect(card.names(since: mark).contains("forwarded") && card.session.isDismissed)
                // The closed card's sound is stopped: libmpv says so, and holds no file any more.
                let stopped = try await withTimeout(30) {
                    for await event in engineEvents {
                        if case .ended(let reason) = event.kind { return reason == .stopped }
                    }
                    return false
                }
                #expect(stopped, "the sound was not stopped")
                #expect(await card.engine.position() == nil)
            }
        }

        @Test("Not a WAV: it plays without a meter and says why; no sound at all: a clear line and no button")
        func withoutMeter() async throws {
            try await SampleCard.run("Preview") { card in
                let controller = try #require(try await card.present("preview-ogg.apns") as? PreviewViewController)
                #expect(controller.envelope == nil)
                #expect(card.flatText.contains("No level meter"), "\(card.text)")
                #expect(card.flatText.contains("The meter needs WAV samples: not a WAV file (vorbis)."), "\(card.text)")
                let mark = card.mark
                card.session.handle(.media)
                try await card.playback("ended", since: mark)
                try await card.wait(for: "mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }

                let content = UNMutableNotificationContent()
                content.title = "No sound"
                content.categoryIdentifier = "preview"
                try card.present(content)
                #expect(card.session.buttonState == .none)
                #expect(card.text.contains("No sound attached to preview."), "\(card.text)")
            }
        }

        @Test("A damaged WAV: no meter and why; libmpv's failure is reported as paused, ▶ again")
        func damagedWAV() async throws {
            var bytes = MadeWAV.bytes(frames: 800) { frame, _ in sin(Double(frame)) * 0.3 }
            bytes[20] = 0x55  // format tag: not PCM
            bytes[21] = 0x00
            let path = try MadeWAV.write(bytes, name: "damaged.wav")
            defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent()) }
            try await SampleCard.run("Preview") { card in
                let content = UNMutableNotificationContent()
                content.categoryIdentifier = "preview"
                content.attachments = [try AttachmentValidator().validate(path)]
                try card.present(content)
                #expect(card.flatText.contains("No level meter"), "\(card.text)")
                #expect(card.flatText.contains("The meter needs WAV samples: its samples are in format 85 with 16 bits, which is not PCM."), "\(card.text)")
                let mark = card.mark
                card.session.handle(.media)
                try await card.wait(for: "the end of the attempt", since: mark) { line in
                    line.name == "playback" && ["error", "ended"].contains(line.string("state") ?? "")
                }
                try await card.wait(for: "mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(card.session.buttonState == .play)
            }
        }
    }
}

extension RealTime {
    /// The ringtone preview's overlay, touched while it plays in real time.
    @MainActor
    @Suite("Preview: a touch while it plays in real time", .tags(.realEngine))
    struct PreviewTouchTimeTests {
        /// The touch must land while the 3 s ringtone plays: it comes once the meter shows a
        /// level, well within a second of the start on a 2-core machine with two busy loops beside
        /// it. What it catches: a touch that does not pause (no `paused` event, the end first),
        /// the overlay's ▶ not hidden while playing or not back when paused and at the end.
        @Test("Play hides the button; a touch on the content pauses (mediaPause, reported back); ▶ plays on; the end reports paused")
        func overlayAndTouch() async throws {
            try await SampleCard.run("Preview", output: .realTime) { card in
                try await card.present("preview.apns")
                var mark = card.mark
                card.session.handle(.media)
                #expect(card.session.buttonState == .hidden)
                try await card.playback("started", since: mark)
                try await card.wait(for: "mediaPlayingStarted", since: mark) { $0.name == "mediaPlayingStarted" }
                // While playing: no ▶, and the meter shows the level where the audio is.
                try await card.waitForText("a level in dB") { $0.contains(/level -\d+ dB │/) }
                #expect(!card.text.contains("▶") && card.text.contains("Playing — tap to pause."), "\(card.text)")

                mark = card.mark
                card.session.handle(.tapContent)
                try await card.playback("paused", since: mark)
                try await card.wait(for: "mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(card.names(since: mark).prefix(2) == ["mediaPause", "buttonState"])
                #expect(card.events("buttonState", since: mark).map { $0.string("state") } == ["play"])
                try await card.waitForText("Paused.") { $0.contains("Paused.") }
                #expect(card.text.contains("▶"), "\(card.text)")

                // A touch while paused does nothing (the overlay's ▶ is the way to play).
                mark = card.mark
                card.session.handle(.tapContent)
                #expect(card.names(since: mark).isEmpty)

                card.session.handle(.media)
                try await card.playback("started", since: mark)
                try await card.playback("ended", since: mark)
                try await card.wait(for: "button ▶", since: mark) { $0.name == "buttonState" && $0.string("state") == "play" }
                let names = card.names(since: mark)
                #expect(names.suffix(3) == ["playback", "mediaPlayingPaused", "buttonState"], "\(names)")
                try await card.waitForText("the end") { $0.contains("Played to the end.") && $0.contains("0:03 / 0:03") }
            }
        }
    }
}
