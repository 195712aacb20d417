import NotiplayCore

/// One option of a subcommand: `--name VALUE` (or `--name=VALUE`), or a flag `--name`.
struct OptionSpec: Sendable {
    /// The long name, without dashes.
    let name: String
    /// Shown in help as `--name VALUE`; `nil` for a flag.
    let value: String?
    /// One line of help.
    let help: String
    /// Whether the option may be given more than once.
    var repeatable = false
}

/// A positional argument of a subcommand.
struct PositionalSpec: Sendable {
    let name: String
    let help: String
    /// Takes every remaining positional argument (at least one).
    var variadic = false
}

/// The parsed command line of one subcommand.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The value of `--name`, the last one if given more than once.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable `--name`, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A subcommand: its grammar, its help and what it does.
///
/// notiplay parses its own command line: the grammar is small and fixed and
/// swift-argument-parser, with the reflection and FoundationEssentials it brings, measured about
/// 2.5 MiB more peak memory and 2–3 ms more per process (`Scripts/bench-play.py`) — a cost paid
/// by every `validate` and `test` run, which start many processes.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    var discussion: String = ""
    var positionals: [PositionalSpec] = []
    var options: [OptionSpec] = []
    let run: @Sendable (ParsedArguments) async throws -> Void

    var usage: String {
        var parts = ["notiplay", name]
        parts += positionals.map { $0.variadic ? "\($0.name)..." : $0.name }
        parts += options.map { option in
            let text = option.value.map { "--\(option.name) \($0)" } ?? "--\(option.name)"
            return "[\(text)]\(option.repeatable ? "..." : "")"
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "\(abstract)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let rows = positionals.map { ($0.name, $0.help) }
            + options.map { ("--\($0.name)" + ($0.value.map { " \($0)" } ?? ""), $0.help) }
            + [("-h, --help", "Show this help.")]
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        text += "\n" + rows.map { "  " + $0.0.padding(width) + $0.1 }.joined(separator: "\n") + "\n"
        return text
    }

    /// Parses `arguments` (those after the subcommand's name).
    /// - Throws: ``UsageError`` naming what is wrong.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            guard argument.hasPrefix("--") else { throw usageError("unknown option '\(argument)'") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == name }) else {
                throw usageError("unknown option '--\(name)'")
            }
            if let valueName = option.value {
                let value: String
                if let inline {
                    value = inline
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw usageError("--\(name) needs a value (\(valueName))")
                }
                if !option.repeatable, parsed.values[name] != nil {
                    throw usageError("--\(name) is given more than once")
                }
                parsed.values[name, default: []].append(value)
            } else {
                guard inline == nil else { throw usageError("--\(name) takes no value") }
                parsed.flags.insert(name)
            }
        }
        let required = positionals.count
        let variadic = positionals.last?.variadic ?? false
        if parsed.positionals.count < required {
            throw usageError("missing \(positionals[parsed.positionals.count].name)")
        }
        if !variadic, parsed.positionals.count > required {
            throw usageError("unexpected argument '\(TerminalText.clean(parsed.positionals[required]))'")
        }
        return parsed
    }

    func usageError(_ reason: String) -> UsageError {
        UsageError("\(reason)\nUsage: \(usage)\nSee 'notiplay \(name) --help'.")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
