import NotiplayCore

/// Reads the tokens of one line into a step.
struct StepReader {
    let tokens: [ScriptToken]
    let line: Int
    let path: String
    let folder: String
    /// The next token to read.
    var index = 1
    /// The form of the step being read, shown after a missing or extra argument.
    var usage = ""

    init(tokens: [ScriptToken], line: Int, path: String, folder: String) {
        self.tokens = tokens
        self.line = line
        self.path = path
        self.folder = folder
    }

    func error(_ column: Int, _ message: String) -> ScriptError {
        ScriptError(path: path, line: line, column: column, message: message)
    }

    func peek() -> ScriptToken? { index < tokens.count ? tokens[index] : nil }

    /// The next token; its absence is an error just past the last token.
    mutating func next(_ what: String) throws(ScriptError) -> ScriptToken {
        guard index < tokens.count else {
            throw error(tokens.last?.end ?? 1, "missing \(what); usage: \(usage)")
        }
        index += 1
        return tokens[index - 1]
    }

    /// Ends the step: any token left is an error.
    func finish() throws(ScriptError) {
        if let extra = peek() {
            throw error(extra.column, "extra argument \(ScriptText.quoted(extra.text)); usage: \(usage)")
        }
    }

    /// The next token, which may not be empty.
    mutating func nonEmpty(_ what: String) throws(ScriptError) -> String {
        let token = try next(what)
        guard !token.text.isEmpty else { throw error(token.column, "empty \(what); usage: \(usage)") }
        return token.text
    }

    /// The next token as a path, made absolute against the script's folder.
    mutating func path(_ what: String) throws(ScriptError) -> String {
        ScriptPath.resolve(try nonEmpty(what), in: folder)
    }

    mutating func duration(_ what: String) throws(ScriptError) -> Duration {
        try durationValue(try next(what))
    }

    /// `token` as a duration within `range`.
    func durationValue(_ token: ScriptToken, range: DurationRange = .card) throws(ScriptError) -> Duration {
        switch ScriptValues.duration(token.text, longest: range.longest) {
        case .value(let duration):
            return duration
        case .malformed:
            throw error(token.column, "bad duration \(ScriptText.quoted(token.text)); write \(range.examples)")
        case .negative:
            throw error(token.column, "a duration cannot be negative; found \(ScriptText.quoted(token.text))")
        case .tooLong:
            throw error(
                token.column, "duration \(ScriptText.quoted(token.text)) is longer than the limit of \(range.longestText)")
        }
    }

    /// The next token as an event name.
    mutating func event() throws(ScriptError) -> String {
        let token = try next("EVENT")
        guard ScriptParser.eventNames.contains(token.text) else {
            throw error(
                token.column,
                "unknown event \(ScriptText.quoted(token.text)); known events: "
                    + ScriptParser.eventNames.joined(separator: ", "))
        }
        return token.text
    }

    /// The next token as one of the raw values of `T`.
    mutating func choice<T: RawRepresentable>(_ values: [T]) throws(ScriptError) -> T where T.RawValue == String {
        let names = values.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        let token = try next(list)
        guard !token.quoted, let value = values.first(where: { $0.rawValue == token.text }) else {
            throw error(token.column, "expected \(list); found \(ScriptText.quoted(token.text))")
        }
        return value
    }

    /// The next token, which must be the bare word `word`.
    mutating func keyword(_ word: String) throws(ScriptError) {
        let token = try next(word)
        guard token.isWord(word) else {
            throw error(token.column, "expected \(word); found \(ScriptText.quoted(token.text)); usage: \(usage)")
        }
    }

    mutating func step() throws(ScriptError) -> ScriptStep.Kind {
        let name = tokens[0]
        let steps = "steps: " + ScriptParser.stepNames.joined(separator: ", ")
        guard !name.quoted else {
            throw error(name.column, "a step starts with its name, not a string; \(steps)")
        }
        switch name.text {
        case "app":
            usage = "app PATH"
            let file = try path("PATH")
            try finish()
            return .app(path: file)
        case "extensions":
            usage = "extensions DIR"
            let directory = try path("DIR")
            try finish()
            return .extensions(directory: directory)
        case "deliver":
            usage = "deliver PAYLOAD [attach FILE]..."
            let payload = try path("PAYLOAD")
            var attachments: [String] = []
            while let token = peek(), token.isWord("attach") {
                index += 1
                attachments.append(try path("FILE after attach"))
            }
            try finish()
            return .deliver(payload: payload, attachments: attachments)
        case "press":
            usage = "press media|play|pause|tab|shift-tab|enter"
            let press = try choice([ScriptStep.Press.media, .play, .pause, .tab, .shiftTab, .enter])
            try finish()
            return .press(press)
        case "click":
            return try click()
        case "tap":
            usage = "tap content"
            try keyword("content")
            try finish()
            return .tapContent
        case "action":
            usage = "action ID [text \"REPLY\"]"
            let identifier = try nonEmpty("ID")
            var text: String?
            if let token = peek(), token.isWord("text") {
                index += 1
                text = try next("REPLY after text").text
            }
            try finish()
            return .action(identifier: identifier, text: text)
        case "default":
            usage = "default"
            try finish()
            return .defaultAction
        case "dismiss":
            usage = "dismiss"
            try finish()
            return .dismiss
        case "wait":
            return try wait()
        case "seek":
            usage = "seek DURATION"
            let position = try duration("DURATION")
            try finish()
            return .seek(position)
        case "resize":
            usage = "resize COLSxROWS"
            let size = try resize()
            try finish()
            return .resize(columns: size.columns, rows: size.rows)
        case "expect":
            return try expectation()
        case "serve":
            return try serve()
        case "send":
            return try send()
        case "advance":
            return try advance()
        case "restart":
            return try restart()
        case "focus":
            return try focus()
        default:
            throw error(name.column, "unknown step \(ScriptText.quoted(name.text)); \(steps)")
        }
    }

    mutating func wait() throws(ScriptError) -> ScriptStep.Kind {
        usage = "wait DURATION | wait until EVENT [timeout DURATION] | wait end"
        let token = try next("DURATION, until EVENT or end")
        if token.isWord("until") {
            usage = "wait until EVENT [timeout DURATION]"
            let event = try event()
            var timeout: Duration?
            if let token = peek(), token.isWord("timeout") {
                index += 1
                timeout = try duration("DURATION after timeout")
            }
            try finish()
            return .waitUntil(event: event, timeout: timeout)
        }
        if token.isWord("end") {
            usage = "wait end"
            try finish()
            return .waitEnd
        }
        let duration = try durationValue(token)
        usage = "wait DURATION"
        try finish()
        return .wait(duration)
    }

    mutating func click() throws(ScriptError) -> ScriptStep.Kind {
        usage = "click COL,ROW | click media | click close | click action ID | click button \"TITLE\""
        let token = try next("COL,ROW, media, close, action ID or button \"TITLE\"")
        let click: ScriptStep.Click
        if token.isWord("media") {
            click = .media
        } else if token.isWord("close") {
            click = .close
        } else if token.isWord("action") {
            click = .action(try nonEmpty("ID after action"))
        } else if token.isWord("button") {
            click = .button(try nonEmpty("TITLE after button"))
        } else if !token.quoted, let cell = ScriptValues.cell(token.text) {
            click = .cell(column: cell.column, row: cell.row)
        } else {
            throw error(
                token.column,
                "expected COL,ROW (from 1, like 12,3), media, close, action ID or button \"TITLE\"; found \(ScriptText.quoted(token.text))")
        }
        try finish()
        return .click(click)
    }

    mutating func resize() throws(ScriptError) -> (columns: Int, rows: Int) {
        let token = try next("COLSxROWS")
        guard let size = ScriptValues.size(token.text) else {
            throw error(token.column, "bad size \(ScriptText.quoted(token.text)); write COLSxROWS, like 60x12")
        }
        let start = token.quoted ? token.column + 1 : token.column
        guard (10...500).contains(size.columns) else {
            throw error(start, "columns must be 10…500; found \(ScriptText.quoted(size.columnsText))")
        }
        guard (3...200).contains(size.rows) else {
            throw error(start + size.rowsOffset, "rows must be 3…200; found \(ScriptText.quoted(size.rowsText))")
        }
        return (size.columns, size.rows)
    }
}

/// The durations a step may name: the longest, and how messages write them.
struct DurationRange {
    /// The longest duration allowed.
    let longest: Duration
    /// The limit as messages name it.
    let longestText: String
    /// How a bad duration's message says to write one.
    let examples: String

    /// The card steps' (`wait`, `seek`, `expect heard`…): up to an hour of real time.
    static let card = DurationRange(
        longest: ScriptValues.longestDuration, longestText: "1 hour", examples: "250ms, 1.5s or a number of seconds")
    /// The center's (`advance`, `send … after`, `restart after`): up to 3650 days of virtual time.
    static let center = DurationRange(
        longest: .seconds(PendingSchedule.horizon), longestText: "3650 days", examples: "30s, 15m, 2h, 7d or a number of seconds")
}
