/// A configuration file that cannot be used, with every problem found in it.
public struct CenterConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One problem: where (`line` and `column` from 1; both `nil` for the file as a whole) and what.
    public struct Problem: Sendable, Equatable {
        /// The line, from 1.
        public var line: Int?
        /// The column, from 1, in characters.
        public var column: Int?
        /// What is wrong, and what was expected.
        public var message: String

        /// A problem at a place in the file, or about the whole file.
        public init(line: Int?, column: Int?, _ message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
    }

    /// The file, as it was named.
    public var file: String
    /// Whether the file does not exist (rather than being wrong).
    public var isMissing: Bool
    /// The problems, in file order; never empty.
    public var problems: [Problem]

    /// An error about `file`.
    public init(file: String, isMissing: Bool = false, problems: [Problem]) {
        self.file = file
        self.isMissing = isMissing
        self.problems = problems
    }

    /// One line per problem, `FILE:LINE:COLUMN: message` (or `FILE: message` for the whole file),
    /// safe to print on a terminal.
    public var lines: [String] {
        let name = TerminalText.visible(file)
        return problems.map { problem in
            let place = problem.line.map { line in ":\(line):\(problem.column ?? 1)" } ?? ""
            return "\(name)\(place): \(TerminalText.visible(problem.message))"
        }
    }

    /// The lines joined by newlines.
    public var description: String { lines.joined(separator: "\n") }
}
