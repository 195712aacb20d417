public import NotiplayCore

/// The exit statuses of the `notiplay` command (`sysexits.h`'s, where one fits), and how the
/// libraries' errors map to them. Only the command line knows them: the libraries say what went
/// wrong (``NotiplayError/Kind``), the command line decides how the process ends.
public enum ExitStatus {
    /// Everything went as asked.
    public static let ok: Int32 = 0
    /// One or more playback tests failed.
    public static let testFailures: Int32 = 1
    /// The command line is wrong: what ArgumentParser refuses (an unknown command or option, a
    /// missing or extra argument, a value that cannot be read), or a ``UsageError``.
    public static let usage: Int32 = 64
    /// An input's content is not acceptable.
    public static let badData: Int32 = 65
    /// An input does not exist.
    public static let missingInput: Int32 = 66
    /// libmpv or the audio output is unavailable, or the notification center cannot be reached
    /// or trusted.
    public static let unavailable: Int32 = 69
    /// The center's store cannot be made, written or read: no permission, a read-only file
    /// system, something else in its place, or another user's folder.
    public static let cantCreate: Int32 = 73
    /// Reading or writing the center's store failed: a full disk, an I/O error, a lock held too
    /// long.
    public static let ioError: Int32 = 74
    /// Ctrl-C or SIGINT ended it (128 + SIGINT, as a shell reports it).
    public static let interrupted: Int32 = 130

    /// The status a library error of `kind` ends the command with.
    public static func of(_ kind: NotiplayError.Kind) -> Int32 {
        switch kind {
        case .badData: badData
        case .missingInput: missingInput
        case .unavailable: unavailable
        }
    }
}

/// The command line itself is wrong: an option's value notiplay cannot use (its reason, as
/// ArgumentParser reports it), or arguments that do not go together (`--junit` naming a folder).
/// Only the command line throws it; it ends the command with ``ExitStatus/usage``.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The argument the error is about, as the user wrote it, if there is one.
    var file: String?
    /// What is wrong.
    var reason: String

    /// An error about `file` (if any) saying `reason`.
    init(file: String? = nil, _ reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `file: reason`, with the file name made safe to print on a terminal.
    var description: String {
        guard let file else { return reason }
        return "\(TerminalText.visible(file)): \(reason)"
    }
}
