public import NotiplayCore

/// Identifies one file handed to ``PlaybackEngine/load(_:options:)``; events carry it so that a
/// consumer can ignore what belongs to an earlier file.
public struct PlaybackItemID: Sendable, Hashable, CustomStringConvertible {
    /// libmpv's playlist entry id, unique within one engine.
    public let rawValue: Int64
    /// Wraps a raw id.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { "#\(rawValue)" }
}

/// Where rendered audio goes.
public enum AudioOutput: Sendable, Equatable {
    /// Discard the audio, paced in real time, or as fast as it decodes when `untimed`.
    case null(untimed: Bool)
    /// Write exactly what was rendered to a WAV file at `path`; never paced.
    ///
    /// The engine opens and checks the file when it starts: a regular file on a disk, or a
    /// new one in a folder that exists — a device, a FIFO or a file of `/proc` or `/sys` is
    /// refused (``PlaybackFailure/captureFailed``). libmpv writes that open file. A write that
    /// fails meanwhile (a full disk) ends the file it hit with an error
    /// (``MPVEngine/captureFailure``).
    case pcm(path: String)
    /// The system's sound device (PipeWire, PulseAudio or ALSA); falls back to ``null(untimed:)``
    /// when there is none, announced once by a ``PlaybackEvent/Kind/outputFallback(using:)`` event.
    case system(untimedFallback: Bool)
    /// Play in real time, as through a sound card, and write what a listener heard to a WAV file
    /// at `path` (16-bit, ``pacedCaptureSampleRate`` Hz, ``pacedCaptureChannels`` channels).
    ///
    /// Pauses stop what is heard at once; a seek, a stop or a new file throws away what was
    /// buffered and not heard yet, as a sound card does; positions and `ended` follow what was
    /// heard. ``PlaybackEngine/heardSeconds`` tells how much so far. The file is created (or
    /// truncated) when the engine starts and holds a complete WAV header once the engine is shut
    /// down. Its folder must exist and be writable, and it must be a regular file on a disk, as
    /// for ``pcm(path:)``; a write that fails meanwhile (a full disk) ends the file it hit with an
    /// error, and nothing more is written.
    ///
    /// The audio reaches the capture through a named pipe, in a private folder the engine makes
    /// in `temporaryFolder` (a command line passes its `TMPDIR`) and removes at shutdown.
    case pacedCapture(path: String, temporaryFolder: String = "/tmp")

    /// The sample rate of a ``pacedCapture(path:temporaryFolder:)`` file, in hertz.
    public static let pacedCaptureSampleRate = 44_100
    /// The channels of a ``pacedCapture(path:temporaryFolder:)`` file. A mono file is heard on both, 3 dB
    /// quieter (libmpv's upmix).
    public static let pacedCaptureChannels = 2
}

/// How to start one file.
public struct PlaybackOptions: Sendable, Equatable {
    /// Load paused: the file opens, its duration is known, and nothing plays until ``PlaybackEngine/play()``.
    public var startPaused: Bool
    /// Start this many seconds into the file.
    public var start: Double?
    /// Stop rendering at this position, in seconds from the file's start (an exact segment).
    public var end: Double?
    /// The file's volume, from 0 (silent) to 100 (as decoded), as libmpv's `volume` property
    /// (whose curve is cubic); values outside are clamped. Each load sets it: another file's
    /// volume never carries over.
    public var volume: Double

    /// Creates options.
    public init(startPaused: Bool = false, start: Double? = nil, end: Double? = nil, volume: Double = 100) {
        self.startPaused = startPaused
        self.start = start
        self.end = end
        self.volume = volume
    }
}

/// A failure reported by libmpv, with its error code and message.
public struct PlaybackFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// libmpv's error code (`mpv_error`, always negative), for example -17.
    public var code: Int32
    /// libmpv's description of the code, for example "unrecognized file format".
    public var message: String
    /// The operation that failed, for example `loadfile` or `set pause`.
    public var operation: String

    /// Creates a failure.
    public init(code: Int32, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    /// `MPV_ERROR_AO_INIT_FAILED`: no audio output could be opened.
    public static let audioOutputInitFailed: Int32 = -14
    /// `MPV_ERROR_UNKNOWN_FORMAT`: the file could not be decoded.
    public static let unknownFormat: Int32 = -17
    /// `MPV_ERROR_LOADING_FAILED`: the file could not be opened.
    public static let loadingFailed: Int32 = -13
    /// `MPV_ERROR_NOTHING_TO_PLAY`: the file has no audio track.
    public static let nothingToPlay: Int32 = -16
    /// Not libmpv's: the ``AudioOutput/pacedCapture(path:temporaryFolder:)`` output could not be set up (its file,
    /// its pipe or its thread); the message tells which and why.
    public static let captureFailed: Int32 = -1003

    public var description: String { "\(operation): \(message) (\(code))" }
}

/// Why a file stopped playing.
public enum EndReason: Sendable, Equatable {
    /// The audio played to its end (or to ``PlaybackOptions/end``) and the output drained.
    case endOfFile
    /// ``PlaybackEngine/stop()``, a newer ``PlaybackEngine/load(_:options:)``, or shutdown.
    case stopped
    /// The file could not be played; an ``PlaybackEvent/Kind/error(_:)`` event came first.
    case failed(PlaybackFailure)
    /// The file was cut short (truncated) while it played: its audio ran out early, `at` this
    /// position in seconds, short of the end it had when it was opened. The file's data ended
    /// there; nothing failed in the engine.
    case truncated(at: Double)
}

/// Something that happened in the engine.
public struct PlaybackEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The file is open; its duration in seconds, when the container tells it.
        case loaded(duration: Double?)
        /// Audio is being rendered from this position (after loading, resuming or unpausing).
        case started(position: Double)
        /// Audio stopped at this position because of a pause.
        case paused(position: Double)
        /// The playback position moved (a few times a second while playing, and after seeks).
        case position(Double)
        /// The duration became known or changed.
        case duration(Double)
        /// The file stopped playing, for good.
        case ended(EndReason)
        /// libmpv reported an error with this file or the audio output.
        case error(PlaybackFailure)
        /// No sound device could be opened; audio goes to the named output instead (`null`).
        /// Sent at most once per engine.
        case outputFallback(using: String)
    }

    /// The file the event belongs to; `nil` for engine-wide events.
    public var item: PlaybackItemID?
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(item: PlaybackItemID?, _ kind: Kind) {
        self.item = item
        self.kind = kind
    }
}

/// The small, asynchronous face of an audio player: the rest of notiplay sees only this.
///
/// One engine plays many files in a row; each ``load(_:options:)`` replaces what was playing.
/// Conforming types deliver every event to every stream returned by ``events()``, in order.
public protocol PlaybackEngine: AnyObject, Sendable {
    /// A new stream of every event from now on. Subscribe before loading to miss nothing.
    func events() -> AsyncStream<PlaybackEvent>

    /// Opens `file` and starts it (or holds it paused, per `options`), replacing the current file.
    ///
    /// The file is opened here with ``AudioFile/open()``, which checks the open file as
    /// validation did, and the player reads that open file, never the path: a file swapped for
    /// a FIFO, a device or a link since it was validated is refused, and what was checked is
    /// what plays.
    /// - Returns: The id that this file's events carry.
    /// - Throws: `NotiplayError` (naming the file) if it no longer passes those checks;
    ///   ``PlaybackFailure`` if the engine refused the command. Decoding errors arrive later,
    ///   as events.
    func load(_ file: AudioFile, options: PlaybackOptions) async throws -> PlaybackItemID

    /// Resumes rendering the current file.
    func play() async throws
    /// Pauses rendering; the position stays where it is.
    func pause() async throws
    /// Moves to `seconds` from the start of the current file.
    func seek(to seconds: Double) async throws
    /// Stops the current file; its stream gets ``EndReason/stopped``.
    func stop() async throws
    /// Sets the volume of what plays now, as ``PlaybackOptions/volume`` does at a load: from 0
    /// (silent) to 100 (as decoded) on libmpv's scale (whose curve is cubic); values outside are
    /// clamped, NaN is 100. It lasts until the next ``load(_:options:)``, which sets its own.
    func setVolume(_ volume: Double) async throws
    /// The current position in seconds, or `nil` when nothing is loaded.
    func position() async -> Double?
    /// Seconds of audio a listener has heard so far, over every file this engine played, or `nil`
    /// when the output does not tell (only ``AudioOutput/pacedCapture(path:temporaryFolder:)`` does). Pauses,
    /// seeks and stops are taken into account: it grows in real time while audio plays, and only
    /// then. Readable from any thread, at any time, also after shutdown.
    var heardSeconds: Double? { get }
    /// Releases the player. Every event stream finishes; later calls throw.
    func shutdown() async
}

extension PlaybackEngine {
    /// `nil`: this engine does not measure what was heard.
    public var heardSeconds: Double? { nil }

    /// Loads `file` and waits until it ends, calling `observe` with each of its events and
    /// every engine-wide event.
    /// - Returns: Why it ended.
    public func playToEnd(
        _ file: AudioFile, options: PlaybackOptions = PlaybackOptions(),
        observe: (PlaybackEvent) -> Void = { _ in }
    ) async throws -> EndReason {
        let stream = events()
        let item = try await load(file, options: options)
        for await event in stream where event.item == item || event.item == nil {
            observe(event)
            if case .ended(let reason) = event.kind { return reason }
        }
        return .stopped
    }
}
