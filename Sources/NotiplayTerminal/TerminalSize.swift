import NotiplaySystem
import SystemPackage

/// The size of the terminal, in character cells.
public enum TerminalSize {
    /// The columns and rows of the terminal on `fd`, asked with the `TIOCGWINSZ` ioctl.
    ///
    /// `COLUMNS` and `LINES` in `environment` (the process's), when they hold positive numbers, take
    /// the place of the width and the height the terminal reports: that makes headless runs and
    /// tests deterministic. `nil` when `fd` is no terminal (or one reporting 0×0) and the
    /// environment does not give both.
    public static func current(fd: Int32 = 1, environment: [String: String]) -> (columns: Int, rows: Int)? {
        current(fd: fd) { environment[$0] }
    }

    /// ``current(fd:environment:)`` with the environment read through `environment`.
    public static func current(fd: Int32, environment: (String) -> String?) -> (columns: Int, rows: Int)? {
        let reported = reportedSize(fd: fd)
        guard let columns = positive(environment("COLUMNS")) ?? reported?.columns,
              let rows = positive(environment("LINES")) ?? reported?.rows
        else { return nil }
        return (columns, rows)
    }

    /// What the terminal itself reports, ignoring the environment.
    public static func reportedSize(fd: Int32) -> (columns: Int, rows: Int)? {
        guard let size = try? Posix.windowSize(FileDescriptor(rawValue: fd)), size.columns > 0, size.rows > 0 else {
            return nil
        }
        return size
    }

    private static func positive(_ text: String?) -> Int? {
        guard let text, let value = Int(text), value > 0 else { return nil }
        return value
    }
}
