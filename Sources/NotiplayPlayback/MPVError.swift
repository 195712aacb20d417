internal import CMPV

extension notiplay_mpv_functions {
    /// A failure for libmpv status `code` from `operation`, in libmpv's words.
    func failure(_ code: Int32, _ operation: String) -> PlaybackFailure {
        let message = error_string(code).map { String(cString: $0) } ?? "error \(code)"
        return PlaybackFailure(code: code, message: message, operation: operation)
    }

    /// Throws unless `status` is success (zero or positive), naming the call.
    @discardableResult
    func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(PlaybackFailure) -> Int32 {
        if status < 0 { throw failure(status, operation()) }
        return status
    }
}

extension PlaybackFailure {
    /// The engine was shut down.
    static let engineClosed = PlaybackFailure(code: -1000, message: "the playback engine is shut down", operation: "engine")
}
