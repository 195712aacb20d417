internal import CMPV
import Dispatch
import Logging
import NotiplayCore

extension MPVEngine {
    /// Takes every pending event off libmpv's queue and acts on it. Runs on `queue`.
    ///
    /// Values are copied out of each event before the next `mpv_wait_event`, which frees it.
    func drainEvents() {
        dispatchPrecondition(condition: .onQueue(queue))
        while let h = handle, let event = mpv.wait_event(h, 0)?.pointee {
            if event.event_id == MPV_EVENT_NONE { break }
            handle(event)
            if event.event_id == MPV_EVENT_SHUTDOWN { break }
        }
    }

    private func handle(_ event: mpv_event) {
        switch event.event_id {
        case MPV_EVENT_START_FILE:
            guard let data = event.data else { return }
            let item = PlaybackItemID(data.assumingMemoryBound(to: mpv_event_start_file.self).pointee.playlist_entry_id)
            // libmpv plays its entries one at a time, in order: an earlier one still open was
            // replaced before it started, and will never be read.
            openFiles = openFiles.filter { $0.key.rawValue >= item.rawValue }
            finishDraining(except: item)
            if state.current != item {
                // Started by libmpv itself (not our `loadfile`): adopt it all the same.
                state.current = item
                state.active = true
            }
            state.restarted = false
            state.playing = false
            state.idle = false
            state.lastPosition = nil
            state.duration = nil
            state.loadedAnnounced = false
            state.idleOverdue = false

        case MPV_EVENT_HOOK:
            guard let data = event.data, let h = handle else { return }
            let hook = data.assumingMemoryBound(to: mpv_event_hook.self).pointee
            if event.reply_userdata == Self.unloadHookID {
                // libmpv waits here with the file's output still open.
                checkOutputFallback()
            } else if state.current != nil {
                state.duration = doubleProperty("duration")
            }
            _ = mpv.hook_continue(h, hook.id)

        case MPV_EVENT_FILE_LOADED:
            guard let item = state.current else { return }
            let duration = doubleProperty("duration") ?? state.duration
            state.duration = duration
            state.loadedAnnounced = true
            emit(.loaded(duration: duration), item: item)

        case MPV_EVENT_PLAYBACK_RESTART:
            guard let item = state.current, state.active else { return }
            if let target = state.deferredSeek {
                state.deferredSeek = nil
                do { try sendSeek(target) } catch { resumeSeekWaiters(throwing: error) }
                return
            }
            let awaited = !state.restarted
            state.restarted = true
            resumeSeekWaiters()
            checkOutputFallback()
            guard outputClock.playbackRestarted(awaited: awaited, engine: self) else { return }
            let position = state.restartPosition
            if !state.paused && !state.playing {
                state.playing = true
                emit(.started(position: position), item: item)
            } else {
                emit(.position(position), item: item)
            }

        case MPV_EVENT_END_FILE:
            guard let data = event.data else { return }
            let end = data.assumingMemoryBound(to: mpv_event_end_file.self).pointee
            let item = PlaybackItemID(end.playlist_entry_id)
            endFile(item, reason: end.reason, error: end.error)
            // libmpv closed its stream before it sent `END_FILE`.
            openFiles[item] = nil

        case MPV_EVENT_PROPERTY_CHANGE:
            guard let data = event.data, let property = ObservedProperty(rawValue: event.reply_userdata) else { return }
            propertyChanged(property, data.assumingMemoryBound(to: mpv_event_property.self).pointee)

        case MPV_EVENT_LOG_MESSAGE:
            guard let data = event.data else { return }
            forward(data.assumingMemoryBound(to: mpv_event_log_message.self).pointee)

        case MPV_EVENT_GET_PROPERTY_REPLY:
            var flag: Bool?
            if event.error >= 0, let data = event.data {
                let property = data.assumingMemoryBound(to: mpv_event_property.self).pointee
                if property.format == MPV_FORMAT_FLAG, let value = property.data {
                    flag = value.assumingMemoryBound(to: Int32.self).pointee != 0
                }
            }
            outputClock.propertyReplied(event.reply_userdata, flag: flag, engine: self)

        case MPV_EVENT_QUEUE_OVERFLOW:
            // Some notifications were lost: read the state afresh.
            logger.warning("libmpv event queue overflowed; refreshing state")
            outputClock.refreshAfterOverflow(engine: self)
            if let idle = flagProperty("idle-active") { updateIdle(idle) }

        default:
            break
        }
    }

    private func endFile(_ item: PlaybackItemID, reason: mpv_end_file_reason, error: Int32) {
        // A file the clock ended itself (a paced capture heard its end) is stopped in libmpv then.
        if outputClock.takeOwnEnd(of: item) { return }
        checkOutputFallback()
        let isCurrent = item == state.current
        if isCurrent {
            resumeSeekWaiters(throwing: PlaybackFailure(code: -1001, message: "the file ended", operation: "seek"))
            state.active = false
            state.playing = false
            state.restarted = false
        }
        switch reason {
        case MPV_END_FILE_REASON_EOF:
            let ending = isCurrent ? endOfFileReason(of: item, at: state.lastPosition ?? state.restartPosition) : .endOfFile
            guard isCurrent else { return emit(.ended(ending), item: item) }
            // The last audio is still in the output's buffer: `ended` waits for `idle-active`
            // (and for a paced capture to have played it; with `keep-open` this is rare).
            state.draining = item
            state.drainingReason = ending
            checkDrain()
            queue.asyncAfter(deadline: .now() + .seconds(3)) { [weak self] in
                guard let self, self.state.draining == item else { return }
                self.logger.debug("no idle-active after end of file \(item); ending it anyway")
                self.state.idleOverdue = true
                self.checkDrain()
            }
        case MPV_END_FILE_REASON_ERROR:
            let failure = mpv.failure(error, "play")
            emit(.error(failure), item: item)
            emit(.ended(.failed(failure)), item: item)
        case MPV_END_FILE_REASON_REDIRECT:
            // A playlist: never follow its entries.
            if let h = handle {
                _ = mpv.command_string(h, "playlist-clear")
                _ = mpv.command_string(h, "stop")
            }
            let failure = PlaybackFailure(
                code: PlaybackFailure.unknownFormat,
                message: "the file is a playlist, which notiplay does not follow", operation: "play")
            emit(.error(failure), item: item)
            emit(.ended(.failed(failure)), item: item)
        default:  // STOP, QUIT
            emit(.ended(.stopped), item: item)
        }
    }

    /// Ends the file still draining once libmpv is idle (or said nothing for 3 s), the output
    /// played all it was given, and (for a `pcm` file) libmpv closed it.
    func checkDrain() {
        guard state.draining != nil, state.idle || state.idleOverdue, outputClock.heardAll,
            state.idleOverdue || outputClock.outputClosed(engine: self)
        else { return }
        finishDraining(except: nil)
    }

    /// How the file still draining ends if cut now: as it reached its end, or stopped before it
    /// was all heard.
    func drainingEndReason() -> EndReason {
        outputClock.heardAll ? state.drainingReason : .stopped
    }

    /// Sends the `ended` event of a file whose audio finished draining, unless it is `except`.
    /// With `except`, another file has begun: the output's capture now takes that one, and is not
    /// checked.
    func finishDraining(except item: PlaybackItemID?) {
        guard let draining = state.draining, draining != item else { return }
        state.draining = nil
        guard item == nil else { return emit(.ended(state.drainingReason), item: draining) }
        endHeardFile(draining, state.drainingReason)
    }

    /// Sends the `ended` event of `item`, whose audio was all heard, libmpv being idle: `reason`,
    /// unless the output's capture file failed to take it (then an `error` and a failed end).
    func endHeardFile(_ item: PlaybackItemID, _ reason: EndReason) {
        if let failure = outputClock.captureFailure(engine: self) {
            found(failure)
            logger.error("\(failure.message)")
            emit(.error(failure), item: item)
            emit(.ended(.failed(failure)), item: item)
        } else {
            emit(.ended(reason), item: item)
        }
    }

    /// How `item`, which libmpv read to its end, ended: at its end, or ``EndReason/truncated(at:)``
    /// at `position` when the open file is shorter now than when it was opened (it was cut while
    /// it played, so its audio ran out early).
    func endOfFileReason(of item: PlaybackItemID, at position: Double) -> EndReason {
        guard let opened = openFiles[item], opened.wasTruncated else { return .endOfFile }
        logger.debug("\(opened.file.displayName) was cut short while it played; its audio ended at \(position) s")
        return .truncated(at: position)
    }

    private func propertyChanged(_ property: ObservedProperty, _ change: mpv_event_property) {
        switch property {
        case .pause:
            guard change.format == MPV_FORMAT_FLAG, let data = change.data else { return }
            outputClock.libmpvReported(.pause(data.assumingMemoryBound(to: Int32.self).pointee != 0), engine: self)
        case .idleActive:
            guard change.format == MPV_FORMAT_FLAG, let data = change.data else { return }
            updateIdle(data.assumingMemoryBound(to: Int32.self).pointee != 0)
        case .timePos:
            guard change.format == MPV_FORMAT_DOUBLE, let data = change.data else { return }
            outputClock.libmpvReported(.timePos(data.assumingMemoryBound(to: Double.self).pointee), engine: self)
        case .duration:
            guard change.format == MPV_FORMAT_DOUBLE, let data = change.data,
                let item = state.current, state.active, state.loadedAnnounced
            else { return }
            let duration = data.assumingMemoryBound(to: Double.self).pointee
            guard duration != state.duration else { return }
            state.duration = duration
            emit(.duration(duration), item: item)
        case .currentAO:
            checkOutputFallback()
            // A `pcm` file's output closing is what its end waits for.
            checkDrain()
        case .eofReached:
            guard change.format == MPV_FORMAT_FLAG, let data = change.data else { return }
            outputClock.libmpvReported(.eofReached(data.assumingMemoryBound(to: Int32.self).pointee != 0), engine: self)
        }
    }

    /// Announces, once, that the system output fell back to `null`. Checked when the property
    /// changes, at each restart and end, and in the `on_unload` hook, where libmpv waits with the
    /// output still open: so the notice always comes before the `ended` of the file that found no
    /// device, however fast that file played and however late the queue took its events.
    func checkOutputFallback() {
        guard case .system = output, !state.fallbackAnnounced, let h = handle,
            let name = mpv.get_property_string(h, "current-ao")
        else { return }
        defer { mpv.free(name) }
        guard String(cString: name) == "null" else { return }
        state.fallbackAnnounced = true
        logger.notice("no sound device could be opened; playing silently on the null output")
        emit(.outputFallback(using: "null"), item: nil)
    }

    private func updateIdle(_ idle: Bool) {
        state.idle = idle
        guard idle else { return }
        checkDrain()
    }

    private func forward(_ message: mpv_event_log_message) {
        let prefix = message.prefix.map { String(cString: $0) } ?? "mpv"
        var text = message.text.map { String(cString: $0) } ?? ""
        while text.last == "\n" { text.removeLast() }
        let level: Logger.Level =
            switch message.log_level {
            case MPV_LOG_LEVEL_FATAL, MPV_LOG_LEVEL_ERROR: .error
            case MPV_LOG_LEVEL_WARN: .warning
            case MPV_LOG_LEVEL_INFO: .debug
            default: .trace
            }
        logger.log(level: level, "[\(prefix)] \(text)", source: "libmpv")
    }

    // MARK: Property reads (on `queue`)

    /// Whether libmpv's property `name` is available now (`current-ao` is not while no output
    /// is open).
    func hasProperty(_ name: String) -> Bool {
        guard let h = handle, let value = mpv.get_property_string(h, name) else { return false }
        mpv.free(value)
        return true
    }

    func doubleProperty(_ name: String) -> Double? {
        guard let h = handle else { return nil }
        var value = 0.0
        return mpv.get_property(h, name, MPV_FORMAT_DOUBLE, &value) >= 0 ? value : nil
    }

    func flagProperty(_ name: String) -> Bool? {
        guard let h = handle else { return nil }
        var value: Int32 = 0
        return mpv.get_property(h, name, MPV_FORMAT_FLAG, &value) >= 0 ? value != 0 : nil
    }
}
