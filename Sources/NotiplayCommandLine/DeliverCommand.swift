import ArgumentParser
import Logging
import NotiplayCore
import Notiplay
import NotiplayPlayback
import NotiplayTerminal
import NotiplayViews
import NotiplaySystem
import SystemPackage

#if canImport(FoundationEssentials)
import struct FoundationEssentials.Date
#else
import struct Foundation.Date
#endif

/// `notiplay deliver`: presents a notification with its content extension.
struct DeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliver",
        abstract: "Present a notification with its content extension (headless: keys in, events out).",
        discussion: """
            --headless presents with no terminal, feeds --keys as if typed and prints every \
            event. Keys: space or p (media button), 1-9 (actions), tab and shift-tab (move the \
            focus: the extension's buttons when its Info.plist enables user interaction, then \
            the actions), enter (the focused button, else the default action), esc or d \
            (dismiss), tap (touch the content), left and right (5 s back or on), q (quit), \
            click:COL:ROW (a click on the card's cell, from 1), click:media, click:close, \
            ~500ms or ~1.5s (wait), ~end (wait for the end of the audio).

            Without --headless, in a terminal: the card, drawn and redrawn, keys from the \
            keyboard and clicks from the mouse. When standard output is not a terminal: the \
            card once as text, then the events.

            What an extension prints (standard output and error) becomes log events among the \
            others, cleaned; on the terminal card it is written to standard error once the \
            card is gone.
            """)

    @Argument(help: "An APNs payload file (.apns or JSON).", completion: .file(extensions: ["apns", "json"]))
    var payload: String

    @Option(help: ArgumentHelp("Attach a local file (audio or image); repeatable.", valueName: "file"), completion: .file())
    var attach: [String] = []

    @Option(
        help: ArgumentHelp("The app file (name, categories, actions, extensions).", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var app: String?

    @Option(
        help: ArgumentHelp("A folder of Name.appex bundles (default: the app file's).", valueName: "dir"),
        completion: .directory)
    var extensions: String?

    @Flag(help: "No terminal: feed --keys, print events.")
    var headless = false

    @Option(
        help: ArgumentHelp("Keys to feed, separated by spaces (see above).", valueName: "keys"),
        transform: { text throws(KeyScript.UnknownKey) in try KeyScript(parsing: text) })
    var keys: KeyScript?

    @Option(help: ArgumentHelp("Print events as JSON lines (default: readable lines).", valueName: "format"))
    var events: EventFormat?

    @OptionGroup var output: OutputOptions

    @OptionGroup var media: MediaRootOptions

    @Flag(help: "Accept payloads above APNs' 4096 bytes.")
    var noPayloadLimit = false

    @Option(seconds: "Time an extension has to answer an action (default 10).")
    var responseTimeout: Duration?

    @Option(seconds: "Time a service extension has to change the content (default 30).")
    var serviceTimeout: Duration?

    func run() async throws {
        let mode: Mode = headless ? .headless : (Posix.isTerminal(.standardInput) && Posix.isTerminal(.standardOutput)) ? .terminal : .plain
        var configuration = PresentationSession.Configuration()
        if let responseTimeout { configuration.responseTimeLimit = responseTimeout }
        var service = ServiceExtensionStage.Configuration()
        if let serviceTimeout { service.timeLimit = serviceTimeout }

        // Everything is read and checked before anything is presented.
        let mediaFolders = try media.folders()
        let delivery: NotificationDelivery
        do {
            delivery = try NotificationDelivery(
                file: payload, sizeLimit: noPayloadLimit ? nil : PayloadDecoder.apnsLimit, date: .now,
                attachments: .files(attach))
        } catch {
            if case .payloadFile(let invalid) = error { throw invalid.withCommandLineHints.notiplayError }
            throw error.notiplayError
        }
        var app = AppDefinition.standard
        if let appFile = self.app {
            do { app = try AppDefinition.decodeFile(appFile) } catch { throw error.notiplayError }
        }
        var registry = ExtensionRegistry.empty
        if let folder = extensions ?? app.extensionsDirectory {
            do {
                registry = try ExtensionRegistry.load(folder: folder)
                try NotiplayCLI.types.check(registry)
            } catch {
                for failure in error.failures.dropLast() { Diagnostics.shared.report(failure.description) }
                throw error.failures.last?.notiplayError ?? NotiplayError(.badData, file: folder, "cannot be loaded")
            }
        } else if let warning = Self.unusedTypesWarning(
            NotiplayCLI.types, samples: NotiplayCLI.sampleTypeNames,
            category: delivery.notification.request.content.categoryIdentifier)
        {
            Diagnostics.shared.report(warning)
        }
        // From here on extensions run: what they print becomes log events (or waits for the
        // terminal card to be gone), never a line in the middle of the command's own output.
        let clock = EventClock()
        let render = Self.render(jsonl: events == .jsonl)
        let capture = OutputCapture.start(
            mode == .terminal ? .collect : .events(clock: clock, render: render), redirect: NotiplayCLI.ownsProcess)
        let engine = try output.audio.startEngine(untimed: output.untimed)
        // After the engine: the app command's output goes where messages go now.
        configuration.environment = hostEnvironment(mediaFolders: mediaFolders)
        if mode != .headless, let columns = TerminalSize.current(fd: 1, environment: processEnvironment)?.columns {
            configuration.cardColumns = columns
        }
        service.environment = configuration.environment

        let status = await Self.present(
            delivery, service: service, app: app, registry: registry, engine: engine,
            configuration: configuration, keys: keys ?? KeyScript(), clock: clock, capture: capture, mode: mode)
        await engine.shutdown()
        if status != 0 { throw ExitCode(status) }
        if let failure = engine.captureFailure {
            // A `--audio pcm:` capture lost audio (its `playback` `error` event said so).
            throw NotiplayError(.unavailable, failure.message)
        }
    }

    /// Runs the service extension stage (when the payload asks for it, or the app's service
    /// extension is skipped), then presents, dated after the stage. Events (timed by `clock`) and
    /// what the extensions print go through `capture`.
    @MainActor
    static func present(
        _ delivery: NotificationDelivery, service: ServiceExtensionStage.Configuration,
        app: AppDefinition, registry: ExtensionRegistry, engine: MPVEngine,
        configuration: PresentationSession.Configuration, keys: KeyScript, clock: EventClock, capture: OutputCapture,
        mode: Mode
    ) async -> Int32 {
        let log = EventLog(clock: clock)
        if mode != .terminal {
            // Not a terminal: the card once as plain text first, the events (held until then) after.
            if mode == .plain { capture.hold() }
            log.observe { capture.emit($0.line) }
        }
        defer { capture.release() }
        let delivery = await delivery.runningServiceStage(
            registry: registry, types: NotiplayCLI.types, log: log, configuration: service, reportingSkip: true)
        let session: PresentationSession
        do {
            session = try delivery.dated(.now).present(
                app: app, registry: registry, types: NotiplayCLI.types, engine: engine, log: log,
                configuration: configuration)
        } catch {
            Diagnostics.shared.report(error.description)
            return ExitStatus.of(error.kind)
        }
        defer { session.close() }
        let driver: any CardDriver
        switch mode {
        case .headless:
            driver = HeadlessCardDriver()
        case .plain:
            // Not a terminal: the card once as plain text, then the events as lines.
            let environment = processEnvironment
            let width = TerminalSize.current(fd: capture.standardOutput.rawValue, environment: environment)?.columns ?? 80
            driver = PlainTextCardDriver(
                width: width, glyphs: GlyphSet.detect(environment: environment), write: { capture.write($0) },
                shown: { capture.release() })
        case .terminal:
            driver = TerminalCardDriver(output: capture.standardOutput.rawValue, environment: processEnvironment)
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

    /// How event lines are written: compact JSON, or ``readable(_:)``.
    static func render(jsonl: Bool) -> @Sendable (EventLine) -> String {
        if jsonl {
            return { line in line.json }
        }
        return { line in readable(line) }
    }

    /// What to say when an author's tool presents with the default card because no extension
    /// folder was given (so nothing maps a category to a registered type), or `nil` when only
    /// the built-in types (and notiplay's `samples`) are registered.
    static func unusedTypesWarning(_ types: ExtensionTypes, samples: Set<String>, category: String) -> String? {
        let content = types.names.filter { $0 != DefaultContentExtension.typeName && !samples.contains($0) }
        let services = types.serviceNames.filter { $0 != MediaAttachmentService.typeName && !samples.contains($0) }
        let unused = content + services
        guard !unused.isEmpty else { return nil }
        let category = category.isEmpty ? "no category" : "category \"\(TerminalText.clean(category))\""
        let named = unused.count == 1 ? "type \(unused[0]) goes" : "types \(unused.joined(separator: ", ")) go"
        let why = "no extension folder was given (--extensions DIR, or an app file naming one with \"extensions\")"
        let how = "an extension's Info.plist in that folder maps its categories (UNNotificationExtensionCategory) to a type (NSExtensionPrincipalClass)"
        return "warning: \(why), so the default card presents this notification (\(category)) and the registered \(named) unused: \(how)"
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
