/// Turns the bytes a terminal sends in raw mode into ``Key`` values, incrementally: a sequence or
/// a UTF-8 character split across reads is kept until its last byte comes.
///
/// What it reads:
/// - printable ASCII and UTF-8 characters (``Key/character(_:)``), space, Enter (CR or LF; CR LF
///   in one read is one Enter), Tab, Backspace (DEL or Ctrl-H), Ctrl-C, Ctrl-D, Ctrl-Z and the
///   other control keys;
/// - the arrows, as CSI (`ESC [ A`…`D`, with or without modifier parameters such as
///   `ESC [ 1 ; 5 C`) or SS3 (`ESC O A`…`D`, the terminal's "application cursor" mode);
/// - Shift-Tab (`ESC [ Z`, ``Key/backTab``);
/// - mouse reports (``Key/mouse(_:)``): SGR's `ESC [ < b ; column ; row M` (press) and `m`
///   (release), and X10's `ESC [ M` followed by three bytes; a report whose numbers do not read
///   is swallowed like any unknown sequence, and one cut short at the end of input is dropped —
///   never read as Escape and characters;
/// - every other CSI or SS3 sequence (function keys, Home, Delete, bracketed paste marks…) is
///   swallowed whole, never leaked as characters. Bytes that are not valid UTF-8, and C1 control
///   characters, are dropped.
///
/// A lone Escape: the byte 0x1B also starts every sequence, so an ESC at the end of the bytes
/// read so far is held back (``isWaiting``). The reader decides when nothing more is coming —
/// ``TerminalEvents`` waits ``TerminalEvents/escapeDelay`` with no further byte — and then calls
/// ``flush()``, which turns the held ESC into ``Key/escape``. An ESC followed by anything other
/// than `[` or `O` is Escape, then that key (so Alt-x reads as Escape, x; and Escape typed
/// quickly before another key is never lost). `ESC [` and `ESC O` with nothing after them are
/// the start of a sequence cut short — and what Alt+[ and Alt+Shift+O send — so they are
/// dropped, never read as Escape: Alt+[ does nothing, and never dismisses a card.
public struct KeyDecoder: Sendable {
    /// Bytes of one unfinished sequence or character.
    private var pending: [UInt8] = []

    /// The longest CSI sequence kept while waiting for its final byte; longer ones are garbage
    /// and dropped.
    static let longestSequence = 64

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished sequence or character are held, waiting for more input or
    /// for ``flush()``.
    public var isWaiting: Bool { !pending.isEmpty }

    /// Decodes `bytes`, which follow the bytes given before. Returns the keys completed; an
    /// unfinished sequence at the end is held for the next call.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let used = step(at: index, final: false, into: &keys) else { break }
            index += used
        }
        pending.removeFirst(index)
        return keys
    }

    /// Says no more bytes are coming for now (a pause after an ESC, or the end of input): a
    /// held lone ESC becomes ``Key/escape``; any other unfinished sequence or character —
    /// `ESC [` and `ESC O` alone included (Alt+[, Alt+Shift+O) — is dropped.
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            index += step(at: index, final: true, into: &keys) ?? (pending.count - index)
        }
        pending.removeAll()
        return keys
    }

    /// Reads one key (or one dropped item) at `index`, appending to `keys`. Returns how many
    /// bytes it used, or `nil` when the bytes there are an unfinished sequence and `final` is
    /// false.
    private func step(at index: Int, final: Bool, into keys: inout [Key]) -> Int? {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return escapeSequence(at: index, final: final, into: &keys)
        case 0x0D:
            keys.append(.enter)
            return index + 1 < pending.count && pending[index + 1] == 0x0A ? 2 : 1
        case 0x0A:
            keys.append(.enter)
        case 0x09:
            keys.append(.tab)
        case 0x08, 0x7F:
            keys.append(.backspace)
        case 0x03:
            keys.append(.controlC)
        case 0x04:
            keys.append(.controlD)
        case 0x1A:
            keys.append(.controlZ)
        case 0x01...0x19:
            keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        case 0x00, 0x1C...0x1F:
            keys.append(.control(Character(Unicode.Scalar(byte + 0x40))))
        case 0x20:
            keys.append(.space)
        case 0x21...0x7E:
            keys.append(.character(Character(Unicode.Scalar(byte))))
        default:
            return utf8Character(at: index, final: final, into: &keys)
        }
        return 1
    }

    private func escapeSequence(at index: Int, final: Bool, into keys: inout [Key]) -> Int? {
        let available = pending.count - index
        guard available >= 2 else {
            if final { keys.append(.escape) }
            return final ? 1 : nil
        }
        let introducer = pending[index + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // Parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, then a final 0x40–0x7E.
            var end = index + 2
            while end < pending.count {
                let byte = pending[end]
                if (0x40...0x7E).contains(byte) {
                    if byte == UInt8(ascii: "M") && end == index + 2 {
                        return x10Mouse(at: index, final: final, into: &keys)
                    }
                    if let key = Self.csiKey(pending[(index + 2)..<end], final: byte) { keys.append(key) }
                    return end - index + 1
                }
                if !(0x20...0x3F).contains(byte) {
                    return end - index  // broken sequence: drop it, read this byte afresh
                }
                end += 1
            }
            if end - index > Self.longestSequence { return end - index }
            // Cut short — `ESC [` alone is also what Alt+[ sends — it is dropped, never Escape.
            return final ? available : nil
        case UInt8(ascii: "O"):
            guard available >= 3 else {
                // `ESC O` alone (Alt+Shift+O, or an SS3 sequence cut short): dropped, never Escape.
                return final ? 2 : nil
            }
            let byte = pending[index + 2]
            if (0x40...0x7E).contains(byte) {
                if let arrow = Self.arrow(byte) { keys.append(arrow) }
                return 3
            }
            keys.append(.escape)
            keys.append(.character("O"))
            return 2
        default:
            // Escape on its own, then whatever follows is read as a key of its own.
            keys.append(.escape)
            return 1
        }
    }

    /// The key of a complete CSI sequence with these parameter (and intermediate) bytes and
    /// this final byte: an arrow, Shift-Tab, or an SGR mouse report; `nil` for any other.
    private static func csiKey(_ parameters: ArraySlice<UInt8>, final: UInt8) -> Key? {
        if let arrow = arrow(final) { return arrow }
        if final == UInt8(ascii: "Z") && parameters.isEmpty { return .backTab }
        if final == UInt8(ascii: "M") || final == UInt8(ascii: "m"),
            parameters.first == UInt8(ascii: "<"), let mouse = sgrMouse(parameters.dropFirst(), release: final == UInt8(ascii: "m"))
        {
            return .mouse(mouse)
        }
        return nil
    }

    /// `b ; column ; row` of an SGR mouse report: three numbers of digits only, the column and
    /// row from 1; anything else is no report.
    private static func sgrMouse(_ parameters: ArraySlice<UInt8>, release: Bool) -> MouseEvent? {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var numbers: [Int] = []
        for field in fields {
            guard !field.isEmpty, field.count <= 6, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        guard numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        return MouseEvent.decode(code: numbers[0], column: numbers[1], row: numbers[2], release: release)
    }

    /// `ESC [ M` and three bytes, each 32 more than its value: the X10 mouse report a terminal
    /// without SGR reporting sends. Its bytes are taken whole, never read as keys; unfinished at
    /// the end of input, they are dropped.
    private func x10Mouse(at index: Int, final: Bool, into keys: inout [Key]) -> Int? {
        let available = pending.count - index
        guard available >= 6 else { return final ? available : nil }
        let code = Int(pending[index + 3]) - 32
        let column = Int(pending[index + 4]) - 32
        let row = Int(pending[index + 5]) - 32
        if code >= 0, column >= 1, row >= 1 {
            keys.append(.mouse(MouseEvent.decode(code: code, column: column, row: row, release: false)))
        }
        return 6
    }

    private static func arrow(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }

    private func utf8Character(at index: Int, final: Bool, into keys: inout [Key]) -> Int? {
        let lead = pending[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 1  // a continuation byte or an impossible lead: dropped
        }
        var end = index + 1
        while end < index + length {
            guard end < pending.count else { return final ? pending.count - index : nil }
            guard (0x80...0xBF).contains(pending[end]) else { return end - index }
            end += 1
        }
        // Overlong forms and surrogates fail here.
        if let text = String(validating: pending[index..<end], as: UTF8.self),
           let scalar = text.unicodeScalars.first,
           !(0x80...0x9F).contains(scalar.value)
        {
            keys.append(.character(Character(scalar)))
        }
        return length
    }
}
