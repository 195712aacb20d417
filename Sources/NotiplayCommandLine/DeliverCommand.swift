import Logging
import Notiplay
import NotiplayPlayback
import SystemPackage

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `notiplay deliver PAYLOAD [--attach FILE]... [--app FILE] [--extensions DIR] --headless
/// [--keys "KEYS"] [--events jsonl] [--audio …] [--untimed]`.
enum DeliverCommand {
    static let spec = CommandSpec(
        name: "deliver",
        abstract: "Present a notification with its content extension (headless: keys in, events out).",
        discussion: """
            --headless presents with no terminal, feeds --keys as if typed and prints every event:
            space or p (media button), 1-9 (actions), enter (default action), esc or d (dismiss),
            q (quit), ~500ms / ~1.5s (wait), ~end (wait for the end of the audio).
            Without --headless, in a terminal: the card, drawn and redrawn, keys from the keyboard.
            When standard output is not a terminal: the card once as text, then the events.
            """,
        positionals: [PositionalSpec(name: "PAYLOAD", help: "An APNs payload file (.apns or JSON).")],
        options: [
            OptionSpec(name: "attach", value: "FILE", help: "Attach a local file (audio or image); repeatable.", repeatable: true),
            OptionSpec(name: "app", value: "FILE", help: "The app file (name, categories, actions, extensions)."),
            OptionSpec(name: "extensions", value: "DIR", help: "A folder of Name.appex bundles (default: the app file's)."),
            OptionSpec(name: "headless", value: nil, help: "No terminal: feed --keys, print events."),
            OptionSpec(name: "keys", value: "KEYS", help: "Keys to feed, separated by spaces (see above)."),
            OptionSpec(name: "events", value: "jsonl", help: "Print events as JSON lines (default: readable lines)."),
            OptionSpec(name: "audio", value: "null|auto|pcm:PATH", help: "Where audio goes (default auto)."),
            OptionSpec(name: "untimed", value: nil, help: "Render audio faster than real time."),
            OptionSpec(name: "no-payload-limit", value: nil, help: "Accept payloads above APNs' 4096 bytes."),
            OptionSpec(name: "response-timeout", value: "SECONDS", help: "Time an extension has to answer an action (default 10)."),
            OptionSpec(name: "service-timeout", value: "SECONDS", help: "Time a service extension has to change the content (default 30)."),
        ],
        run: { try await run($0) }
    )

    /// Extension types: the built-in ones, plus those the executable registers (the samples in
    /// `notiplay`, an author's own in their tool).
    nonisolated(unsafe) static var types = ExtensionTypes()

    static func run(_ arguments: ParsedArguments) async throws {
        let mode: Mode = arguments.flag("headless") ? .headless : (isatty(0) == 1 && isatty(1) == 1) ? .terminal : .plain
        let jsonl: Bool
        switch arguments.value("events") {
        case nil: jsonl = false
        case "jsonl": jsonl = true
        case let other?: throw UsageError("--events must be jsonl, not '\(TerminalText.clean(other))'")
        }
        let keys = try HeadlessKey.parse(arguments.value("keys") ?? "")
        var configuration = PresentationSession.Configuration()
        if let limit = try seconds(arguments, "response-timeout") { configuration.responseTimeLimit = limit }
        var service = ServiceExtensionStage.Configuration()
        if let limit = try seconds(arguments, "service-timeout") { service.timeLimit = limit }
        let audio = try arguments.value("audio").map(AudioOutputArgument.init) ?? .auto

        // Everything is read and checked before anything is presented.
        let decoder = PayloadDecoder(sizeLimit: arguments.flag("no-payload-limit") ? nil : PayloadDecoder.apnsLimit)
        let path = arguments.positionals[0]
        let payload: APNsPayload
        do { payload = try decoder.decodeFile(path) } catch { throw error.withCommandLineHints.notiplayError }
        var content = payload.content.mutableCopy()
        let validator = AttachmentValidator()
        for file in arguments.all("attach") {
            content.attachments.append(try validator.validate(file))
        }
        var app = AppDefinition.standard
        if let appFile = arguments.value("app") {
            do { app = try AppDefinition.decodeFile(appFile) } catch { throw error.notiplayError }
        }
        var registry = ExtensionRegistry.empty
        if let folder = arguments.value("extensions") ?? app.extensionsDirectory {
            do {
                registry = try ExtensionRegistry.load(folder: folder)
                try types.check(registry)
            } catch {
                for failure in error.failures.dropLast() { Diagnostics.shared.report(failure.description) }
                throw error.failures.last?.notiplayError ?? NotiplayError(.badData, file: folder, "cannot be loaded")
            }
        }
        let engine = try audio.startEngine(untimed: arguments.flag("untimed"))
        // After the engine: the app command's output goes where messages go now.
        configuration.environment = hostEnvironment()
        service.environment = configuration.environment

        let request = UNNotificationRequest(
            identifier: Path.stem(path), content: UNNotificationContent(content), trigger: UNPushNotificationTrigger())
        service.payloadDirectory = Path.directory(of: path)
        let status = await present(
            request, mutable: payload.mutableContent, service: service, app: app, registry: registry, engine: engine,
            configuration: configuration, keys: keys, jsonl: jsonl, mode: mode)
        await engine.shutdown()
        if status != 0 { throw CommandExit(status: status) }
    }

    /// `--NAME SECONDS` as a duration, if given.
    static func seconds(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> Duration? {
        guard let text = arguments.value(name) else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds <= 3_600 else {
            throw UsageError("--\(name) must be a number of seconds, not '\(TerminalText.clean(text))'")
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// Runs the service extension stage (when the payload asks for it), then presents.
    @MainActor
    static func present(
        _ request: UNNotificationRequest, mutable: Bool, service: ServiceExtensionStage.Configuration,
        app: AppDefinition, registry: ExtensionRegistry, engine: MPVEngine,
        configuration: PresentationSession.Configuration, keys: [HeadlessKey], jsonl: Bool, mode: Mode
    ) async -> Int32 {
        let log = EventLog()
        let print: @MainActor (EventLine) -> Void = { line in _ = try? FileDescriptor.standardOutput.writeAll(((jsonl ? line.json : readable(line)) + "\n").utf8) }
        if mode == .headless { log.observe(print) }
        let request = await ServiceExtensionStage.run(
            request: request, payloadIsMutable: mutable, registry: registry, types: types, log: log, configuration: service)
        let notification = UNNotification(request: request, date: .now)
        let session = PresentationSession(
            app: app, registry: registry, types: types, engine: engine, log: log, configuration: configuration)
        defer { session.close() }
        do {
            try session.present(notification)
        } catch {
            Diagnostics.shared.report(error.description)
            return ExitStatus.of(error.kind)
        }
        switch mode {
        case .headless:
            break
        case .plain:
            // Not a terminal: the card once as plain text, then the events as lines.
            let width = TerminalSize.current(fd: 1)?.columns ?? 80
            _ = try? FileDescriptor.standardOutput.writeAll((FrameRenderer.plainText(CardLayout.render(session.card(), width: width), glyphs: GlyphSet.detect(environment: processEnvironment)) + "\n").utf8)
            for line in log.events { print(line) }
            log.observe(print)
        case .terminal:
            return await TerminalCard.run(session, keys: keys)
        }
        await HeadlessKey.run(keys, on: session)
        if session.awaitsResponse {
            _ = await log.next(timeout: configuration.responseTimeLimit + .seconds(1)) { $0.name == "response" }
        }
        await session.settle()
        return 0
    }

    /// `t  event  key=value …` for people.
    static func readable(_ line: EventLine) -> String {
        var text = String(format3(line.t)) + "  " + line.name
        for (key, value) in line.fields {
            let shown: String =
                switch value {
                case .string(let s): TerminalText.clean(s)
                case .number(let d): String(format3(d))
                case .integer(let i): String(i)
                case .bool(let b): b ? "true" : "false"
                case .null: "null"
                }
            text += "  \(key)=\(shown)"
        }
        return text
    }

    static func format3(_ value: Double) -> String {
        let ms = Int((value * 1000).rounded())
        let frac = ms % 1000
        return "\(ms / 1000).\(frac < 10 ? "00" : frac < 100 ? "0" : "")\(frac)"
    }
}

/// How `deliver` presents.
enum Mode {
    /// `--headless`: no card, events out.
    case headless
    /// Output is not a terminal: the card once as text, then events.
    case plain
    /// The card in the terminal, keys from the keyboard.
    case terminal
}

/// One step of `--keys`.
enum HeadlessKey: Equatable {
    case input(PresentationSession.Input)
    case quit
    case wait(Duration)
    case waitForEnd

    /// Parses `"space ~end q"`. Spaces, tabs and commas separate keys; a value made only of spaces
    /// (`--keys " "`, a space typed as itself) presses the media button once for each.
    static func parse(_ text: String) throws(UsageError) -> [HeadlessKey] {
        if !text.isEmpty && text.allSatisfy({ $0 == " " }) {
            return Array(repeating: .input(.media), count: text.count)
        }
        var keys: [HeadlessKey] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
            switch token {
            case "space", "p": keys.append(.input(.media))
            case "enter", "return": keys.append(.input(.defaultAction))
            case "esc", "escape", "d": keys.append(.input(.dismiss))
            case "q": keys.append(.quit)
            case "tap": keys.append(.input(.tapContent))
            case "left", "←": keys.append(.input(.seekBy(-TerminalCard.seekStep)))
            case "right", "→": keys.append(.input(.seekBy(TerminalCard.seekStep)))
            case "~end": keys.append(.waitForEnd)
            default:
                if token.count == 1, let digit = Int(token), (1...9).contains(digit) {
                    keys.append(.input(.action(digit)))
                } else if token.hasPrefix("~"), let duration = parseDuration(token.dropFirst()) {
                    keys.append(.wait(duration))
                } else {
                    throw UsageError(
                        "--keys: unknown key '\(TerminalText.clean(String(token)))' (space, p, 1-9, enter, esc, d, q, tap, left, right, ~500ms, ~1.5s, ~end)")
                }
            }
        }
        return keys
    }

    /// `500ms`, `1.5s` or a bare number of seconds.
    static func parseDuration(_ text: Substring) -> Duration? {
        var number = text
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 3_600 else { return nil }
        return .milliseconds(Int((value * scale * 1000).rounded()))
    }

    /// Feeds `keys` to `session`, in order.
    @MainActor
    static func run(_ keys: [HeadlessKey], on session: PresentationSession) async {
        for key in keys {
            switch key {
            case .input(let input):
                session.handle(input)
                await Task.yield()
            case .quit:
                return
            case .wait(let duration):
                try? await Task.sleep(for: duration)
            case .waitForEnd:
                guard session.isPlaying, !session.isDismissed else { continue }
                _ = await session.log.next(timeout: .seconds(600)) { line in
                    (line.name == "playback" && ["ended", "stopped", "error"].contains(line.string("state") ?? ""))
                        || line.name == "mediaPlayingPaused" || line.name == "dismissed"
                }
            }
        }
    }
}
