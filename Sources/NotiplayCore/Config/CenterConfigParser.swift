// Hand-written: the file is a small INI dialect whose errors must name line and column, and no
// INI library the package may depend on reports them.

/// Reads the text of a `notiplay.conf` into a ``CenterConfig``, collecting every problem.
///
/// The grammar, one construct per line:
/// - blank lines, and lines whose first non-blank character is `#` or `;` (comments);
/// - `[name]`: a section; `[global]` holds the defaults, any other name starts a rule;
/// - `key = value`: a key of the section above it; the value is trimmed, or written in double
///   quotes (`\"` and `\\` inside) to keep spaces at its ends.
struct CenterConfigParser {
    private var problems: [CenterConfigError.Problem] = []
    private var defaults = ConfigDefaults()
    private var rules: [NotificationRule] = []
    private var sectionNames: [String: Int] = [:]

    /// The current section: `nil` before the first header.
    private var section: Section?

    private struct Section {
        var name: String
        var line: Int
        var keys: [String: Int] = [:]
        var match = RuleMatch()
        var actions = RuleActions()
        var isGlobal: Bool { name == "global" }
    }

    /// A value and where it starts.
    private struct Value {
        var text: String
        var line: Int
        var column: Int
    }

    static let globalKeys = ["expire", "expire-critical", "sounds", "volume", "sound-theme", "store", "keep-history", "keep-days"]
    static let matchKeys = ["app", "urgency", "category", "summary", "body"]
    static let actionKeys = ["sound", "volume", "autoplay", "timeout", "skip-queue", "history", "silence"]

    /// Parses `text`; `file` names it in the error.
    static func parse(_ text: String, file: String) throws(CenterConfigError) -> CenterConfig {
        var parser = CenterConfigParser()
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            parser.line(line.last == "\r" ? line.dropLast() : line, number: number)
        }
        parser.endSection()
        guard parser.problems.isEmpty else {
            // A rule's own problem (it does nothing) is found at its end: every one in file order.
            let ordered = parser.problems.enumerated().sorted {
                ($0.element.line ?? 0, $0.element.column ?? 0, $0.offset) < ($1.element.line ?? 0, $1.element.column ?? 0, $1.offset)
            }
            throw CenterConfigError(file: file, problems: ordered.map(\.element))
        }
        return CenterConfig(defaults: parser.defaults, rules: parser.rules)
    }

    private mutating func fail(_ line: Int, _ column: Int, _ message: String) {
        problems.append(CenterConfigError.Problem(line: line, column: column, message))
    }

    private mutating func line(_ text: Substring, number: Int) {
        let indent = text.prefix { $0 == " " || $0 == "\t" }.count
        let body = text.dropFirst(indent)
        guard let first = body.first, first != "#", first != ";" else { return }
        if first == "[" {
            header(body, line: number, column: indent + 1)
            return
        }
        guard let equals = body.firstIndex(of: "=") else {
            fail(number, indent + 1, "expected a [section] or key = value")
            return
        }
        let key = String(body[..<equals]).trimmingBlanks
        guard !key.isEmpty else {
            fail(number, indent + 1, "a key is missing before =")
            return
        }
        let rawValue = body[body.index(after: equals)...]
        let lead = rawValue.prefix { $0 == " " || $0 == "\t" }.count
        let valueColumn = indent + body.distance(from: body.startIndex, to: equals) + 2 + lead
        guard let value = unquoted(String(rawValue.dropFirst(lead)), line: number, column: valueColumn) else { return }
        assign(key, value, line: number, column: indent + 1)
    }

    private mutating func header(_ body: Substring, line: Int, column: Int) {
        endSection()
        section = nil
        let trimmed = body.trimmingBlanks
        guard trimmed.hasSuffix("]"), trimmed.count >= 2 else {
            fail(line, column, "a section header must end with ]")
            return
        }
        let name = String(trimmed.dropFirst().dropLast()).trimmingBlanks
        guard !name.isEmpty, !name.contains("[") && !name.contains("]") else {
            fail(line, column, "a section needs a name without brackets: [global] or [rule-name]")
            return
        }
        if let first = sectionNames[name] {
            fail(line, column, "section [\(name)] appears twice (first at line \(first))")
        } else {
            sectionNames[name] = line
        }
        section = Section(name: name, line: line)
    }

    private mutating func endSection() {
        guard let section, !section.isGlobal else { return }
        if !section.keys.keys.contains(where: Self.actionKeys.contains) {
            fail(section.line, 1, "rule [\(section.name)] does nothing: give it one of \(Self.actionKeys.joined(separator: ", "))")
            return
        }
        rules.append(NotificationRule(name: section.name, line: section.line, match: section.match, actions: section.actions))
    }

    private mutating func unquoted(_ text: String, line: Int, column: Int) -> Value? {
        guard text.first == "\"" else { return Value(text: text.trimmingBlanks, line: line, column: column) }
        var result = ""
        var escaped = false
        var closed = false
        var offset = 0
        for character in text.dropFirst() {
            offset += 1
            if closed {
                if character != " " && character != "\t" {
                    fail(line, column + offset, "nothing may follow the closing quote")
                    return nil
                }
            } else if escaped {
                guard character == "\"" || character == "\\" else {
                    fail(line, column + offset - 1, "unknown escape \\\(character): only \\\" and \\\\ are known")
                    return nil
                }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                closed = true
            } else {
                result.append(character)
            }
        }
        guard closed else {
            fail(line, column, "the quoted value has no closing quote")
            return nil
        }
        return Value(text: result, line: line, column: column)
    }

    private mutating func assign(_ key: String, _ value: Value, line: Int, column: Int) {
        guard var current = section else {
            fail(line, column, "key \"\(key)\" comes before any [section]; put it under [global] or a rule")
            return
        }
        let known = current.isGlobal ? Self.globalKeys : Self.matchKeys + Self.actionKeys
        guard known.contains(key) else {
            let place = current.isGlobal ? "[global]" : "a rule"
            fail(line, column, "unknown key \"\(key)\" in \(place) (known: \(known.joined(separator: ", ")))")
            return
        }
        if let first = current.keys[key] {
            fail(line, column, "key \"\(key)\" appears twice in [\(current.name)] (first at line \(first))")
            return
        }
        current.keys[key] = line
        var values = ConfigValues(value: value.text, line: value.line, column: value.column)
        if current.isGlobal {
            values.global(key, into: &defaults)
        } else {
            values.rule(key, match: &current.match, actions: &current.actions)
        }
        problems += values.problems
        section = current
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs at its ends.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[start...end])
    }
}
