/// Reading the notification center's steps: `serve`, `send`, `advance`, `restart`, `focus` and
/// the `expect` forms about the center (`pending`, `delivered`, `not delivered`, `sound`).
extension StepReader {
    /// `serve [at DATE]`.
    mutating func serve() throws(ScriptError) -> ScriptStep.Kind {
        usage = "serve [at DATE]"
        var start = ScriptDate.defaultStart
        if let token = peek(), token.isWord("at") {
            index += 1
            start = try date()
        }
        try finish()
        return .serve(start: start)
    }

    /// `send PAYLOAD [attach FILE]... [id ID] [after DURATION [repeats] | at DATE [repeat UNIT]]`.
    mutating func send() throws(ScriptError) -> ScriptStep.Kind {
        usage =
            "send PAYLOAD [attach FILE]... [id ID] [after DURATION [repeats] | at DATE [repeat hourly|daily|weekly|monthly|yearly]]"
        let payload = try path("PAYLOAD")
        var attachments: [String] = []
        while let token = peek(), token.isWord("attach") {
            index += 1
            attachments.append(try path("FILE after attach"))
        }
        var identifier: String?
        if let token = peek(), token.isWord("id") {
            index += 1
            identifier = try nonEmpty("ID after id")
        }
        var trigger: ScriptStep.Trigger?
        if let token = peek(), token.isWord("after") {
            index += 1
            trigger = try timeInterval()
        } else if let token = peek(), token.isWord("at") {
            index += 1
            trigger = try calendar()
        }
        try finish()
        return .send(payload: payload, attachments: attachments, identifier: identifier, trigger: trigger)
    }

    /// `DURATION [repeats]`, after `send … after`, refused as Apple's initializer refuses it.
    mutating func timeInterval() throws(ScriptError) -> ScriptStep.Trigger {
        let token = try next("DURATION")
        let interval = try positiveDuration(token, "time interval must be greater than 0")
        var repeats = false
        if let word = peek(), word.isWord("repeats") {
            index += 1
            repeats = true
        } else if let word = peek(), word.isWord("repeat") {
            throw error(word.column, "repeat goes with at DATE; after a duration write repeats; usage: \(usage)")
        }
        if repeats, interval < .seconds(60) {
            throw error(token.column, "time interval must be at least 60 if repeating")
        }
        return .timeInterval(interval, repeats: repeats)
    }

    /// `DATE [repeat UNIT]`, after `send … at`.
    mutating func calendar() throws(ScriptError) -> ScriptStep.Trigger {
        let date = try date()
        var recurrence: ScriptStep.Recurrence?
        if let word = peek(), word.isWord("repeat") {
            index += 1
            recurrence = try choice(ScriptStep.Recurrence.allCases)
        } else if let word = peek(), word.isWord("repeats") {
            throw error(
                word.column, "repeats goes with after DURATION; after a date write repeat hourly, daily, weekly, monthly or yearly")
        }
        return .calendar(date, repeating: recurrence)
    }

    /// `advance DURATION`.
    mutating func advance() throws(ScriptError) -> ScriptStep.Kind {
        usage = "advance DURATION"
        let token = try next("DURATION")
        let duration = try positiveDuration(
            token, "advance needs a duration greater than 0; found \(ScriptText.quoted(token.text))")
        try finish()
        return .advance(duration)
    }

    /// `restart [after DURATION]`.
    mutating func restart() throws(ScriptError) -> ScriptStep.Kind {
        usage = "restart [after DURATION]"
        var downtime: Duration?
        if let word = peek(), word.isWord("after") {
            index += 1
            let token = try next("DURATION")
            downtime = try positiveDuration(
                token, "restart after needs a duration greater than 0; found \(ScriptText.quoted(token.text))")
        }
        try finish()
        return .restart(after: downtime)
    }

    /// `focus on|off`.
    mutating func focus() throws(ScriptError) -> ScriptStep.Kind {
        usage = "focus on|off"
        let token = try next("on or off")
        guard token.isWord("on") || token.isWord("off") else {
            throw error(token.column, "expected on or off; found \(ScriptText.quoted(token.text))")
        }
        try finish()
        return .focus(on: token.text == "on")
    }

    /// What follows `expect pending`, `expect delivered`, `expect not` or `expect sound` (`what`).
    mutating func centerExpectation(_ what: String) throws(ScriptError) -> ScriptStep.Kind {
        switch what {
        case "pending":
            usage = "expect pending N"
            let count = try count("N")
            try finish()
            return .expectPending(count: count)
        case "delivered":
            usage = "expect delivered ID [late] [count N]"
            let identifier = try nonEmpty("ID")
            var late = false
            if let token = peek(), token.isWord("late") {
                index += 1
                late = true
            }
            var count: Int?
            if let token = peek(), token.isWord("count") {
                index += 1
                count = try self.count("N after count")
            }
            try finish()
            return .expectDelivered(identifier: identifier, late: late, count: count)
        case "not":
            usage = "expect not delivered ID"
            try keyword("delivered")
            let identifier = try nonEmpty("ID")
            try finish()
            return .expectNotDelivered(identifier: identifier)
        default:
            usage = "expect sound \"NAME\" [queued]"
            let name = try nonEmpty("NAME")
            var queued = false
            if let token = peek(), token.isWord("queued") {
                index += 1
                queued = true
            }
            try finish()
            return .expectSound(name: name, queued: queued)
        }
    }

    /// The next token as a date; a field out of range is an error at its first digit.
    mutating func date() throws(ScriptError) -> ScriptDate {
        let token = try next("DATE")
        switch ScriptValues.date(token.text) {
        case .value(let date):
            return date
        case .malformed:
            throw error(
                token.column,
                "bad date \(ScriptText.quoted(token.text)); write YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, like 2026-01-05T09:00")
        case .outOfRange(let rule, let found, let offset):
            let start = token.quoted ? token.column + 1 : token.column
            throw error(start + offset, "\(rule); found \(ScriptText.quoted(found))")
        }
    }

    /// `token` as a center duration (up to 3650 days) greater than 0; `message` when it is 0 or negative.
    func positiveDuration(_ token: ScriptToken, _ message: String) throws(ScriptError) -> Duration {
        if ScriptValues.duration(token.text, longest: DurationRange.center.longest) == .negative {
            throw error(token.column, message)
        }
        let duration = try durationValue(token, range: .center)
        guard duration > .zero else { throw error(token.column, message) }
        return duration
    }
}
