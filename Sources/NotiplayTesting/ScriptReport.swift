import NotiplayCore
import NotiplayViews

/// Writes script results as TAP, JUnit XML or a summary for people.
public enum ScriptReport {
    /// TAP version 13: one test point per script, the failure as a YAML block: `message`, `at`,
    /// the card's rows (`screen`, one quoted row a line) when an `expect screen` step failed, and
    /// the last `events`.
    public static func tap(_ results: [ScriptResult]) -> String {
        var out = "TAP version 13\n1..\(results.count)\n"
        for (number, result) in results.enumerated() {
            let name = TerminalText.clean(result.path)
            guard let failure = result.failure else {
                out += "ok \(number + 1) - \(name)\n"
                continue
            }
            out += "not ok \(number + 1) - \(name)\n"
            out += "  ---\n"
            out += "  message: \(yamlString(failure.message))\n"
            out += "  at: \(yamlString("\(result.path):\(failure.line):\(failure.column)"))\n"
            if !failure.screen.isEmpty {
                out += "  screen:\n"
                for row in failure.screen { out += "    - \(yamlString(row))\n" }
            }
            if !failure.lastEvents.isEmpty {
                out += "  events:\n"
                for event in failure.lastEvents { out += "    - \(yamlString(event))\n" }
            }
            out += "  ...\n"
        }
        return out
    }

    /// JUnit XML: one `testsuite` named `notiplay`, one `testcase` per script.
    public static func junit(_ results: [ScriptResult]) -> String {
        let failures = results.filter { !$0.passed }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" time=\"\(seconds(total))\">\n"
        out += "  <testsuite name=\"notiplay\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(seconds(total))\">\n"
        for result in results {
            let name = xml(Path.lastComponent(result.path))
            out += "    <testcase classname=\"playback\" name=\"\(name)\" file=\"\(xml(result.path))\" time=\"\(seconds(result.seconds))\""
            guard let failure = result.failure else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            out += "      <failure message=\"\(xml(failure.message))\" type=\"expectation\">"
            out += xml("\(result.path):\(failure.line):\(failure.column): \(failure.message)")
            if !failure.screen.isEmpty { out += xml("\nscreen:\n" + failure.screen.map { "    " + $0 }.joined(separator: "\n")) }
            if !failure.lastEvents.isEmpty { out += xml("\nlast events:\n" + failure.lastEvents.joined(separator: "\n")) }
            out += "</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// For a terminal: a line per script, each failure with its place and the last events, then
    /// the counts.
    public static func summary(_ results: [ScriptResult], glyphs: GlyphSet = .unicode) -> String {
        let pass = glyphs == .unicode ? "✔" : "ok"
        let fail = glyphs == .unicode ? "✘" : "FAIL"
        var out = ""
        for result in results {
            let name = TerminalText.clean(result.path)
            guard let failure = result.failure else {
                out += "\(pass) \(name) (\(seconds(result.seconds)) s)\n"
                continue
            }
            out += "\(fail) \(name):\(failure.line):\(failure.column): \(TerminalText.clean(failure.message))\n"
            if !failure.screen.isEmpty {
                out += "    screen:\n"
                for row in failure.screen { out += "      \(TerminalText.clean(row))\n" }
            }
            if !failure.lastEvents.isEmpty {
                out += "    last events:\n"
                for event in failure.lastEvents { out += "      \(TerminalText.clean(event))\n" }
            }
        }
        let failed = results.filter { !$0.passed }.count
        out += "\(results.count - failed) passed, \(failed) failed\n"
        return out
    }

    static func seconds(_ value: Double) -> String {
        let ms = Int((value * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }

    /// XML text with `&`, `<`, `>`, quotes escaped and characters XML 1.0 forbids replaced.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || (0xFFFE...0xFFFF).contains(v) || (0xD800...0xDFFF).contains(v) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A double-quoted YAML string, cleaned for the terminal.
    static func yamlString(_ text: String) -> String {
        var out = "\""
        for character in TerminalText.clean(text) {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
