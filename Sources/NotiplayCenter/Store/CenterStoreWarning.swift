import NotiplayCore

/// Something the store did on its own that its user should hear of, though nothing failed: files
/// no notification names, moved aside when it was opened.
public struct CenterStoreWarning: Sendable, Equatable, CustomStringConvertible {
    /// The folder or file the warning is about.
    public var file: String
    /// What happened and what to do, in words a user understands, without the file name.
    public var reason: String

    /// Creates a warning.
    /// - Parameters:
    ///   - file: The folder or file concerned.
    ///   - reason: What happened.
    public init(file: String, _ reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `file: reason`, with the file name made safe to print on a terminal.
    public var description: String {
        "\(TerminalText.visible(file)): \(reason)"
    }
}
