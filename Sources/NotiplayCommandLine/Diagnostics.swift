import NotiplayCore
import Synchronization
import SystemPackage

/// Where the command line's own messages for the user go: standard error, or the copy of it kept
/// aside while native libraries' output is captured (see `NativeStderrCapture` in
/// NotiplayPlayback).
///
/// It lives in the command line because only the command line owns the process's descriptors:
/// the libraries write to descriptors they are given (``HostEnvironment/commandOutput``) and report
/// through errors and events, never to descriptor 2 by themselves.
final class Diagnostics: Sendable {
    /// The process-wide instance.
    static let shared = Diagnostics()

    private let descriptor = Atomic<Int32>(FileDescriptor.standardError.rawValue)

    /// The descriptor written to: standard error until something redirects it.
    var fileDescriptor: FileDescriptor {
        get { FileDescriptor(rawValue: descriptor.load(ordering: .acquiring)) }
        set { descriptor.store(newValue.rawValue, ordering: .releasing) }
    }

    /// Writes `text` as it is; add the newline yourself.
    func write(_ text: String) {
        _ = try? fileDescriptor.writeAll(text.utf8)
    }

    /// Writes `TOOL: MESSAGE` and a newline, TOOL being the tool's name (`notiplay`, or an
    /// author's tool's, ``NotiplayCLI/commandName``); a command the message names as
    /// `` `notiplay serve` `` is named after the tool too. A control character in MESSAGE (from
    /// a file name or a key it quotes) is written as a visible escape, `\u{1B}`, never raw.
    func report(_ message: String) {
        write("\(Self.forTool(TerminalText.visible(message, keepNewlines: true), named: NotiplayCLI.commandName))\n")
    }

    /// `TOOL: MESSAGE`, with `` `notiplay `` in MESSAGE (the libraries name commands so) made
    /// `` `TOOL ``.
    static func forTool(_ message: String, named tool: String) -> String {
        let text = tool == "notiplay" ? message : message.replacing("`notiplay ", with: "`\(tool) ")
        return "\(tool): \(text)"
    }
}
