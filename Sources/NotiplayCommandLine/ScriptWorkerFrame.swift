internal import FoundationEssentials
import NotiplayTesting

/// One line of a script's worker report (``ScriptWorkerCommand``, read by ``ScriptWorker``): a
/// JSON object, written as it happens.
enum ScriptWorkerFrame: Codable, Equatable, Sendable {
    /// A step starts, at `line`:`column` of the script.
    case step(line: Int, column: Int)
    /// An event was recorded: its JSON line (`{"event":"didReceive",…}`).
    case event(String)
    /// The steps are over; the script's card is closed next.
    case ended
    /// The script ended: how (`nil`: it passed).
    case result(Failure?)

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
