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

    func durationValue(_ token: ScriptToken) throws(ScriptError) -> Duration {
        switch ScriptValues.duration(token.text) {
        case .value(let duration):
            return duration
        case .malformed:
            throw error(
                token.column, "bad duration \(ScriptText.quoted(token.text)); write 250ms, 1.5s or a number of seconds")
        case .negative:
            throw error(token.column, "a duration cannot be negative; found \(ScriptText.quoted(token.text))")
        case .tooLong:
            throw error(token.column, "duration \(ScriptText.quoted(token.text)) is longer than the limit of 1 hour")
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
            usage = "press media|play|pause"
            let press = try choice([ScriptStep.Press.media, .play, .pause])
            try finish()
            return .press(press)
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

    mutating func expectation() throws(ScriptError) -> ScriptStep.Kind {
        let known = "expect takes: " + ScriptParser.expectationNames.joined(separator: ", ")
        usage = "expect WHAT …; " + known
        guard index < tokens.count else {
            throw error(tokens.last?.end ?? 1, "missing what to expect; \(known)")
        }
        let what = tokens[index]
        index += 1
        switch what.quoted ? "" : what.text {
        case "event":
            usage = "expect event NAME [count N]"
            let name = try event()
            var count: Int?
            if let token = peek(), token.isWord("count") {
                index += 1
                count = try self.count()
            }
            try finish()
            return .expectEvent(name: name, count: count)
        case "no":
            usage = "expect no event NAME"
            try keyword("event")
            let name = try event()
            try finish()
            return .expectNoEvent(name: name)
        case "button":
            usage = "expect button none|play|pause|hidden"
            let button = try choice([ScriptStep.Button.none, .play, .pause, .hidden])
            try finish()
            return .expectButton(button)
        case "response":
            usage = "expect response doNotDismiss|dismiss|dismissAndForwardAction"
            let response = try choice([ScriptStep.Response.doNotDismiss, .dismiss, .dismissAndForwardAction])
            try finish()
            return .expectResponse(response)
        case "forwarded":
            usage = "expect forwarded ACTION_ID"
            let action = try nonEmpty("ACTION_ID")
            try finish()
            return .expectForwarded(action: action)
        case "dismissed":
            usage = "expect dismissed"
            try finish()
            return .expectDismissed
        case "actions":
            usage = "expect actions ID[,ID...]"
            return .expectActions(try actions())
        case "extension":
            usage = "expect extension NAME"
            let name = try nonEmpty("NAME")
            try finish()
            return .expectExtension(name)
        case "screen":
            usage = "expect screen contains|lacks \"TEXT\""
            let token = try next("contains or lacks")
            guard token.isWord("contains") || token.isWord("lacks") else {
                throw error(token.column, "expected contains or lacks; found \(ScriptText.quoted(token.text))")
            }
            let text = try nonEmpty("TEXT")
            try finish()
            return .expectScreen(contains: token.text == "contains", text: text)
        case "position":
            usage = "expect position >= DURATION"
            try keyword(">=")
            let position = try duration("DURATION")
            try finish()
            return .expectPosition(atLeast: position)
        case "heard":
            usage = "expect heard >=|<= DURATION"
            let comparison = try choice([ScriptStep.Comparison.atLeast, .atMost])
            let heard = try duration("DURATION")
            try finish()
            return .expectHeard(comparison, heard)
        case "error":
            usage = "expect error \"TEXT\""
            let text = try nonEmpty("TEXT")
            try finish()
            return .expectError(text)
        default:
            throw error(what.column, "unknown expectation \(ScriptText.quoted(what.text)); \(known)")
        }
    }

    mutating func count() throws(ScriptError) -> Int {
        let token = try next("N after count")
        switch ScriptValues.count(token.text) {
        case .value(let n):
            return n
        case .malformed:
            throw error(token.column, "bad count \(ScriptText.quoted(token.text)); expected a whole number, 0 or more")
        case .negative:
            throw error(token.column, "a count cannot be negative; found \(ScriptText.quoted(token.text))")
        case .tooLarge:
            throw error(token.column, "count \(ScriptText.quoted(token.text)) is too large")
        }
    }

    /// `a,b,c`, also written `a, b, c` or with quoted identifiers; `""` alone is the empty list.
    mutating func actions() throws(ScriptError) -> [String] {
        let first = try next("ID[,ID...]")
        if first.quoted, first.text.isEmpty, peek() == nil { return [] }
        // The identifiers and commas in order, each with its column.
        enum Piece {
            case identifier(String, column: Int)
            case comma(column: Int)
        }
        var pieces: [Piece] = []
        var token = first
        while true {
            if token.quoted {
                pieces.append(.identifier(token.text, column: token.column))
            } else {
                var current = String.UnicodeScalarView()
                var start = token.column
                for (offset, scalar) in token.text.unicodeScalars.enumerated() {
                    if scalar == "," {
                        if !current.isEmpty { pieces.append(.identifier(String(current), column: start)) }
                        pieces.append(.comma(column: token.column + offset))
                        current.removeAll()
                        start = token.column + offset + 1
                    } else {
                        current.append(scalar)
                    }
                }
                if !current.isEmpty { pieces.append(.identifier(String(current), column: start)) }
            }
            guard let following = peek() else { break }
            index += 1
            token = following
        }
        var identifiers: [String] = []
        var expectingIdentifier = true
        for piece in pieces {
            switch piece {
            case .identifier(let text, let column):
                guard expectingIdentifier else {
                    throw error(
                        column, "extra argument \(ScriptText.quoted(text)); separate action identifiers with commas")
                }
                guard !text.isEmpty else { throw error(column, "empty action identifier; usage: \(usage)") }
                identifiers.append(text)
                expectingIdentifier = false
            case .comma(let column):
                guard !expectingIdentifier else { throw error(column, "empty action identifier; usage: \(usage)") }
                expectingIdentifier = true
            }
        }
        if expectingIdentifier {
            throw error(tokens.last?.end ?? 1, "missing ID after the last comma; usage: \(usage)")
        }
        return identifiers
    }
}
