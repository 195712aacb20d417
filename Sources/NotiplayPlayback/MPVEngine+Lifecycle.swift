internal import CMPV
import Dispatch
import Logging

/// Reply ids of the observed properties.
enum ObservedProperty: UInt64, CaseIterable {
    case pause = 1, timePos, duration, idleActive, currentAO, eofReached

    var name: String {
        switch self {
        case .pause: "pause"
        case .timePos: "time-pos"
        case .duration: "duration"
        case .idleActive: "idle-active"
        case .currentAO: "current-ao"
        case .eofReached: "eof-reached"
        }
    }

    var format: mpv_format {
        switch self {
        case .pause, .idleActive, .eofReached: MPV_FORMAT_FLAG
        case .timePos, .duration: MPV_FORMAT_DOUBLE
        case .currentAO: MPV_FORMAT_STRING
        }
    }
}

extension MPVEngine {
    /// The options every handle gets: a quiet, audio-only player that opens plain files only.
    static let baseOptions: [(String, String)] = [
        ("config", "no"),
        ("terminal", "no"),
        ("input-default-bindings", "no"),
        ("input-vo-keyboard", "no"),
        // No Lua at all: `load-scripts` covers script folders only; the built-in stats, console
        // and auto-profiles scripts have switches of their own.
        ("load-scripts", "no"),
        ("load-stats-overlay", "no"),
        ("load-osd-console", "no"),
        ("load-auto-profiles", "no"),
        ("osc", "no"),
        ("ytdl", "no"),
        ("vid", "no"),
        ("audio-display", "no"),
        ("sub-auto", "no"),
        ("audio-file-auto", "no"),
        ("cover-art-auto", "no"),
        ("resume-playback", "no"),
        ("save-position-on-quit", "no"),
        // Audio only: no OSD or subtitles are ever drawn, so libass needs no fonts.
        ("sid", "no"),
        ("osd-level", "0"),
        ("sub-font-provider", "none"),
        ("idle", "yes"),
        ("keep-open", "no"),
        // Never follow playlists, archives, CUE sheets or references: libavformat only.
        ("demuxer", "lavf"),
        ("access-references", "no"),
        ("load-unsafe-playlists", "no"),
    ]

    /// The clock of `output`, with its libmpv options; a paced capture starts here (its file,
    /// its pipe, its reader thread), paced by `pacingClock`.
    static func makeClock(for output: AudioOutput, pacingClock: any PacingClock) throws -> any OutputClock {
        switch output {
        case .null(let untimed):
            LibmpvClock(libmpvOptions: [("ao", "null"), ("ao-null-untimed", untimed ? "yes" : "no")])
        case .pcm(let path):
            try pcmClock(path)
        case .system(let untimed):
            // libmpv's own probe order on Linux without `jack` and `sdl`, then null so that
            // playback never fails for want of a device; `current-ao` tells whether the fallback
            // was taken. libjack and SDL keep process-wide state that two players opening and
            // closing outputs at once corrupt: eight libmpv players in one process, ten files
            // each, with no sound card, crashed in 2 runs of 4 with `sdl,null` and 2 of 6 with
            // `jack,null` (a call through a null pointer on "mpv/mpv core", as a test run once
            // did) or hung, never in 15 with `pipewire,pulse,alsa,null` or its parts. A
            // JACK-only machine plays through PipeWire's JACK.
            LibmpvClock(libmpvOptions: [
                ("ao", Self.systemOutputs), ("ao-null-untimed", untimed ? "yes" : "no"),
            ])
        case .pacedCapture(let path, let temporaryFolder):
            try PacedCaptureClock(path: path, temporaryFolder: temporaryFolder, pacingClock: pacingClock)
        }
    }

    /// The clock of the `pcm` output: libmpv writes the capture file the engine opened and
    /// checked, through /proc, never the path it was given.
    private static func pcmClock(_ path: String) throws(PlaybackFailure) -> LibmpvClock {
        let file = try PCMCaptureFile(path: path)
        return LibmpvClock(
            libmpvOptions: [("ao", "pcm"), ("ao-pcm-file", file.libmpvPath), ("ao-pcm-waveheader", "yes")], pcm: file)
    }

    /// The outputs the system output tries, in order: each one safe with several players in a
    /// process.
    static let systemOutputs = "pipewire,pulse,alsa,null"

    /// The hook that holds a newly opened file until its duration was read.
    static let preloadedHook = "on_preloaded"
    /// The hook that holds a file's end while its output is still open (system output only):
    /// which output libmpv chose is read there, however late the engine's queue takes the
    /// file's events.
    static let unloadHook = "on_unload"
    /// The reply ids of the hooks' events.
    static let preloadedHookID: UInt64 = 0
    static let unloadHookID: UInt64 = 1

    /// Creates, configures and initializes the handle. Runs on `queue`.
    func start() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let h = mpv.create() else {
            throw PlaybackFailure(code: -1, message: "libmpv could not create a player (out of memory?)", operation: "mpv_create")
        }
        do {
            for (name, value) in Self.baseOptions + outputClock.libmpvOptions {
                try mpv.check(mpv.set_option_string(h, name, value), "option \(name)=\(value)")
            }
            try mpv.check(mpv.initialize(h), "mpv_initialize")
            try mpv.check(mpv.request_log_messages(h, Self.mpvLogLevel(for: logger.logLevel)), "request log messages")
            for property in ObservedProperty.allCases {
                try mpv.check(
                    mpv.observe_property(h, property.rawValue, property.name, property.format),
                    "observe \(property.name)")
            }
            // The duration is read while libmpv waits in this hook: read at FILE_LOADED, it is
            // gone when an unpaced output has already played the file to its end.
            try mpv.check(mpv.hook_add(h, Self.preloadedHookID, Self.preloadedHook, 0), "add hook \(Self.preloadedHook)")
            // `current-ao` is gone once libmpv is idle: read at `END_FILE` or at a restart that
            // the queue takes late (a loaded machine, an untimed file that ends in milliseconds),
            // the fallback notice would be lost.
            if case .system = output {
                try mpv.check(mpv.hook_add(h, Self.unloadHookID, Self.unloadHook, 0), "add hook \(Self.unloadHook)")
            }
        } catch {
            mpv.terminate_destroy(h)
            throw error
        }
        handle = h
    }

    public func shutdown() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                self.close()
                done.resume()
            }
        }
    }

    /// Ends every file, destroys the handle and finishes every event stream. Runs on `queue`.
    ///
    /// With a paced capture: what was not heard yet is thrown away (a write of libmpv's blocked on
    /// the pipe ends at once), libmpv closes its output, then the capture finishes its WAV file
    /// and removes its pipe. With a capture, a write failure not reported yet is reported then.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let h = handle else { return }
        mpv.set_wakeup_callback(h, nil, nil)
        drainEvents()
        resumeSeekWaiters(throwing: PlaybackFailure.engineClosed)
        if let draining = state.draining {
            emit(.ended(drainingEndReason()), item: draining)
        } else if state.active, let current = state.current {
            emit(.ended(.stopped), item: current)
        }
        state = State()
        outputClock.releaseOutput()
        mpv.terminate_destroy(h)
        handle = nil
        // libmpv is gone: nothing reads the files any more.
        openFiles = [:]
        // Its output is closed: the capture file is complete, and tells whether a write failed
        // since the last file's end was checked.
        if captureFailure == nil, let failure = outputClock.captureFailure(engine: self) {
            found(failure)
            logger.error("\(failure.message)")
            emit(.error(failure), item: nil)
        }
        outputClock.finish()
        finishSubscribers()
    }

    /// libmpv's message level matching a logger's level. libmpv's own chatter (its `info`
    /// lines: tracks, outputs, files) is logged at `debug`, its `v` and `debug` lines at `trace`,
    /// so that a host that logs at `info` (swift-log's default) sees only libmpv's warnings.
    static func mpvLogLevel(for level: Logger.Level) -> String {
        switch level {
        case .trace: "debug"
        case .debug: "info"
        case .info, .notice, .warning: "warn"
        case .error: "error"
        case .critical: "fatal"
        }
    }
}
