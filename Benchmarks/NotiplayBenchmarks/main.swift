// Engine benchmarks: numbers, not pass/fail tests. Run with
//   swift run -c release NotiplayBenchmarks [--files N] [--payload-only | --render-only | --paced-cpu]
//   NOTIPLAY_APP=notiplay swift run -c release NotiplayBenchmarks --center-add [--adds N]   (with `notiplay serve` running)
// Reports: 100 files played back to back by one engine (untimed null output),
// load-to-started latency on a warm engine (real-time null output), JSON parsing of a
// 4 KB APNs payload (parse alone, and the whole decode), and the frame renderer (render+diff of
// a 60×10 card after a one-cell change and a position update, bytes written; RenderBenchmark.swift).
import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplayViews

#if canImport(Glibc)
@preconcurrency import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

let arguments = CommandLine.arguments
let count = arguments.firstIndex(of: "--files").flatMap { Int(arguments[$0 + 1]) } ?? 100
let media = arguments.firstIndex(of: "--media").map { arguments[$0 + 1] } ?? "Media"

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func ms(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1000 + Double(atto) / 1e15
}

func format(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return String(r)
}

// An app's add to a running server (`NOTIPLAY_APP` names an app it knows; CenterAddBenchmark.swift).
if arguments.contains("--center-add") {
    for line in await centerAddBenchmark(count: arguments.firstIndex(of: "--adds").flatMap { Int(arguments[$0 + 1]) } ?? 200) {
        print(line)
    }
    exit(0)
}

// The renderer alone needs neither libmpv nor the sample media.
if arguments.contains("--render-only") {
    for line in renderBenchmark() { print(line) }
    exit(0)
}

let file = try AudioFileValidator().validate("\(media)/tone-1s.wav")
let clock = ContinuousClock()

// The paced capture against the real-time null output: CPU of this process (user + system,
// every thread: libmpv's, the capture's reader, the engine's queue) while 5 s of the voice memo
// play, in real time both. Three rounds each, alternating; medians.
if arguments.contains("--paced-cpu") {
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let memo = try AudioFileValidator().validate("\(media)/voice-memo.m4a")
    let capturePath = "/tmp/notiplay-bench-paced-\(getpid()).wav"
    let outputs: [(String, AudioOutput)] = [("null", .null(untimed: false)), ("paced", .pacedCapture(path: capturePath))]
    var cpu: [String: [Double]] = [:]
    var wall: [String: [Double]] = [:]
    for _ in 0..<3 {
        for (name, output) in outputs {
            let engine = try MPVEngine(output: output)
            let cpuStart = cpuSeconds()
            let start = clock.now
            let reason = try await engine.playToEnd(memo, options: PlaybackOptions(end: 5))
            let elapsed = ms(clock.now - start)
            let used = (cpuSeconds() - cpuStart) * 1000
            await engine.shutdown()
            guard reason == .endOfFile else { fatalError("\(name): \(reason)") }
            cpu[name, default: []].append(used)
            wall[name, default: []].append(elapsed)
        }
    }
    unlink(capturePath)
    for (name, _) in outputs {
        let c = median(cpu[name] ?? [])
        let w = median(wall[name] ?? [])
        print("\(name): 5 s of voice-memo.m4a in \(format(w)) ms, CPU \(format(c)) ms "
            + "(\(format(c / w * 100)) % of one core; rounds \((cpu[name] ?? []).map(format)))")
    }
    exit(0)
}

let payloadOnly = arguments.contains("--payload-only")

// 1. N files back to back, one engine, untimed null output.
if !payloadOnly {
    let engine = try MPVEngine(output: .null(untimed: true))
    var perFile: [Double] = []
    let begin = clock.now
    for _ in 0..<count {
        let start = clock.now
        let reason = try await engine.playToEnd(file)
        guard reason == .endOfFile else { fatalError("file ended with \(reason)") }
        perFile.append(ms(clock.now - start))
    }
    let total = ms(clock.now - begin)
    await engine.shutdown()
    print("back-to-back: \(count) × tone-1s.wav (1 s), one engine, null untimed: total \(format(total)) ms, "
        + "median \(format(median(perFile))) ms/file, max \(format(perFile.max() ?? 0)) ms  [budget 2500 ms for 100]")
}

// 2. Warm engine, real-time null output: load → started, and pause/play → paused/started.
if !payloadOnly {
    let engine = try MPVEngine(output: .null(untimed: false))
    var loadToStart: [Double] = []
    var toggle: [Double] = []
    for round in 0..<21 {
        let stream = engine.events()
        var iterator = stream.makeAsyncIterator()
        let start = clock.now
        let item = try await engine.load(file, options: PlaybackOptions())
        while let event = await iterator.next() {
            if event.item == item, case .started = event.kind { break }
        }
        if round > 0 { loadToStart.append(ms(clock.now - start)) }  // round 0 warms the engine
        let pauseStart = clock.now
        try await engine.pause()
        while let event = await iterator.next() {
            if event.item == item, case .paused = event.kind { break }
        }
        toggle.append(ms(clock.now - pauseStart))
        try await engine.stop()
    }
    await engine.shutdown()
    print("warm engine, real-time null: load→started median \(format(median(loadToStart))) ms "
        + "(max \(format(loadToStart.max() ?? 0))), pause→paused event median \(format(median(toggle))) ms")
}

// 3. A 4 KB APNs payload (just under the 4096-byte limit): JSON parse alone, then the whole
//    decode into UNNotificationContent (parse, size check, every aps key, userInfo).
do {
    func payload(customBytes: Int) -> [UInt8] {
        var custom = ""
        var i = 0
        while custom.utf8.count < customBytes {
            custom += "\"key\(i)\": {\"text\": \"Ünïcödé \\u00e9 line \(i)\", \"n\": \(i), \"f\": \(Double(i) / 7), \"ok\": true},"
            i += 1
        }
        return Array(("{\"aps\": {\"alert\": {\"title\": \"Voice memo\", \"body\": \"Sam left you a message\"}, "
            + "\"category\": \"memo\", \"thread-id\": \"sam\", \"mutable-content\": 1, \"sound\": \"default\"}, "
            + custom + "\"end\": null}").utf8)
    }
    var size = 3_900
    var bytes = payload(customBytes: size)
    while PayloadDecoder.compactSize(bytes) > 4_096 {
        size -= 20
        bytes = payload(customBytes: size)
    }
    let decoder = PayloadDecoder()
    var parse: [Double] = []
    var decode: [Double] = []
    for round in 0..<20_000 {
        let start = clock.now
        let value = try JSONParser.parse(bytes)
        let parsed = clock.now
        let decoded = try decoder.decode(bytes)
        let end = clock.now
        precondition(value["aps"] != nil && decoded.content.categoryIdentifier == "memo")
        if round >= 1_000 {
            parse.append(ms(parsed - start) * 1000)
            decode.append(ms(end - parsed) * 1000)
        }
    }
    func p99(_ v: [Double]) -> String { format(v.sorted()[v.count * 99 / 100]) }
    print("payload: \(bytes.count) bytes (\(PayloadDecoder.compactSize(bytes)) as APNs counts them): "
        + "JSON parse median \(format(median(parse))) µs (p99 \(p99(parse)) µs); "
        + "full decode median \(format(median(decode))) µs (p99 \(p99(decode)) µs; budget 50 µs)")
}

// 4. The runtime, one process, warm engine (real-time null output), the default card:
//    media key → buttonState event (synchronous), and media key → playback started
//    (libmpv's PLAYBACK_RESTART, reported by the engine), 50 play/pause rounds.
if !payloadOnly {
    let engine = try MPVEngine(output: .null(untimed: false))
    let (button, restart) = try await runtimeLatencies(engine: engine, file: file)
    let frames = try await keyToFrame(engine: engine, file: file)
    await engine.shutdown()
    let sorted = frames.sorted()
    print("card: key → frame bytes (handle, card state, layout 80 columns, diff) median \(format(median(frames) * 1000)) µs, "
        + "p99 \(format(sorted[sorted.count * 99 / 100] * 1000)) µs [budget 2 ms median, 10 ms p99]")
    print("runtime: key → buttonState median \(format(median(button) * 1000)) µs (max \(format((button.max() ?? 0) * 1000)) µs); "
        + "key → playback started median \(format(median(restart))) ms (max \(format(restart.max() ?? 0)) ms) "
        + "[budgets 1 ms median, 30 ms]")
}

// 5. The frame renderer.
if !payloadOnly {
    for line in renderBenchmark() { print(line) }
}

@MainActor
func runtimeLatencies(engine: MPVEngine, file: AudioFile) async throws -> ([Double], [Double]) {
    let attachment = try AttachmentValidator().validate(file.path)
    let content = UNMutableNotificationContent()
    content.title = "Bench"
    content.attachments = [attachment]
    let notification = UNNotification(
        request: UNNotificationRequest(identifier: "bench", content: content, trigger: nil), date: .now)
    let session = PresentationSession(app: .standard, registry: .empty, types: ExtensionTypes(), engine: engine)
    try session.present(notification)
    // Warm up: the first play loads the file.
    session.handle(.media)
    _ = await session.log.next(timeout: .seconds(5)) { $0.name == "playback" && $0.string("state") == "started" }
    var button: [Double] = []
    var restart: [Double] = []
    for _ in 0..<50 {
        for _ in 0..<2 {  // pause, then play
            let wantStarted = !session.isPlaying
            let start = clock.now
            session.handle(.media)
            let pressed = clock.now
            button.append(ms(pressed - start))
            if wantStarted {
                _ = await session.log.next(timeout: .seconds(5)) { $0.name == "playback" && $0.string("state") == "started" }
                restart.append(ms(clock.now - start))
            } else {
                _ = await session.log.next(timeout: .seconds(5)) { $0.name == "playback" && $0.string("state") == "paused" }
            }
        }
    }
    session.close()
    return (button, restart)
}

/// Media key → the bytes of the next frame, as `deliver` in a terminal does it (without the write).
@MainActor
func keyToFrame(engine: MPVEngine, file: AudioFile) async throws -> [Double] {
    let attachment = try AttachmentValidator().validate(file.path)
    let content = UNMutableNotificationContent()
    content.title = "Bench"
    content.body = "A voice memo"
    content.attachments = [attachment]
    let notification = UNNotification(
        request: UNNotificationRequest(identifier: "frame", content: content, trigger: nil), date: .now)
    let session = PresentationSession(app: .standard, registry: .empty, types: ExtensionTypes(), engine: engine)
    try session.present(notification)
    var renderer = FrameRenderer()
    _ = renderer.render(CardLayout.render(session.card(), width: 80), mode: .palette256, glyphs: .unicode)
    var times: [Double] = []
    var emptyFrames = 0
    for _ in 0..<400 {
        let start = clock.now
        session.handle(.media)
        let bytes = renderer.render(CardLayout.render(session.card(), width: 80), mode: .palette256, glyphs: .unicode)
        times.append(ms(clock.now - start))
        if bytes.isEmpty { emptyFrames += 1 }
        await Task.yield()
    }
    session.close()
    if emptyFrames > 0 { print("card: \(emptyFrames) of 400 keys changed nothing on the card") }
    return times
}
