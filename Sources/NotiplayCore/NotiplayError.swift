/// An error a user can act on: what went wrong, with which file, and the exit status it maps to.
///
/// Every failure that reaches the command line is one of these. The exit statuses follow
/// `sysexits.h`, as SPEC §5 documents them.
public struct NotiplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The command line itself is wrong (exit 64).
        case usage
        /// An input exists but its content is not acceptable (exit 65).
        case badData
        /// An input does not exist (exit 66).
        case missingInput
        /// libmpv or the audio output cannot be used (exit 69).
        case unavailable
    }

    /// The class of failure.
    public var kind: Kind
    /// The file or argument the error is about, as the user wrote it, if there is one.
    public var file: String?
    /// What is wrong, in words a user understands, without the file name.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: The class of failure.
    ///   - file: The file or argument concerned, as the user wrote it.
    ///   - reason: What is wrong.
    public init(_ kind: Kind, file: String? = nil, _ reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    /// The process exit status for this error (64, 65, 66 or 69).
    public var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .badData: 65
        case .missingInput: 66
        case .unavailable: 69
        }
    }

    /// `file: reason`, with the file name made safe to print on a terminal.
    public var description: String {
        guard let file else { return reason }
        return "\(TerminalText.clean(file)): \(reason)"
    }
}

/// The exit statuses of the `notiplay` command (SPEC §5).
public enum ExitStatus {
    /// Everything went as asked.
    public static let ok: Int32 = 0
    /// One or more playback tests failed.
    public static let testFailures: Int32 = 1
    /// The command line is wrong.
    public static let usage: Int32 = 64
    /// An input's content is not acceptable.
    public static let badData: Int32 = 65
    /// An input does not exist.
    public static let missingInput: Int32 = 66
    /// libmpv or the audio output is unavailable.
    public static let unavailable: Int32 = 69
}
