import NotiplaySystem
package import NotiplayViews
import SystemPackage

/// Finds out whether the terminal draws pictures, and how, by asking it — never from its name.
///
/// Four queries are written at once, when the card terminal starts (in raw mode, before its
/// events are read): kitty's graphics query (`ESC _G i=31,s=1,v=1,a=q,t=d,f=24;AAAA ESC \`, a
/// 1×1 image checked and not stored), XTVERSION (`ESC [>q`), the size of a cell in pixels
/// (`ESC [16t`, which sixel needs) and DA1 (`ESC [c`). Terminals answer
/// in order, and every terminal answers DA1, so its reply ends the wait: a kitty reply before it
/// means kitty graphics; else an XTVERSION naming iTerm2 or WezTerm means iTerm2 inline images;
/// else DA1's attribute 4 means sixel; else none. Only a hang guard bounds a terminal that never
/// answers (then: none). Whatever else arrives meanwhile (a key pressed at that moment) is
/// dropped. tmux answers DA1 itself and passes no graphics query on: none, the stand-in shows.
package enum GraphicsDetection {
    /// The queries, in the order they are written.
    package static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>q\u{1B}[16t\u{1B}[c".utf8)
    /// The most reply bytes read: more without a DA1 reply is no terminal of ours.
    package static let maximumReply = 4_096

    /// What the replies so far say.
    package enum Verdict: Equatable, Sendable {
        /// DA1 has not answered yet: read on.
        case waiting
        /// DA1 answered: the terminal draws with this protocol (`nil`: it draws none).
        case found(GraphicsProtocol?)
    }

    /// The verdict from `replies`, the bytes the terminal sent since the query.
    package static func verdict(_ replies: [UInt8]) -> Verdict {
        var kitty = false
        var version = ""
        var index = 0
        while index < replies.count {
            guard replies[index] == 0x1B, index + 1 < replies.count else {
                index += 1
                continue
            }
            switch replies[index + 1] {
            case UInt8(ascii: "_"), UInt8(ascii: "P"):  // APC (kitty) or DCS (XTVERSION), to ST
                guard let end = stringTerminator(replies, from: index + 2) else { return .waiting }
                let body = String(decoding: replies[(index + 2)..<end], as: UTF8.self)
                if replies[index + 1] == UInt8(ascii: "_"), body.hasPrefix("Gi=31;") { kitty = true }
                if replies[index + 1] == UInt8(ascii: "P"), body.hasPrefix(">|") { version = String(body.dropFirst(2)) }
                index = end + 2
            case UInt8(ascii: "["):  // CSI: DA1 is CSI ? Ps ; … c
                var end = index + 2
                while end < replies.count, !(0x40...0x7E).contains(replies[end]) { end += 1 }
                guard end < replies.count else { return .waiting }
                let parameters = String(decoding: replies[(index + 2)..<end], as: UTF8.self)
                if replies[end] == UInt8(ascii: "c"), parameters.hasPrefix("?") {
                    let attributes = parameters.dropFirst().split(separator: ";")
                    if kitty { return .found(.kitty) }
                    if version.contains("iTerm2") || version.contains("WezTerm") { return .found(.iTerm2) }
                    return .found(attributes.contains("4") ? .sixel : nil)
                }
                index = end + 1
            default:
                index += 2
            }
        }
        return .waiting
    }

    /// The size of a cell in pixels, from the reply to `ESC [16t` (`ESC [6;HEIGHT;WIDTHt`) among
    /// `replies`; `nil` without one, or with a size of 0 or over 1,000.
    package static func cellPixels(_ replies: [UInt8]) -> Size? {
        var index = 0
        while index + 2 < replies.count {
            defer { index += 1 }
            guard replies[index] == 0x1B, replies[index + 1] == UInt8(ascii: "[") else { continue }
            var end = index + 2
            while end < replies.count, !(0x40...0x7E).contains(replies[end]) { end += 1 }
            guard end < replies.count, replies[end] == UInt8(ascii: "t") else { continue }
            let fields = String(decoding: replies[(index + 2)..<end], as: UTF8.self).split(separator: ";").map { Int($0) }
            if fields.count == 3, fields[0] == 6, let height = fields[1], let width = fields[2],
                (1...1_000).contains(height), (1...1_000).contains(width)
            {
                return Size(width: width, height: height)
            }
        }
        return nil
    }

    /// The index of the `ESC \` (or BEL) that ends a string sequence started before `start`.
    private static func stringTerminator(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x07 { return index - 1 }
            if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == 0x5C { return index }
            index += 1
        }
        return nil
    }

    /// Asks the terminal at `input`/`output` (already in raw mode) and waits for its DA1 reply,
    /// at most `hangGuard`: the protocol it draws pictures with, or `nil`, and the size of its
    /// cells in pixels when it said.
    package static func ask(input: Int32, output: Int32, hangGuard: Duration = .seconds(2)) -> (graphics: GraphicsProtocol?, cell: Size?) {
        let written: Void? = query.withUnsafeBytes { try? Posix.writeAll(FileDescriptor(rawValue: output), $0) }
        guard written != nil else { return (nil, nil) }
        let clock = ContinuousClock()
        let deadline = clock.now + hangGuard
        var replies: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while replies.count < maximumReply {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return (nil, nil) }
            var entries = [Posix.PollEntry(file: FileDescriptor(rawValue: input), events: .readable)]
            let ready: Int?
            do { ready = try Posix.poll(&entries, timeout: left) } catch { return (nil, nil) }
            guard let ready, ready > 0 else { continue }  // a signal, or the time ran out
            switch InputRead.available(input, revents: entries[0].found.rawValue, into: &buffer) {
            case .bytes(let count): replies += buffer[0..<count]
            case .nothing: continue
            case .end: return (nil, nil)
            }
            if case .found(let graphics) = verdict(replies) { return (graphics, cellPixels(replies)) }
        }
        return (nil, nil)
    }
}
