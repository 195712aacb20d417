import Subprocess
import SystemPackage

/// Runs the app file's `forwardedActions.command` for a forwarded action, the way an app would
/// hear of the response.
///
/// The program runs without a shell, with the host's variables
/// (`HostEnvironment.variables`) and the response on top of them: `NOTIPLAY_ACTION`,
/// `NOTIPLAY_TEXT` (text-input actions), `NOTIPLAY_URL` (`open(_:)`), `NOTIPLAY_NOTIFICATION`,
/// `NOTIPLAY_CATEGORY`, `NOTIPLAY_THREAD`, and `NOTIPLAY_RESPONSE`, all of it as one JSON object
/// with the notification's `userInfo`. Its standard output and error go to
/// `HostEnvironment.commandOutput` (discarded when there is none), so they never mix with the
/// events on standard output.
///
/// A command still running after `PresentationSession.Configuration.commandTimeLimit` (measured
/// on the configuration's clock) is stopped: SIGTERM to its process group, then SIGKILL after
/// ``terminationGrace``. Events: `command` (`action`, `status` 0) when it succeeds; otherwise an
/// `error` event saying how it ended, that it was stopped, or why it could not be run.
@MainActor
struct AppCommandRunner {
    /// A forwarded action, as the command is told it.
    struct Response {
        /// The action's identifier (or the default or dismiss action's, or `openURL`).
        var action: String
        /// What was typed, for a text-input action.
        var text: String?
        /// The URL given to `open(_:)`.
        var url: String?
        /// The notification on the card.
        var notification: UNNotification
    }

    /// How long a stopped command has between SIGTERM and SIGKILL (real time: the stop itself has
    /// already waited the time limit on the configuration's clock).
    nonisolated static let terminationGrace = Duration.seconds(2)

    /// The program and its arguments.
    let command: [String]
    /// The time limit, its clock, and the host's variables and output descriptor.
    let configuration: PresentationSession.Configuration
    /// Where `command` and `error` events go.
    let log: EventLog

    /// Starts the command for `response`; the task ends when the command has ended (or could not
    /// start) and its event is recorded.
    func start(_ response: Response) -> Task<Void, Never> {
        var variables = configuration.environment.variables
        variables.merge(Self.variables(for: response)) { _, response in response }
        let environment = ChildProgram.environment(variables)
        let output = configuration.environment.commandOutput
        let limit = configuration.commandTimeLimit
        let clock = configuration.clock
        let program = command[0]
        let arguments = Array(command.dropFirst())
        let action = response.action
        let log = self.log
        return Task { @MainActor in
            let run = Task { await Self.run(program, arguments, environment: environment, output: output) }
            let watchdog = Task {
                try? await clock.sleep(for: limit)
                if !Task.isCancelled { run.cancel() }
            }
            let result = await run.value
            let stopped = watchdog.isCancelled == false && run.isCancelled
            watchdog.cancel()
            switch result {
            case .success(let status) where status.isSuccess:
                log.record(.command(action: action, status: 0))
            case .success(let status):
                let why = stopped ? "was stopped after \(limit)" : "ended with \(ChildProgram.describe(status))"
                log.record(.error("the app's command \(program) for \"\(action)\" \(why)"))
            case .failure(let failure):
                log.record(.error("the app's command for forwarded actions: cannot run \(program): \(failure.reason)"))
            }
        }
    }

    /// The `NOTIPLAY_*` variables for `response`, `NOTIPLAY_RESPONSE` holding all of it as JSON.
    static func variables(for response: Response) -> [String: String] {
        let notification = response.notification
        let content = notification.request.content
        var variables = [
            "NOTIPLAY_ACTION": response.action,
            "NOTIPLAY_NOTIFICATION": notification.request.identifier,
            "NOTIPLAY_CATEGORY": content.categoryIdentifier,
            "NOTIPLAY_THREAD": content.threadIdentifier,
        ]
        var json: [(String, JSONValue)] = [
            ("action", .string(response.action)), ("notification", .string(notification.request.identifier)),
            ("category", .string(content.categoryIdentifier)), ("thread", .string(content.threadIdentifier)),
        ]
        if let text = response.text {
            variables["NOTIPLAY_TEXT"] = text
            json.append(("text", .string(text)))
        }
        if let url = response.url {
            variables["NOTIPLAY_URL"] = url
            json.append(("url", .string(url)))
        }
        json.append(("userInfo", .object(content.jsonUserInfo)))
        variables["NOTIPLAY_RESPONSE"] = JSONValue.object(JSONObject(json)).jsonText
        return variables
    }

    /// Why a command could not be run.
    struct SpawnFailure: Error {
        /// In words.
        var reason: String
    }

    /// Runs `program` to its end; cancelling the calling task stops it (SIGTERM to its group,
    /// SIGKILL after ``terminationGrace``).
    nonisolated static func run(
        _ program: String, _ arguments: [String], environment: Environment, output: FileDescriptor?
    ) async -> Result<TerminationStatus, SpawnFailure> {
        let options = ChildProgram.options(teardown: [
            .send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: terminationGrace)
        ])
        do {
            let result =
                if let output {
                    try await Subprocess.run(
                        ChildProgram.executable(program), arguments: Arguments(arguments), environment: environment,
                        platformOptions: options,
                        output: .fileDescriptor(output, closeAfterSpawningProcess: false),
                        error: .fileDescriptor(output, closeAfterSpawningProcess: false)
                    ).terminationStatus
                } else {
                    try await Subprocess.run(
                        ChildProgram.executable(program), arguments: Arguments(arguments), environment: environment,
                        platformOptions: options, output: .discarded, error: .discarded
                    ).terminationStatus
                }
            return .success(result)
        } catch {
            return .failure(SpawnFailure(reason: ChildProgram.reason(error, program: program)))
        }
    }
}
