/// Checks messages meant for people: each must be safe to print on a terminal as it is.
public enum MessageOracle {
    /// Fails when any of `messages` holds a character that must not reach a terminal.
    public static func check(_ messages: [String], _ what: String) {
        for message in messages {
            if let violation = TerminalOracle.violation(inText: message) {
                oracleFailure("\(what) holds a \(violation): \(message.debugDescription)")
            }
        }
    }
}
