/// The rules between a script's steps, checked as they are read: at most one `serve`, never in a
/// script with `deliver`; the center's steps after `serve`, `app` and `extensions` before it; and
/// at least one `deliver` or `serve` in all.
struct StepOrder {
    /// The script's path, for errors.
    let path: String
    /// The `serve` step, once read.
    private var serve: ScriptStep?
    /// The first `deliver` step, once read.
    private var deliver: ScriptStep?

    init(path: String) {
        self.path = path
    }

    /// Takes `step`, the next one read.
    /// - Throws: A ``ScriptError`` at `step` when it may not come here.
    mutating func admit(_ step: ScriptStep) throws(ScriptError) {
        func fail(_ message: String) -> ScriptError {
            ScriptError(path: path, line: step.line, column: step.column, message: message)
        }
        switch step.kind {
        case .serve:
            if let serve { throw fail("at most one `serve` per script; the first is on line \(serve.line)") }
            if let deliver { throw fail(Self.mixed(deliver: deliver.line, serve: step.line)) }
            serve = step
        case .deliver:
            if let serve { throw fail(Self.mixed(deliver: step.line, serve: serve.line)) }
            if deliver == nil { deliver = step }
        case .app, .extensions:
            if let serve {
                let name = if case .app = step.kind { "app" } else { "extensions" }
                throw fail("`\(name)` must come before `serve` (line \(serve.line)): the center registers the apps as it starts")
            }
        default:
            if serve == nil, let name = step.kind.centerStepName {
                throw fail("`\(name)` needs the notification center: write `serve` on a line before it")
            }
        }
    }

    /// Ends the script.
    /// - Throws: A ``ScriptError`` at line 0 when nothing is delivered or served.
    func finish() throws(ScriptError) {
        guard serve != nil || deliver != nil else {
            throw ScriptError(
                path: path, line: 0, column: 0,
                message: "nothing is delivered: a script needs at least one `deliver PAYLOAD` step, or `serve`")
        }
    }

    static func mixed(deliver: Int, serve: Int) -> String {
        "`serve` and `deliver` do not mix in one script: `deliver` is on line \(deliver), `serve` on line \(serve)"
    }
}

extension ScriptStep.Kind {
    /// The name of a step that needs the center's `serve` before it (`send`, `expect pending`…);
    /// nil for the others, `serve` included.
    var centerStepName: String? {
        switch self {
        case .send: "send"
        case .advance: "advance"
        case .restart: "restart"
        case .focus: "focus"
        case .expectPending: "expect pending"
        case .expectDelivered: "expect delivered"
        case .expectNotDelivered: "expect not delivered"
        case .expectSound: "expect sound"
        case .expectNoSound: "expect no sound"
        default: nil
        }
    }
}
