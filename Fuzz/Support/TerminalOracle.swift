/// The oracle for anything meant for a terminal: what may reach it, and nothing else.
///
/// Terminal output may hold printable text and these escape sequences only — `CSI` with
/// parameters of digits and `;` (after an optional `?`) and one of these final bytes:
/// `A` `B` `C` `D` (cursor moves), `H` `f` (cursor position), `J` `K` (erase), `m` (colour and
/// attributes), and `h` `l` only after `?` (private modes: cursor, alternate screen, mouse).
/// Everything else is a violation: a C0 control other than `ESC` starting such a sequence, DEL,
/// a C1 control (U+0080–U+009F, whatever its encoding), any other escape (OSC, DCS, SOS, PM,
/// APC, two-byte escapes, CSI with intermediate bytes), the bidirectional overrides and
/// isolates, and invalid UTF-8.
public enum TerminalOracle {
    /// The first violation in terminal output `bytes`, described, or `nil` when there is none.
    public static func violation(inTerminalOutput bytes: [UInt8]) -> String? {
        var scalars: [(offset: Int, scalar: Unicode.Scalar)] = []
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        decoding: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalars.append((offset, Unicode.UTF8.decode(encoded)))
                offset += encoded.count
            case .error(let length):
                return "invalid UTF-8 at byte \(offset) (\(length) bytes)"
            case .emptyInput:
                break decoding
            }
        }
        var i = 0
        while i < scalars.count {
            let (at, scalar) = scalars[i]
            if scalar.value == 0x1B {
                guard let end = endOfAllowedSequence(scalars, from: i) else {
                    let text = scalars[i..<min(scalars.count, i + 12)].map { escaped($0.scalar) }.joined()
                    return "escape sequence not on the list at byte \(at): \(text)"
                }
                i = end
                continue
            }
            if let what = forbidden(scalar) { return "\(what) \(escaped(scalar)) at byte \(at)" }
            i += 1
        }
        return nil
    }

    /// The first character of `text` that must not reach a terminal (a control, `ESC`, a C1
    /// control, a bidirectional override), described, or `nil`. `allowing` lists scalars taken
    /// as safe here (`\n` in text laid out in lines).
    public static func violation(inText text: String, allowing: Set<Unicode.Scalar> = []) -> String? {
        for (index, scalar) in text.unicodeScalars.enumerated() where !allowing.contains(scalar) {
            if scalar.value == 0x1B { return "ESC at scalar \(index)" }
            if let what = forbidden(scalar) { return "\(what) \(escaped(scalar)) at scalar \(index)" }
        }
        return nil
    }

    /// Whether `scalar` must not reach a terminal as text (`ESC` included).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { forbidden(scalar) != nil }

    /// What is wrong with `scalar` outside an escape sequence, or `nil`.
    static func forbidden(_ scalar: Unicode.Scalar) -> String? {
        let v = scalar.value
        if v < 0x20 { return "C0 control" }
        if v == 0x7F { return "DEL" }
        if (0x80...0x9F).contains(v) { return "C1 control" }
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C {
            return "bidirectional control"
        }
        return nil
    }

    /// The index after the allowed sequence starting with the `ESC` at `start`, or `nil`.
    static func endOfAllowedSequence(_ scalars: [(offset: Int, scalar: Unicode.Scalar)], from start: Int) -> Int? {
        var i = start + 1
        guard i < scalars.count, scalars[i].scalar == "[" else { return nil }
        i += 1
        var isPrivate = false
        if i < scalars.count, scalars[i].scalar == "?" {
            isPrivate = true
            i += 1
        }
        var digits = 0
        while i < scalars.count, ("0"..."9").contains(scalars[i].scalar) || scalars[i].scalar == ";" {
            digits += 1
            guard digits <= 64 else { return nil }
            i += 1
        }
        guard i < scalars.count else { return nil }
        let final = scalars[i].scalar
        let allowed: Set<Unicode.Scalar> = isPrivate ? ["h", "l"] : ["A", "B", "C", "D", "H", "f", "J", "K", "m"]
        guard allowed.contains(final) else { return nil }
        return i + 1
    }

    /// Terminal output in a visible form: `ESC` as `⎋`, other controls as `\u{…}`.
    public static func visible(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.map { $0.value == 0x1B ? "⎋" : escaped($0) }.joined()
    }

    /// `scalar` in a visible form: itself when printable ASCII, `\u{…}` otherwise.
    public static func escaped(_ scalar: Unicode.Scalar) -> String {
        if !isUnsafe(scalar) { return String(scalar) }
        return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
