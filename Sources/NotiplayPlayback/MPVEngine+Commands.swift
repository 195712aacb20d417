import CMPV
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Dispatch
import NotiplayCore

extension MPVEngine {
    /// Runs `body` on `queue` and hands back its result.
    @discardableResult
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    public func load(_ file: AudioFile, options: PlaybackOptions) async throws -> PlaybackItemID {
        try await onQueue { try self.loadNow(file, options: options) }
    }

    public func play() async throws {
        try await onQueue { try self.setPause(false) }
    }

    public func pause() async throws {
        try await onQueue { try self.setPause(true) }
    }

    /// Returns once the seek is done: libmpv restarted playback at the new position, so a
    /// `play()` that follows renders from there, even on an unpaced output.
    public func seek(to seconds: Double) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    try self.requireActive("seek")
                    let target = max(0, seconds.isFinite ? seconds : 0)
                    if self.state.restarted {
                        try self.sendSeek(target)
                    } else {
                        // A seek sent before the first restart lands late, after the output has
                        // taken a buffer from the old position: hold it until the file is ready.
                        self.state.deferredSeek = target
                    }
                    self.state.seekWaiters.append(waiter)
                } catch {
                    waiter.resume(throwing: error)
                }
            }
        }
    }

    func sendSeek(_ target: Double) throws {
        var exact = target
        if let capture {
            try holdForRestart(capture)
            // A quarter of a sample later: libmpv's exact seek to a sample's time may start one
            // sample early (1.5 s at 44.1 kHz gives sample 66,149); a capture must hear the rest
            // of the file from that very sample, no more, no less.
            exact += 0.25 / Double(capture.sampleRate)
        }
        try command(["seek", Self.timeString(exact), "absolute+exact"], "seek")
        state.restarted = false
        state.restartPosition = target
    }

    /// Resumes every `seek(to:)` caller; with `error`, they throw it.
    func resumeSeekWaiters(throwing error: (any Error)? = nil) {
        let waiters = state.seekWaiters
        state.seekWaiters = []
        state.deferredSeek = nil
        for waiter in waiters {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
    }

    public func stop() async throws {
        try await onQueue {
            if let capture = self.capture { self.stopPaced(capture) }
            try self.command(["stop"], "stop")
        }
    }

    public func position() async -> Double? {
        try? await onQueue {
            if let capture = self.capture { return self.pacedPosition(capture) }
            return self.state.active ? self.doubleProperty("time-pos") : nil
        }
    }

    // MARK: On `queue`

    func loadNow(_ file: AudioFile, options: PlaybackOptions) throws -> PlaybackItemID {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        if let capture {
            // The end of a file libmpv gave up on is not heard any more.
            if let draining = state.draining, !capture.isDrained {
                state.draining = nil
                emit(.ended(.stopped), item: draining)
            }
            // libmpv loads paused; the new file's restart lets it play (`startPacedAudio`).
            try holdForRestart(capture)
        } else {
            var paused: Int32 = options.startPaused ? 1 : 0
            try PlaybackFailure.check(mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &paused), "set pause")
        }
        try PlaybackFailure.check(
            mpv_set_property_string(h, "start", options.start.map(Self.timeString) ?? "none"), "set start")
        try PlaybackFailure.check(
            mpv_set_property_string(h, "end", options.end.map(Self.timeString) ?? "none"), "set end")
        // `file.path` is absolute, so libmpv can never read it as a URL or an option.
        let result = try command(["loadfile", file.path, "replace"], "loadfile")
        guard let id = result else {
            throw PlaybackFailure(code: -1, message: "libmpv returned no playlist entry id", operation: "loadfile")
        }
        let item = PlaybackItemID(id)
        resumeSeekWaiters(throwing: PlaybackFailure(code: -1002, message: "another file was loaded", operation: "seek"))
        finishDraining(except: item)
        state.current = item
        state.active = true
        state.paused = options.startPaused
        state.restarted = false
        state.playing = false
        state.restartPosition = max(0, options.start ?? 0)
        state.eofReached = false
        state.aligned = false
        return item
    }

    func setPause(_ paused: Bool) throws {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        if let capture { return try setPacedPause(paused, capture) }
        try requireActive(paused ? "pause" : "play")
        var flag: Int32 = paused ? 1 : 0
        try PlaybackFailure.check(mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &flag), "set pause")
        // libmpv coalesces property notifications (a quick pause and play may bring none), so our
        // own change is applied now; the notification, when it comes, finds nothing to do.
        updatePause(paused)
    }

    func requireActive(_ operation: String) throws {
        guard handle != nil else { throw PlaybackFailure.engineClosed }
        guard state.active else {
            throw PlaybackFailure(code: -1001, message: "nothing is loaded (or the file has ended)", operation: operation)
        }
    }

    /// Runs a libmpv command; returns the `playlist_entry_id` of its result, if it has one.
    @discardableResult
    func command(_ words: [String], _ operation: String) throws -> Int64? {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        let copies = words.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var args: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        var result = mpv_node()
        let status = args.withUnsafeMutableBufferPointer { mpv_command_ret(h, $0.baseAddress, &result) }
        try PlaybackFailure.check(status, operation)
        defer { mpv_free_node_contents(&result) }
        return Self.integer(named: "playlist_entry_id", in: result)
    }

    /// Reads an integer member of a `MPV_FORMAT_NODE_MAP` node.
    static func integer(named key: String, in node: mpv_node) -> Int64? {
        guard node.format == MPV_FORMAT_NODE_MAP, let list = node.u.list?.pointee else { return nil }
        for i in 0..<Int(list.num) {
            guard let name = list.keys?[i], String(cString: name) == key else { continue }
            let value = list.values[i]
            if value.format == MPV_FORMAT_INT64 { return value.u.int64 }
        }
        return nil
    }

    /// A time in seconds as libmpv parses it: plain decimal, never exponent notation.
    static func timeString(_ seconds: Double) -> String {
        let micro = Int64((max(0, seconds.isFinite ? seconds : 0) * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
