import Logging
import NotiplayCore
import NotiplayPlayback
import NotiplaySystem
import SystemPackage

/// The value of `--audio`: `null`, `auto` or `pcm:PATH`.
enum AudioOutputArgument: Equatable {
    case null
    case auto
    case pcm(String)

    /// Reads `--audio`'s value.
    /// - Throws: A usage error for anything but `null`, `auto` or `pcm:PATH` (a path after
    ///   `pcm:`).
    init(_ argument: String) throws(UsageError) {
        switch argument {
        case "null": self = .null
        case "auto": self = .auto
        default:
            guard argument.hasPrefix("pcm:"), argument.count > 4 else {
                throw UsageError("must be null, auto or pcm:PATH")
            }
            self = .pcm(String(argument.dropFirst(4)))
        }
    }

    /// Whether descriptor 2 is already captured (it is captured once per process; a presenter's
    /// is the server's capture already).
    nonisolated(unsafe) static var capturing = false

    /// Starts the libmpv engine on this output. When notiplay owns the process (``NotiplayCLI/main(types:)``),
    /// the audio stack's own messages on descriptor 2 are captured into the logger, once, and
    /// ``Diagnostics`` writes to the copy of standard error kept aside; a caller of
    /// ``NotiplayCLI/run(_:types:)`` keeps its standard error as it was.
    func startEngine(untimed: Bool) throws(NotiplayError) -> MPVEngine {
        let output = output(untimed: untimed)
        // Under an OutputCapture, descriptor 2 is already a pipe that sends the audio stack's
        // lines to the same logger.
        if NotiplayCLI.ownsProcess && !Self.capturing && OutputCapture.current == nil {
            if let saved = NativeStderrCapture.install(logger: Logger(label: "native")) {
                Diagnostics.shared.fileDescriptor = FileDescriptor(rawValue: saved)
                Self.capturing = true
            }
        }
        do {
            return try MPVEngine(output: output, logger: Logger(label: "libmpv"))
        } catch let error as LibmpvUnavailable {
            throw NotiplayError(.unavailable, "\(error)")
        } catch let failure as PlaybackFailure where failure.code == PlaybackFailure.captureFailed {
            // "cannot write the audio capture file PATH: why".
            throw NotiplayError(.unavailable, failure.message)
        } catch {
            throw NotiplayError(.unavailable, "libmpv could not start: \(error)")
        }
    }

    /// The output of the server's second engine, for arrival sounds: this one, but the null
    /// output instead of a capture file, which holds the cards' media alone (two engines
    /// writing one file would interleave their samples).
    var arrivalSounds: AudioOutputArgument {
        if case .pcm = self { .null } else { self }
    }

    /// The engine's output. For `pcm:PATH`, the engine checks the capture file when it starts: a
    /// regular file on a disk that can be written (``startEngine(untimed:)`` turns its refusal
    /// into exit 69).
    func output(untimed: Bool) -> AudioOutput {
        switch self {
        case .null: return .null(untimed: untimed)
        case .auto: return .system(untimedFallback: untimed)
        case .pcm(let path):
            var absolute = path
            if !path.hasPrefix("/"), let cwd = try? Posix.currentFolder() {
                absolute = cwd + "/" + path
            }
            return .pcm(path: absolute)
        }
    }
}
