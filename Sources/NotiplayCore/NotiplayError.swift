/// An error a user can act on: what went wrong, with which file, and of which kind.
///
/// Every failure the libraries report to a person is one of these. The kind says what sort of
/// failure it is; a program built on the libraries decides what each kind means to it (the
/// command line decides how the process ends).
public struct NotiplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: Sendable, Equatable {
        /// An input exists but its content is not acceptable.
        case badData
        /// An input does not exist.
        case missingInput
        /// libmpv, the audio output or another resource the work needs cannot be used.
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

    /// `file: reason`, with the file name made safe to print on a terminal.
    public var description: String {
        guard let file else { return reason }
        return "\(TerminalText.visible(file)): \(reason)"
    }
}
