import NotiplayCore

/// `validate` for configuration files (`*.conf`): each problem as `FILE:LINE:COLUMN: message`.
enum ConfigValidation {
    /// Whether `file` is judged as a configuration file: its name ends in `.conf`.
    static func isConfig(_ file: String) -> Bool {
        file.hasSuffix(".conf")
    }

    /// What `validate` says of a configuration file.
    struct Verdict {
        /// The human lines: `FILE: valid configuration (N rules)`, or one line per problem.
        var text: String
        /// The same as one JSON object.
        var json: JSONValue
        /// Whether the file is valid.
        var valid: Bool
        /// Whether it does not exist.
        var missing: Bool
    }

    /// Reads and judges `file`.
    static func validate(_ file: String) -> Verdict {
        let shown = TerminalText.visible(file)
        do {
            let config = try CenterConfig.load(file: file)
            let rules = config.rules.count == 1 ? "1 rule" : "\(config.rules.count) rules"
            let json = JSONValue.object(JSONObject([
                ("file", .string(file)), ("kind", .string("config")), ("valid", .bool(true)),
                ("rules", .integer(Int64(config.rules.count))), ("errors", .array([])),
            ]))
            return Verdict(text: "\(shown): valid configuration (\(rules))\n", json: json, valid: true, missing: false)
        } catch {
            let errors = error.problems.map { problem in
                JSONValue.object(JSONObject([
                    ("line", problem.line.map { .integer(Int64($0)) } ?? .null),
                    ("column", problem.column.map { .integer(Int64($0)) } ?? .null), ("message", .string(problem.message)),
                ]))
            }
            let json = JSONValue.object(JSONObject([
                ("file", .string(file)), ("kind", .string("config")), ("valid", .bool(false)), ("errors", .array(errors)),
            ]))
            return Verdict(
                text: error.lines.joined(separator: "\n") + "\n", json: json, valid: false, missing: error.isMissing)
        }
    }
}
