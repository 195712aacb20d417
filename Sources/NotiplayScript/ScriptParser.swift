/// Reads `.playback` scripts into ``PlaybackScript`` values.
///
/// The language (the catalogue's "The script language" article) is line-based: one step per
/// line, `#` starts a comment outside strings, tokens are separated by spaces or tabs, and an argument with spaces is
/// written in double quotes (`\"` and `\\` escape a quote and a backslash). Paths are relative
/// to the script's folder. Durations are `250ms`, `1.5s`, `15m`, `2h`, `7d` or a bare number of
/// seconds: from 0 to 1 hour in card steps, more than 0 and up to 3650 days in the notification
/// center's. Every error names the line and column of the token at fault, or both lines when two
/// steps may not go together.
///
/// ```
/// app NagMe.app.json
/// deliver nagme.apns attach memo.m4a
/// expect button play
/// press play
/// wait until mediaPlayingStarted timeout 2s
/// expect heard >= 500ms
/// ```
public enum ScriptParser {
    /// The event names `expect event`, `expect no event` and `wait until` accept.
    public static let eventNames: [String] = [
        "didReceive", "mediaPlay", "mediaPause", "mediaPlayingStarted", "mediaPlayingPaused", "buttonState",
        "action", "actions", "response", "forwarded", "dismissed", "playback", "error", "command", "service",
        "removed", "control",
    ]

    /// The first word of every step.
    public static let stepNames: [String] = [
        "app", "extensions", "deliver", "press", "click", "tap", "action", "default", "dismiss", "wait", "seek", "resize",
        "expect", "serve", "send", "advance", "restart", "focus",
    ]

    /// What may follow `expect`.
    public static let expectationNames: [String] = [
        "event", "no event", "button", "response", "forwarded", "dismissed", "actions", "extension", "screen",
        "position", "heard", "error", "pending", "delivered", "not delivered", "sound", "no sound",
    ]

    /// The largest script file ``parse(contentsOf:)`` reads: 1 MB (1,048,576 bytes).
    public static let maximumFileSize = 1 << 20

    /// Parses `text` (the script's contents); `path` names it in errors and its folder resolves relative paths.
    ///
    /// - Parameters:
    ///   - text: The script. A byte-order mark at its start is skipped; lines end with `\n` or `\r\n`.
    ///   - path: The script's path as the user gave it; a relative one is taken from the current directory.
    /// - Returns: The steps, with every path made absolute.
    /// - Throws: ``ScriptError`` at the first mistake, or at line 0 when nothing is delivered or served.
    public static func parse(_ text: String, path: String) throws(ScriptError) -> PlaybackScript {
        let folder = ScriptPath.folder(of: path)
        var steps: [ScriptStep] = []
        var order = StepOrder(path: path)
        for line in ScriptLexer.lines(of: text) {
            let tokens = try ScriptLexer.tokens(of: line.scalars, number: line.number, path: path)
            guard let first = tokens.first else { continue }
            var reader = StepReader(tokens: tokens, line: line.number, path: path, folder: folder)
            let step = ScriptStep(line: line.number, column: first.column, kind: try reader.step())
            try order.admit(step)
            steps.append(step)
        }
        try order.finish()
        return PlaybackScript(path: path, steps: steps)
    }

    /// Reads and parses a file: a missing or unreadable file, a directory, non-UTF-8 or NUL bytes, or a file over 1 MB is a ScriptError at line 0 column 0 (or the place of the bad byte) with a clear message.
    ///
    /// - Parameter path: The script's path; relative paths in it are resolved against its folder.
    /// - Throws: ``ScriptError``: at line 0, column 0 for a file that cannot be read, at the
    ///   place of the first NUL byte or invalid UTF-8 sequence, or as ``parse(_:path:)`` does.
    public static func parse(contentsOf path: String) throws(ScriptError) -> PlaybackScript {
        let bytes = try ScriptFile.contents(of: path, cap: maximumFileSize)
        let text = try ScriptFile.decode(bytes, path: path)
        return try parse(text, path: path)
    }
}
