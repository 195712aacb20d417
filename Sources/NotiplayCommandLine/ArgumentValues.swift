import ArgumentParser

// The values options take, and how each is read from its text. A value that cannot be read is a
// usage error (exit 64); ArgumentParser reports it as "The value 'X' is invalid for '--NAME
// <value>': REASON", with notiplay's reason.

/// The value of `--events`: how events are printed.
enum EventFormat: String, CaseIterable, ExpressibleByArgument {
    /// One JSON object per event and per line.
    case jsonl
}

/// `--audio` and `--untimed`, the same for `play` and `deliver`.
struct OutputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where audio goes: auto (the sound device, else the null output, said once), null (discarded in real time) or pcm:PATH (a WAV file, written as fast as it decodes).",
            valueName: "null|auto|pcm:PATH"),
        completion: .list(["auto", "null", "pcm:"]),
        transform: { text throws(UsageError) in try AudioOutputArgument(text) })
    var audio: AudioOutputArgument = .auto

    @Flag(help: "Render audio faster than real time (the null output; pcm is never paced).")
    var untimed = false
}

/// Readers of option values that are numbers with bounds.
enum ArgumentValue {
    /// A number of seconds, more than 0 and at most an hour, as a duration (to the millisecond).
    /// - Throws: A usage error saying what the value must be.
    @Sendable
    static func seconds(_ text: String) throws(UsageError) -> Duration {
        guard let seconds = Double(text), seconds > 0, seconds <= 3_600 else {
            throw UsageError("must be a number of seconds, more than 0 and at most 3600")
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// A number of jobs from 1 to 256.
    /// - Throws: A usage error saying what the value must be.
    @Sendable
    static func jobs(_ text: String) throws(UsageError) -> Int {
        guard let jobs = Int(text), (1...256).contains(jobs) else {
            throw UsageError("must be a number from 1 to 256")
        }
        return jobs
    }
}

extension Option where Value == Duration? {
    /// An option whose value is a number of seconds (``ArgumentValue/seconds(_:)``), shown as
    /// `--NAME <seconds>`, with `help` as its help.
    init(seconds help: String) {
        self.init(help: ArgumentHelp(help, valueName: "seconds"), transform: ArgumentValue.seconds)
    }
}
