/// Reading `expect …` steps, and the counts and lists they take.
extension StepReader {
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
                count = try self.count("N after count")
            }
            try finish()
            return .expectEvent(name: name, count: count)
        case "no":
            usage = "expect no event NAME | expect no sound"
            let token = try next("event or sound")
            if token.isWord("sound") {
                usage = "expect no sound"
                try finish()
                return .expectNoSound
            }
            guard token.isWord("event") else {
                throw error(token.column, "expected event or sound; found \(ScriptText.quoted(token.text)); usage: \(usage)")
            }
            usage = "expect no event NAME"
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
        case "pending", "delivered", "not", "sound":
            return try centerExpectation(what.text)
        default:
            throw error(what.column, "unknown expectation \(ScriptText.quoted(what.text)); \(known)")
        }
    }

    /// The next token as a count; `what` names it when it is missing.
    mutating func count(_ what: String) throws(ScriptError) -> Int {
        let token = try next(what)
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
