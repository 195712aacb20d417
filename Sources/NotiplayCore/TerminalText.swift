/// Makes untrusted text (payload strings, file names, extension output) safe to put on a terminal.
///
/// Removes C0 and C1 control characters and DEL, whole escape sequences (CSI, OSC — including
/// OSC 52 clipboard writes and window titles —, DCS, SOS, PM, APC and two-byte escapes), and the
/// Unicode bidirectional overrides and isolates that can reorder what a line appears to say.
/// Tabs and line breaks become single spaces unless `keepNewlines` is set. Messages that quote
/// such text (a key, a file name, an argument) use ``visible(_:keepNewlines:)`` instead, which
/// shows what was there as escapes rather than dropping it.
public enum TerminalText {
    /// Returns `text` with every control character and escape sequence removed.
    /// - Parameters:
    ///   - text: Untrusted text.
    ///   - keepNewlines: Keep `\n` (a paragraph break the layout will honour) instead of a space.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var state = State.text
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch state {
            case .text:
                if v == 0x1B {
                    state = .escape
                } else if v == 0x9B {
                    state = .csi
                } else if v == 0x9D || v == 0x90 || v == 0x98 || v == 0x9E || v == 0x9F {
                    state = .string
                } else if v == 0x0A, keepNewlines {
                    out.append(scalar)
                } else if v == 0x09 || v == 0x0A || v == 0x0D {
                    if out.last != " " { out.append(" ") }
                } else if v < 0x20 || (0x7F...0x9F).contains(v) || isBidiControl(v) {
                    continue
                } else {
                    out.append(scalar)
                }
            case .escape:
                switch v {
                case 0x5B: state = .csi  // [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
                case 0x20...0x2F: state = .escapeIntermediate
                default: state = .text  // a two-byte escape: drop both
                }
            case .escapeIntermediate:
                if !(0x20...0x2F).contains(v) { state = .text }
            case .csi:
                if (0x40...0x7E).contains(v) { state = .text }
                else if !(0x20...0x3F).contains(v) { state = .text }  // malformed: stop swallowing
            case .string:
                if v == 0x07 || v == 0x9C { state = .text }
                else if v == 0x1B { state = .stringEscape }
            case .stringEscape:
                state = v == 0x5C ? .text : .string
            }
        }
        return String(out)
    }

    /// Returns `text` with every control character written as a visible escape, so that what
    /// ``clean(_:keepNewlines:)`` would remove shows instead: `\u{1B}[31m` for a colour sequence,
    /// `\u{202E}` for a bidi override, `\t`, `\n` and `\r` for tabs and line breaks. For messages that quote user text (a key, a file name, an argument): what
    /// the text holds stays readable, even when it is nothing but escape sequences, and no control
    /// character reaches the terminal.
    /// - Parameters:
    ///   - text: Untrusted text.
    ///   - keepNewlines: Keep `\n` as a line break (for a message of several lines).
    public static func visible(_ text: String, keepNewlines: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x0A where keepNewlines: out.unicodeScalars.append(scalar)
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case _ where v < 0x20 || (0x7F...0x9F).contains(v) || isBidiControl(v):
                out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private enum State { case text, escape, escapeIntermediate, csi, string, stringEscape }

    /// Whether `v` is a bidirectional mark, embedding, override or isolate: invisible, and able
    /// to make a line appear to say something else.
    static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
            || v == 0x061C
    }
}
