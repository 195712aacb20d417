internal import CMPV

extension PlaybackFailure {
    /// A failure for libmpv status `code` from `operation`.
    init(mpv code: Int32, _ operation: String) {
        self.init(code: code, message: Self.message(for: code), operation: operation)
    }

    /// libmpv's text for an error code.
    static func message(for code: Int32) -> String {
        guard let text = mpv_error_string(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Throws unless `status` is success (zero or positive), naming the call.
    @discardableResult
    static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(PlaybackFailure) -> Int32 {
        if status < 0 { throw PlaybackFailure(mpv: status, operation()) }
        return status
    }

    /// The engine was shut down.
    static let engineClosed = PlaybackFailure(code: -1000, message: "the playback engine is shut down", operation: "engine")
}
