import ArgumentParser
import Logging
import NotiplayCore
import NotiplayPlayback
import NotiplaySystem
import NotiplayTerminal
import NotiplayViews
import Synchronization
import SystemPackage

/// `notiplay play`: plays an audio file to its end.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audio file to its end.",
        discussion: """
            Shows position and duration on one line when standard output is a terminal. With \
            --audio auto and no sound device, plays on the null output and says so once.
            """)

    @Argument(
        help: "A local audio file: WAV, AIFF, MP3, AAC, M4A, Ogg Vorbis, Opus or FLAC.",
        completion: .file())
    var file: String

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Print one JSON object per playback event on standard output.", valueName: "format"))
    var events: EventFormat?

    func run() async throws {
        let clock = EventClock()
        let jsonl = events == .jsonl
        let audioFile = try AudioFileValidator(sizeLimit: AudioFileValidator.playLimit, limitName: "files notiplay plays").validate(file)
        let engine = try output.audio.startEngine(untimed: output.untimed)
        let reporter = PlayReporter(file: audioFile, clock: clock, jsonl: jsonl, statusLine: !jsonl && Posix.isTerminal(.standardOutput),
            environment: processEnvironment)
        let interrupts = InterruptWatch { Task { try? await engine.stop() } }

        let reason = try await engine.playToEnd(audioFile) { reporter.handle($0) }
        await engine.shutdown()
        reporter.finish()
        interrupts.cancel()

        if let failure = engine.captureFailure, reason != .failed(failure) {
            // Found as the engine shut down: the file itself played on.
            throw NotiplayError(.unavailable, failure.message)
        }
        switch reason {
        case .endOfFile:
            return
        case .stopped:
            throw ExitCode(interrupts.fired.map { 128 + $0 } ?? 1)
        case .failed(let failure):
            throw Self.error(for: failure, file: audioFile)
        case .truncated(let reached):
            let end = reporter.duration.map { ", not at its end (\(PlayReporter.clock($0)))" } ?? ""
            throw NotiplayError(
                .badData, file: audioFile.argument,
                "was cut short while it played: its audio ended at \(PlayReporter.clock(reached))\(end)")
        }
    }

    static func error(for failure: PlaybackFailure, file: AudioFile) -> NotiplayError {
        let reason = "libmpv cannot play it: \(failure.message) (\(failure.code))"
        switch failure.code {
        case PlaybackFailure.audioOutputInitFailed:
            return NotiplayError(.unavailable, file: file.argument, "no audio output could be opened: \(failure.message)")
        case PlaybackFailure.captureFailed:
            // "cannot write the audio capture file PATH: why" (a write failed while it played).
            return NotiplayError(.unavailable, failure.message)
        case PlaybackFailure.loadingFailed where !Path.exists(file.path):
            return NotiplayError(.missingInput, file: file.argument, "disappeared before it could be played")
        default:
            return NotiplayError(.badData, file: file.argument, reason)
        }
    }
}

/// Turns playback events into the status line or JSON lines of `notiplay play`.
final class PlayReporter {
    let file: AudioFile
    let clock: EventClock
    let jsonl: Bool
    let statusLine: Bool
    private var position = 0.0
    /// The file's duration, once the engine told it.
    private(set) var duration: Double?
    private var playing = false
    private var ended = false
    private var lastStatus = ""
    private let glyphs: GlyphSet
    private let environment: [String: String]

    init(file: AudioFile, clock: EventClock, jsonl: Bool, statusLine: Bool, environment: [String: String]) {
        self.file = file
        self.environment = environment
        glyphs = GlyphSet.detect(environment: environment)
        self.clock = clock
        self.jsonl = jsonl
        self.statusLine = statusLine
    }

    func handle(_ event: PlaybackEvent) {
        switch event.kind {
        case .loaded(let d):
            duration = d
        case .duration(let d):
            duration = d
        case .started(let p):
            position = p
            playing = true
            line("playback", [("state", .string("started")), ("position", .number(p)), ("duration", duration.map(JSONScalar.number) ?? .null)])
        case .paused(let p):
            position = p
            playing = false
            line("playback", [("state", .string("paused")), ("position", .number(p))])
        case .position(let p):
            position = p
        case .ended(let reason):
            playing = false
            ended = true
            switch reason {
            case .endOfFile:
                if let duration { position = max(position, duration) }
                line("playback", [("state", .string("ended")), ("position", .number(position)), ("reason", .string("eof"))])
            case .truncated(let reached):
                position = reached
                line("playback", [("state", .string("ended")), ("position", .number(position)), ("reason", .string("truncated"))])
            case .stopped:
                line("playback", [("state", .string("ended")), ("position", .number(position)), ("reason", .string("stopped"))])
            case .failed:
                break  // reported by the error event before it
            }
        case .error(let failure):
            line("error", [("message", .string("\(file.displayName): \(failure.message)")), ("code", .integer(Int(failure.code)))])
            line("playback", [("state", .string("error")), ("position", .number(position))])
        case .outputFallback(let name):
            Diagnostics.shared.report("no sound device could be opened; playing silently on the \(name) output")
        }
        drawStatus()
    }

    func finish() {
        if statusLine, !lastStatus.isEmpty { _ = try? FileDescriptor.standardOutput.writeAll("\n".utf8) }
    }

    private func line(_ name: String, _ fields: [(String, JSONScalar)]) {
        guard jsonl else { return }
        _ = try? FileDescriptor.standardOutput.writeAll((EventLine(name, t: clock.seconds(), fields).json + "\n").utf8)
    }

    private func drawStatus() {
        guard statusLine else { return }
        let total = duration.map(Self.clock) ?? "-:--"
        let glyph = ended ? glyphs.stopped : playing ? glyphs.play : glyphs.pause
        var text = "\(glyph) \(Self.clock(position)) / \(total)  \(file.displayName)"
        let width = TerminalSize.current(fd: 1, environment: environment)?.columns ?? 80
        if text.count >= width { text = String(text.prefix(max(1, width - 2))) + glyphs.ellipsis }
        guard text != lastStatus else { return }
        lastStatus = text
        _ = try? FileDescriptor.standardOutput.writeAll(("\r\u{1B}[2K" + text).utf8)
    }

    /// `m:ss.t`.
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let s = tenths / 10 % 60
        return "\(tenths / 600):\(s < 10 ? "0" : "")\(s).\(tenths % 10)"
    }
}
