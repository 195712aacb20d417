internal import FoundationEssentials
import NotiplayTesting

/// One line between `test` and a worker (``ScriptWorkerCommand``): a JSON object. `test` writes
/// requests to the worker's standard input; the worker reports on descriptor 3, as it happens.
enum ScriptWorkerFrame: Codable, Equatable, Sendable {
    /// Run the script at this path (to the worker).
    case request(String)
    /// A step starts, at `line`:`column` of the script.
    case step(line: Int, column: Int)
    /// An event was recorded: its JSON line (`{"event":"didReceive",…}`).
    case event(String)
    /// The steps are over; the script's card is closed next.
    case ended
    /// The script ended: how.
    case result(Outcome)

    /// How a script ended, and whether its worker waits for another.
    struct Outcome: Codable, Equatable, Sendable {
        /// Where and why it failed; `nil` when it passed.
        var failure: Failure?
        /// Whether the worker waits for another script: no extension of the tool's ran in it
        /// (only the built-in default card), so nothing of the script's can still be pending.
        var reusable: Bool
    }

    /// ``ScriptResult/Failure``'s fields.
    struct Failure: Codable, Equatable, Sendable {
        var line: Int
        var column: Int
        var message: String
        var lastEvents: [String]
        var screen: [String]

        init(_ failure: ScriptResult.Failure) {
            line = failure.line
            column = failure.column
            message = failure.message
            lastEvents = failure.lastEvents
            screen = failure.screen
        }

        var failure: ScriptResult.Failure {
            ScriptResult.Failure(line: line, column: column, message: message, lastEvents: lastEvents, screen: screen)
        }
    }

    /// The frame as one line of JSON (no newline).
    var line: String {
        // Encoding these plain values cannot fail.
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The frame `line` holds; `nil` for a line that is none.
    init?(line: some StringProtocol) {
        guard let frame = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
        self = frame
    }
}
