/// A parsed `.playback` script (SPEC §6): its steps in order.
public struct PlaybackScript: Sendable, Equatable {
    /// The script's path as given.
    public var path: String
    /// The steps, in order.
    public var steps: [ScriptStep]

    /// A script at `path` with `steps`.
    public init(path: String, steps: [ScriptStep]) {
        self.path = path
        self.steps = steps
    }
}

/// One step of a script, with where it was written.
public struct ScriptStep: Sendable, Equatable {
    /// The line, from 1.
    public var line: Int
    /// The column of the step's first token, from 1.
    public var column: Int
    /// What the step does.
    public var kind: Kind

    /// A step of `kind` written at `line`:`column`.
    public init(line: Int, column: Int, kind: Kind) {
        self.line = line
        self.column = column
        self.kind = kind
    }

    /// What a step does. Paths are absolute, resolved against the script's folder.
    public enum Kind: Sendable, Equatable {
        /// `app PATH`.
        case app(path: String)
        /// `extensions DIR`.
        case extensions(directory: String)
        /// `deliver PAYLOAD [attach FILE]...`.
        case deliver(payload: String, attachments: [String])
        /// `press media|play|pause`.
        case press(Press)
        /// `tap content`.
        case tapContent
        /// `action ID [text "reply"]`.
        case action(identifier: String, text: String?)
        /// `default`.
        case defaultAction
        /// `dismiss`.
        case dismiss
        /// `wait DURATION`.
        case wait(Duration)
        /// `wait until EVENT [timeout DURATION]`.
        case waitUntil(event: String, timeout: Duration?)
        /// `wait end`.
        case waitEnd
        /// `seek DURATION`: to this position.
        case seek(Duration)
        /// `resize COLSxROWS`.
        case resize(columns: Int, rows: Int)
        /// `expect event NAME [count N]`.
        case expectEvent(name: String, count: Int?)
        /// `expect no event NAME`.
        case expectNoEvent(name: String)
        /// `expect button none|play|pause|hidden`.
        case expectButton(Button)
        /// `expect response doNotDismiss|dismiss|dismissAndForwardAction`.
        case expectResponse(Response)
        /// `expect forwarded ACTION_ID`.
        case expectForwarded(action: String)
        /// `expect dismissed`.
        case expectDismissed
        /// `expect actions ID[,ID...]`.
        case expectActions([String])
        /// `expect extension NAME`.
        case expectExtension(String)
        /// `expect screen contains "TEXT"` / `expect screen lacks "TEXT"`.
        case expectScreen(contains: Bool, text: String)
        /// `expect position >= DURATION`.
        case expectPosition(atLeast: Duration)
        /// `expect heard >= DURATION` / `expect heard <= DURATION`.
        case expectHeard(Comparison, Duration)
        /// `expect error "TEXT"`.
        case expectError(String)
    }

    /// What `press` presses.
    public enum Press: String, Sendable {
        /// The media button, whatever it shows.
        case media
        /// The media button, which must show ▶.
        case play
        /// The media button, which must show ⏸.
        case pause
    }

    /// A media button state.
    public enum Button: String, Sendable {
        case none, play, pause, hidden
    }

    /// A response option.
    public enum Response: String, Sendable {
        case doNotDismiss, dismiss, dismissAndForwardAction
    }

    /// How `expect heard` compares.
    public enum Comparison: String, Sendable {
        /// `>=`.
        case atLeast = ">="
        /// `<=`.
        case atMost = "<="
    }
}
