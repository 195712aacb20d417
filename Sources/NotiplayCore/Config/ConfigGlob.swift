/// A shell-style pattern, as `dunstrc` matches with: `*` is any run of characters (none
/// included), `?` is one character, `\` takes the next character literally; everything else
/// matches itself, case-sensitively. The whole text must match.
public struct ConfigGlob: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let elements: [Element]

    private enum Element: Sendable, Equatable {
        case literal(Character)
        case one
        case any
    }

    /// A pattern; a trailing lone `\` matches a `\`.
    public init(_ pattern: String) {
        self.pattern = pattern
        var elements: [Element] = []
        var escaped = false
        for character in pattern {
            if escaped {
                elements.append(.literal(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                if elements.last != .any { elements.append(.any) }
            } else if character == "?" {
                elements.append(.one)
            } else {
                elements.append(.literal(character))
            }
        }
        if escaped { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Whether the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        let characters = Array(text)
        // The classic backtracking over the last `*`: linear in most cases, never exponential.
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < characters.count {
            if p < elements.count {
                switch elements[p] {
                case .any:
                    star = p
                    resume = t
                    p += 1
                    continue
                case .one:
                    p += 1
                    t += 1
                    continue
                case .literal(let c) where c == characters[t]:
                    p += 1
                    t += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let star else { return false }
            p = star + 1
            resume += 1
            t = resume
        }
        while p < elements.count, elements[p] == .any { p += 1 }
        return p == elements.count
    }
}
