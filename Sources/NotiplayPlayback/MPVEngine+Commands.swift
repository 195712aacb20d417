internal import CMPV
import Dispatch
public import NotiplayCore
import Logging

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
        let exact = try outputClock.prepareSeek(to: target, engine: self)
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
            self.outputClock.prepareStop(engine: self)
            try self.command(["stop"], "stop")
        }
    }

    public func setVolume(_ volume: Double) async throws {
        try await onQueue { try self.setLibmpvVolume(volume) }
    }

    public func position() async -> Double? {
        try? await onQueue { self.outputClock.position(engine: self) }
    }

    // MARK: On `queue`

    func loadNow(_ file: AudioFile, options: PlaybackOptions) throws -> PlaybackItemID {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        // A file whose end the output has not played yet (libmpv is done with it) is cut short.
        if let draining = state.draining, !outputClock.heardAll {
            state.draining = nil
            emit(.ended(.stopped), item: draining)
        }
        // Opened and checked now; libmpv reads this descriptor (`fd://`, which it neither opens
        // nor closes), never the path: what was checked is what plays.
        let opened = try file.open()
        try outputClock.prepareLoad(options, engine: self)
        try mpv.check(
            mpv.set_property_string(h, "start", options.start.map(Self.timeString) ?? "none"), "set start")
        try mpv.check(
            mpv.set_property_string(h, "end", options.end.map(Self.timeString) ?? "none"), "set end")
        try setLibmpvVolume(options.volume)
        let result = try command(["loadfile", "fd://\(opened.descriptor)", "replace"], "loadfile")
        guard let id = result else {
            throw PlaybackFailure(code: -1, message: "libmpv returned no playlist entry id", operation: "loadfile")
        }
        let item = PlaybackItemID(id)
        openFiles[item] = opened
        resumeSeekWaiters(throwing: PlaybackFailure(code: -1002, message: "another file was loaded", operation: "seek"))
        finishDraining(except: item)
        state.current = item
        state.active = true
        state.paused = options.startPaused
        state.restarted = false
        state.playing = false
        // The new file's first position is sent at once, not up to an interval after the last
        // file's last one.
        state.positionSent = nil
        state.restartPosition = max(0, options.start ?? 0)
        state.lastPosition = nil
        return item
    }

    func setPause(_ paused: Bool) throws {
        try outputClock.setPause(paused, engine: self)
    }

    func requireActive(_ operation: String) throws {
        guard handle != nil else { throw PlaybackFailure.engineClosed }
        guard state.active else {
            throw PlaybackFailure(code: -1001, message: "nothing is loaded (or the file has ended)", operation: operation)
        }
    }

    // MARK: libmpv calls for the clocks (on `queue`)

    /// Sets libmpv's `pause` property.
    func setLibmpvPause(_ paused: Bool) throws {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        var flag: Int32 = paused ? 1 : 0
        try mpv.check(mpv.set_property(h, "pause", MPV_FORMAT_FLAG, &flag), "set pause")
    }

    /// Sets libmpv's `volume` property, 0 to 100 (clamped; NaN is 100).
    func setLibmpvVolume(_ volume: Double) throws {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        var value = volume.isNaN ? 100 : min(max(volume, 0), 100)
        try mpv.check(mpv.set_property(h, "volume", MPV_FORMAT_DOUBLE, &value), "set volume")
    }

    /// Closes libmpv's output (it opens it again when audio comes): what libc buffered in front
    /// of it is written out. Only while libmpv is paused: its queued audio is dropped.
    func reloadOutput() {
        guard let h = handle else { return }
        let status = mpv.command_string(h, "ao-reload")
        if status < 0 { logger.debug("ao-reload: \(mpv.failure(status, "ao-reload"))") }
    }

    /// Asks libmpv for the flag property `name` without waiting; the answer comes as an event,
    /// tagged `userdata`, to ``OutputClock/propertyReplied(_:flag:engine:)``. Returns whether
    /// libmpv took the question.
    func requestFlag(_ name: String, userdata: UInt64) -> Bool {
        guard let h = handle else { return false }
        return mpv.get_property_async(h, userdata, name, MPV_FORMAT_FLAG) >= 0
    }

    /// Runs a libmpv command; returns the `playlist_entry_id` of its result, if it has one.
    @discardableResult
    func command(_ words: [String], _ operation: String) throws -> Int64? {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        // C copies of the words (with their terminating zero), for as long as the call lasts.
        let copies = words.map { word -> UnsafeMutablePointer<CChar> in
            let characters = word.utf8CString
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
            characters.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: $0.count) }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        var args: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        var result = mpv_node()
        let status = args.withUnsafeMutableBufferPointer { mpv.command_ret(h, $0.baseAddress, &result) }
        try mpv.check(status, operation)
        defer { mpv.free_node_contents(&result) }
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
