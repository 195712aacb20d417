import NotiplayCore
import Logging
import Notiplay
import NotiplayPlayback
import NotiplayTerminal
import NotiplayViews
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
        let keys: KeyScript
        do { keys = try KeyScript(parsing: arguments.value("keys") ?? "") } catch {
            throw UsageError("--keys: \(error)")
        }
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
        configuration: PresentationSession.Configuration, keys: KeyScript, jsonl: Bool, mode: Mode
    ) async -> Int32 {
        let log = EventLog()
        let print: @MainActor (LoggedEvent) -> Void = { logged in
            _ = try? FileDescriptor.standardOutput.writeAll(((jsonl ? logged.line.json : readable(logged.line)) + "\n").utf8)
        }
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
        let driver: any CardDriver
        switch mode {
        case .headless:
            driver = HeadlessCardDriver()
        case .plain:
            // Not a terminal: the card once as plain text, then the events as lines.
            let environment = processEnvironment
            let width = TerminalSize.current(fd: 1, environment: environment)?.columns ?? 80
            driver = PlainTextCardDriver(
                width: width, glyphs: GlyphSet.detect(environment: environment), write: { _ = try? FileDescriptor.standardOutput.writeAll($0.utf8) },
                shown: {
                    for line in log.events { print(line) }
                    log.observe(print)
                })
        case .terminal:
            driver = TerminalCardDriver(environment: processEnvironment)
        }
        switch await driver.present(session, keys: keys) {
        case .closed: break
        case .interrupted(let signal): return 128 + signal
        case .unavailable(let message):
            Diagnostics.shared.report(message)
            return ExitStatus.unavailable
        }
        if mode == .terminal { return 0 }
        if session.awaitsResponse {
            _ = await log.next(timeout: configuration.responseTimeLimit + .seconds(1)) { logged in
                if case .response = logged.event { true } else { false }
            }
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
