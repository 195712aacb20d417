@preconcurrency internal import Glibc  // termios, tcgetattr, tcsetattr, cfmakeraw, tcgetpgrp
package import SystemPackage

/// A terminal's settings (`struct termios`): what ``Posix/terminalSettings(of:)`` reads and
/// ``Posix/setTerminalSettings(_:of:when:)`` puts back, byte for byte.
package struct TerminalSettings: Sendable {
    fileprivate var value = termios()

    /// Zeroed settings, to be filled by ``Posix/terminalSettings(of:)``.
    package init() {}

    /// These settings in raw mode (`cfmakeraw(3)`): input byte by byte (`VMIN` 1, `VTIME` 0), no
    /// echo, no line editing, no signal keys, no flow control, no CR-to-NL translation, 8-bit
    /// characters; output processing (`OPOST`, `ONLCR`) kept on, so that `\n` still moves to the
    /// start of the next line.
    package func raw() -> TerminalSettings {
        var raw = self
        cfmakeraw(&raw.value)
        raw.value.c_oflag |= tcflag_t(OPOST | ONLCR)
        withUnsafeMutableBytes(of: &raw.value.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        return raw
    }
}

/// Terminals: their settings and their foreground process group.
extension Posix {
    /// When new terminal settings take effect (`tcsetattr(3)`'s `optional_actions`).
    package enum TerminalSettingsChange: Sendable {
        /// Once the output written so far has been sent (`TCSADRAIN`).
        case afterOutput
        /// Once the output has been sent, discarding input not yet read (`TCSAFLUSH`).
        case discardingInput
    }

    /// `tcgetattr(3)`: the settings of the terminal `file`.
    package static func terminalSettings(of file: FileDescriptor) throws(SystemCallError) -> TerminalSettings {
        var settings = TerminalSettings()
        try call("tcgetattr") { tcgetattr(file.rawValue, &settings.value) }
        return settings
    }

    /// `tcsetattr(3)`: gives the terminal `file` these settings, not retried when interrupted.
    /// Async-signal-safe (a signal handler may put saved settings back).
    package static func setTerminalSettings(
        _ settings: TerminalSettings, of file: FileDescriptor, when change: TerminalSettingsChange
    ) throws(SystemCallError) {
        var settings = settings
        let action = change == .afterOutput ? TCSADRAIN : TCSAFLUSH
        try call("tcsetattr", retryingInterrupts: false) { tcsetattr(file.rawValue, action, &settings.value) }
    }

    /// Whether this process's group is the foreground process group of the terminal `file`
    /// (`tcgetpgrp(3)`, `getpgrp(2)`): the group the terminal's Ctrl-Z would stop.
    package static func isForegroundProcessGroup(of file: FileDescriptor) -> Bool {
        tcgetpgrp(file.rawValue) == getpgrp()
    }
}
