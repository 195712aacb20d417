import Subprocess
import SystemPackage

/// How the runtime starts a program (`curl` for a download, the app's command for a forwarded
/// action) with swift-subprocess: never through a shell, standard input from `/dev/null`, no
/// descriptor of ours but those given for its output, every signal at its default, the environment
/// it is given and nothing else, and a process group of its own, so that a Ctrl-C meant for
/// notiplay's terminal stays notiplay's and a stop reaches whatever the program started.
enum ChildProgram {
    /// `program` as swift-subprocess runs it: a path when it holds a `/`, else a name looked up on
    /// the `PATH` of the environment it runs in.
    static func executable(_ program: String) -> Executable {
        program.contains("/") ? .path(FilePath(program)) : .name(program)
    }

    /// `variables` as the program's whole environment. An environment string ends at its first
    /// NUL, and text from a payload may hold one: a NUL in a value becomes U+FFFD.
    static func environment(_ variables: [String: String]) -> Environment {
        var custom: [Environment.Key: String] = [:]
        for (name, value) in variables {
            guard let key = Environment.Key(rawValue: name) else { continue }
            custom[key] = value.replacing("\0", with: "\u{FFFD}")
        }
        return .custom(custom)
    }

    /// A process group of its own (`setpgid(0, 0)`); when the running task is cancelled,
    /// `teardown`, then SIGKILL to the group.
    static func options(teardown: [TeardownStep]) -> PlatformOptions {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = teardown
        return options
    }

    /// `exit status N` or `signal N`.
    static func describe(_ status: TerminationStatus) -> String {
        switch status {
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }

    /// Why `program` could not be run, in words: `NAME is not on PATH`, or the system's reason.
    static func reason(_ error: any Error, program: String) -> String {
        guard let failure = error as? SubprocessError else { return "\(error)" }
        if failure.code == .executableNotFound && !program.contains("/") { return "\(program) is not on PATH" }
        if let underlying = failure.underlyingError { return underlying.description }
        return "\(failure)"
    }
}
