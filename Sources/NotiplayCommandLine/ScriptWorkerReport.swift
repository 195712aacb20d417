internal import FoundationEssentials
import NotiplayCore
import NotiplaySystem
import NotiplayTesting

/// What the parent learns of a script from its worker (``ScriptWorker``): the frames it read, the
/// lines about a fatal error the worker wrote to standard error, and how the process ended; and
/// from them, the script's result.
struct ScriptWorkerReport: Sendable {
    /// The step the script was at: its line and column (0, 0 before the first).
    var step = (line: 0, column: 0)
    /// The last events, as JSON lines (at most ``eventsKept``).
    var events: [String] = []
    /// The extensions that presented, in order, each once (the appex names; the default card is
    /// `DefaultContentExtension`).
    var extensions: [String] = []
    /// Whether the steps are over (the card is being closed, or the worker drains its main queue).
    var stepsOver = false
    /// The result frame; `nil` while the script has not ended.
    var result: ScriptWorkerFrame.Outcome?
    /// The last lines of standard error that tell of a fatal error (Swift's `Fatal error: …`).
    var fatalLines: [String] = []
    /// Standard error's line not ended yet.
    private var errorLine: [UInt8] = []

    /// How many events a crash report shows.
    static let eventsKept = 10

    /// Takes `frame` in.
    mutating func take(_ frame: ScriptWorkerFrame) {
        switch frame {
        case .step(let line, let column):
            step = (line, column)
        case .event(let json):
            events.append(json)
            if events.count > Self.eventsKept { events.removeFirst(events.count - Self.eventsKept) }
            if let name = Self.presenting(json), !extensions.contains(name) { extensions.append(name) }
        case .ended:
            stepsOver = true
        case .result(let outcome):
            result = outcome
        case .request:
            break
        }
    }

    /// Takes in bytes the worker wrote to its standard error, keeping the lines of a fatal error.
    mutating func takeError(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                if errorLine.count < 4096 { errorLine.append(byte) }
                continue
            }
            let line = TerminalText.clean(String(decoding: errorLine, as: UTF8.self))
            errorLine.removeAll(keepingCapacity: true)
            if line.contains("Fatal error") || line.contains("fatal error") {
                fatalLines.append(line)
                if fatalLines.count > 3 { fatalLines.removeFirst() }
            }
        }
    }

    /// The extension a `didReceive` event line names; `nil` for another event.
    static func presenting(_ json: String) -> String? {
        struct Head: Decodable {
            var event: String
            var `extension`: String?
        }
        guard let head = try? JSONDecoder().decode(Head.self, from: Data(json.utf8)), head.event == "didReceive" else { return nil }
        return head.extension
    }

    /// How the script at `path` went, once its worker ended as `end` (`nil`: it could not be
    /// waited for) after `seconds`; `killed`: the parent killed it, past its time limit.
    func result(path: String, end: Posix.ChildEnd?, seconds: Double, killed: Duration? = nil) -> ScriptResult {
        var failure: ScriptResult.Failure?
        if let killed {
            failure = crash("timed out after \(killed.components.seconds) s at this step; its worker no longer answered and was killed")
        } else if let result {
            failure = result.failure?.failure
            if let ending = Self.abnormal(end) {
                // Its steps ran; the crash came after (while its card was closed, or at exit).
                let after = "\(ending) after its last step\(presentingText)\(fatalText)"
                if var failed = failure {
                    failed.message += "; then \(after)"
                    failure = failed
                } else {
                    failure = crash(after)
                }
            }
        } else {
            let ending = Self.abnormal(end) ?? "its worker ended without a result"
            // Past the last step: while its card was closed, or in what the extension queued then.
            let when = stepsOver ? "after its last step" : "at this step"
            failure = crash("\(ending) \(when)\(presentingText)\(fatalText)")
        }
        return ScriptResult(path: path, failure: failure, seconds: seconds)
    }

    private func crash(_ message: String) -> ScriptResult.Failure {
        ScriptResult.Failure(line: step.line, column: step.column, message: message, lastEvents: events)
    }

    private var presentingText: String {
        let authored = extensions.filter { $0 != DefaultContentExtension.typeName }
        if authored.isEmpty { return extensions.isEmpty ? "" : ", presenting the default card" }
        return ", presenting " + authored.joined(separator: " and ")
    }

    private var fatalText: String {
        fatalLines.isEmpty ? "" : ": " + fatalLines.joined(separator: " | ")
    }

    /// How an end that is not a clean exit reads: `crashed (SIGILL: a Swift runtime trap)`,
    /// `exited with status 3`; `nil` for status 0.
    static func abnormal(_ end: Posix.ChildEnd?) -> String? {
        switch end {
        case nil: "its worker could not be waited for"
        case .exited(0): nil
        case .exited(let status): "its worker exited with status \(status)"
        case .signaled(let signal): "crashed (\(Posix.signalName(signal))\(meaning(signal)))"
        }
    }

    /// What a signal usually means in an extension.
    static func meaning(_ signal: Int32) -> String {
        switch signal {
        case SignalNumber.illegalInstruction, SignalNumber.trap:
            ": a Swift runtime trap — fatalError, a force-unwrapped nil, an index out of range"
        case SignalNumber.abort: ": abort() — a Swift runtime error such as an unowned reference to a freed object, or a C assertion"
        case SignalNumber.segmentationFault, SignalNumber.busError: ": a bad memory access"
        default: ""
        }
    }
}
