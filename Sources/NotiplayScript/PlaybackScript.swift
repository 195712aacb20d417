/// A parsed `.playback` script: the steps of one test case, in order.
///
/// Scripts are written in the line-based language of the catalogue's "The script language"
/// article, and read with ``ScriptParser``. Every path in a step is absolute, resolved against the script's folder.
public struct PlaybackScript: Sendable, Equatable {
    /// The script's path as it was given to the parser (not resolved).
    public var path: String
    /// The steps, one per non-blank, non-comment line, in file order.
    public var steps: [ScriptStep]

    /// A script at `path` made of `steps`.
    public init(path: String, steps: [ScriptStep]) {
        self.path = path
        self.steps = steps
    }
}

/// One step of a ``PlaybackScript``, with where it was written.
public struct ScriptStep: Sendable, Equatable {
    /// The line of the step (from 1).
    public var line: Int
    /// The column of the step's first token (from 1, counting Unicode scalars).
    public var column: Int
    /// What the step does or checks.
    public var kind: Kind

    /// A step of `kind` written at `line`, `column`.
    public init(line: Int, column: Int, kind: Kind) {
        self.line = line
        self.column = column
        self.kind = kind
    }

    /// What a step does (the first group) or checks (the `expect…` cases).
    public enum Kind: Sendable, Equatable {
        /// `app PATH`: the app file that names the app and declares its categories (absolute path).
        case app(path: String)
        /// `extensions DIR`: the folder of `.appex` bundles to load (absolute path).
        case extensions(directory: String)
        /// `deliver PAYLOAD [attach FILE]...`: presents a notification; all paths absolute.
        case deliver(payload: String, attachments: [String])
        /// `press media|play|pause|tab|shift-tab|enter`: activates the media button (`play` and
        /// `pause` also check the glyph it shows first), or presses a key of the card's focus:
        /// Tab and Shift-Tab move it, Enter activates what it is on (the default action when it
        /// is on nothing).
        case press(Press)
        /// `click COL,ROW|media|close|action ID|button "TITLE"`: a click on the card as the
        /// virtual terminal lays it out (``resize(columns:rows:)``): on a cell, or in the middle
        /// of the media button, the ✕, an action button or one of the extension's buttons.
        case click(Click)
        /// `tap content`: activates the extension's content area.
        case tapContent
        /// `action ID [text "reply"]`: chooses an action button, with the reply of a text-input action.
        case action(identifier: String, text: String?)
        /// `default`: performs the notification's default action.
        case defaultAction
        /// `dismiss`: dismisses the card.
        case dismiss
        /// `wait DURATION`: lets the given time pass.
        case wait(Duration)
        /// `wait until EVENT [timeout DURATION]`: waits for an event, for at most the timeout if given.
        case waitUntil(event: String, timeout: Duration?)
        /// `wait end`: waits for the end of playback.
        case waitEnd
        /// `seek DURATION`: moves playback to this absolute position.
        case seek(Duration)
        /// `resize COLSxROWS`: changes the size of the virtual terminal.
        case resize(columns: Int, rows: Int)
        /// `expect event NAME [count N]`: the event happened (exactly `count` times if given).
        case expectEvent(name: String, count: Int?)
        /// `expect no event NAME`: the event never happened.
        case expectNoEvent(name: String)
        /// `expect button none|play|pause|hidden`: what the media button shows.
        case expectButton(Button)
        /// `expect response doNotDismiss|dismiss|dismissAndForwardAction`: the extension's last response.
        case expectResponse(Response)
        /// `expect forwarded ACTION_ID`: this action was forwarded to the app.
        case expectForwarded(action: String)
        /// `expect dismissed`: the card was dismissed.
        case expectDismissed
        /// `expect actions ID[,ID...]`: the action buttons on screen, in order (`expect actions ""`: none).
        case expectActions([String])
        /// `expect extension NAME`: the content extension that presents the notification.
        case expectExtension(String)
        /// `expect screen contains "TEXT"` (`contains` true) or `expect screen lacks "TEXT"` (false).
        case expectScreen(contains: Bool, text: String)
        /// `expect position >= DURATION`: the playback position is at least this.
        case expectPosition(atLeast: Duration)
        /// `expect heard >= DURATION` or `expect heard <= DURATION`: the audio actually rendered.
        case expectHeard(Comparison, Duration)
        /// `expect error "TEXT"`: an error event whose message contains the text.
        case expectError(String)

        // The notification center's steps: only in a script with `serve`, after it.

        /// `serve [at DATE]`: starts a headless notification center for the script, its virtual
        /// clock at `start` (``ScriptDate/defaultStart`` when `at` is not written), with the apps
        /// of the `app` and `extensions` steps before it.
        case serve(start: ScriptDate)
        /// `send PAYLOAD [attach FILE]... [id ID] [after DURATION [repeats] | at DATE [repeat UNIT]]`:
        /// hands a notification request to the center; all paths absolute. `identifier` is nil
        /// without `id` (the payload file's name without its extension is used), `trigger` nil
        /// without `after` or `at` (delivered at once).
        case send(payload: String, attachments: [String], identifier: String?, trigger: Trigger?)
        /// `advance DURATION`: moves the virtual clock on (more than 0); what falls due fires in
        /// date order.
        case advance(Duration)
        /// `restart [after DURATION]`: stops the center and starts it again on the same store; the
        /// clock moves on by `after` (more than 0) while it is down.
        case restart(after: Duration?)
        /// `focus on` (`on` true) or `focus off`: turns Focus on or off in the center.
        case focus(on: Bool)
        /// `expect pending N`: the center has exactly `N` pending requests.
        case expectPending(count: Int)
        /// `expect delivered ID [late] [count N]`: a notification with this identifier was
        /// delivered (with `late`: delivered late, after the center was down when it fell due),
        /// exactly `count` times if given.
        case expectDelivered(identifier: String, late: Bool, count: Int?)
        /// `expect not delivered ID`: no notification with this identifier was delivered.
        case expectNotDelivered(identifier: String)
        /// `expect sound "NAME" [queued]`: an arrival sound with this name played (`default` for
        /// the default sound); with `queued`, it waited for the card's media first.
        case expectSound(name: String, queued: Bool)
        /// `expect no sound`: no arrival sound played after the one the previous `expect sound`
        /// matched (after the start of the script when none did).
        case expectNoSound
    }

    /// What `press` activates or checks.
    public enum Press: String, Sendable {
        /// The media button, whatever it shows.
        case media
        /// The media button, which must show ▶.
        case play
        /// The media button, which must show ⏸.
        case pause
        /// Tab: the focus moves to the next button.
        case tab
        /// Shift-Tab: the focus moves to the previous button.
        case shiftTab = "shift-tab"
        /// Enter: the focused button, or the default action when none is.
        case enter
    }

    /// Where `click` clicks.
    public enum Click: Sendable, Equatable {
        /// The card's cell at `column`, `row`, from 1 as a terminal counts (`click 12,3`).
        case cell(column: Int, row: Int)
        /// The middle of the media button (`click media`).
        case media
        /// The ✕ (`click close`).
        case close
        /// The action button with this identifier (`click action ID`).
        case action(String)
        /// The extension's button with this title (`click button "TITLE"`).
        case button(String)
    }

    /// What the media button shows, for `expect button`.
    public enum Button: String, Sendable {
        /// No button (type `.none` or an empty frame).
        case none
        /// ▶: paused.
        case play
        /// ⏸: playing.
        case pause
        /// An overlay button hidden while playing.
        case hidden
    }

    /// The extension's response option, for `expect response`.
    public enum Response: String, Sendable {
        /// The card stays; the extension handled the action.
        case doNotDismiss
        /// The card closes; the extension handled the action.
        case dismiss
        /// The card closes and the action goes to the app.
        case dismissAndForwardAction
    }

    /// How `expect heard` compares the rendered audio with a duration.
    public enum Comparison: String, Sendable {
        /// `>=`
        case atLeast = ">="
        /// `<=`
        case atMost = "<="
    }
}

/// Why a script could not be read: where (line and column from 1; both 0 for the file as a
/// whole) and what is wrong.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script's path as given.
    public var path: String
    /// The line (from 1), or 0 when the error concerns the whole file.
    public var line: Int
    /// The column (from 1, counting Unicode scalars), or 0 when the error concerns the whole file.
    public var column: Int
    /// What is wrong and, where it helps, what was expected. Text taken from the script is
    /// already cleaned for the terminal.
    public var message: String

    /// An error in the script at `path`.
    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `PATH:LINE:COLUMN: message`, safe to print on a terminal.
    public var description: String {
        "\(ScriptText.visible(path)):\(line):\(column): \(message)"
    }
}
