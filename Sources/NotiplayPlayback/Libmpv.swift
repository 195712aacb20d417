internal import CMPV
import Dispatch
import Synchronization

/// libmpv's client library, opened when the first engine starts rather than when the process
/// does: a command that plays nothing never maps it and the 229 libraries it needs.
///
/// ``MPVEngine`` opens it by itself. A host that knows it will play soon calls ``preload(_:)``
/// first, so that the load (most of the time `play` takes) runs while it parses arguments,
/// validates files and sets up its terminal.
public struct Libmpv: Sendable {
    /// The file the dynamic loader looks for: libmpv with client API 2 (Debian's `libmpv2`).
    public static let standardName = "libmpv.so.2"

    /// The package that provides it on Debian and Ubuntu.
    public static let debianPackage = "libmpv2"

    /// The client-API functions, resolved, by their names without `mpv_`: `functions.create()`.
    let functions: notiplay_mpv_functions

    /// Opens `library` (default: ``defaultName``), once per name and process; waits for a
    /// ``preload(_:)`` of it that is under way.
    public static func load(_ library: String? = nil) throws(LibmpvUnavailable) -> Libmpv {
        let library = library ?? defaultName
        let (slot, isNew) = claim(library)
        if isNew {
            slot.fill(open(library))
        }
        return try slot.result()
    }

    /// Starts opening `library` (default: ``defaultName``) on another thread and returns at once.
    /// A later ``load(_:)`` (or engine) waits for it and gets its outcome.
    public static func preload(_ library: String? = nil) {
        let library = library ?? defaultName
        let (slot, isNew) = claim(library)
        guard isNew else { return }
        DispatchQueue.global(qos: .userInitiated).async { slot.fill(open(library)) }
    }

    /// The library ``load(_:)`` and ``preload(_:)`` open when given none: ``standardName``
    /// unless the host chose another file (the command line's `NOTIPLAY_LIBMPV`).
    package static var defaultName: String {
        get { configuredName.withLock { $0 } }
        set { configuredName.withLock { $0 = newValue } }
    }

    private static let configuredName = Mutex(standardName)

    /// One library's load, shared by everyone who asks for it.
    private final class Slot: Sendable {
        private let finished = DispatchGroup()
        private let outcome = Mutex<Result<Libmpv, LibmpvUnavailable>?>(nil)

        init() { finished.enter() }

        func fill(_ result: Result<Libmpv, LibmpvUnavailable>) {
            outcome.withLock { $0 = result }
            finished.leave()
        }

        func result() throws(LibmpvUnavailable) -> Libmpv {
            finished.wait()
            // `fill` ran before `leave`, so the outcome is there.
            return try outcome.withLock { $0! }.get()
        }
    }

    private static let slots = Mutex<[String: Slot]>([:])

    /// The slot of `library`, and whether the caller created it (and so must fill it).
    private static func claim(_ library: String) -> (Slot, isNew: Bool) {
        slots.withLock { slots in
            if let slot = slots[library] { return (slot, false) }
            let slot = Slot()
            slots[library] = slot
            return (slot, true)
        }
    }

    private static func open(_ library: String) -> Result<Libmpv, LibmpvUnavailable> {
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let table = notiplay_mpv_load(library, &status, &message, message.count)
        guard let table else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(LibmpvUnavailable(library: library, reason: reason, isTooOld: status == 3))
        }
        return .success(Libmpv(functions: table.pointee))
    }
}

/// libmpv could not be opened, lacks a function, or has an incompatible client API.
public struct LibmpvUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that was looked for.
    public let library: String
    /// The dynamic loader's words, or what is wrong with what it found.
    public let reason: String
    /// Whether the library was found but speaks an older or different client API.
    public let isTooOld: Bool

    public var description: String {
        let fix = isTooOld ? "update" : "install"
        return "libmpv, which plays the audio, cannot be loaded: \(reason); \(fix) the \(Libmpv.debianPackage) "
            + "package (Debian, Ubuntu: apt-get install \(Libmpv.debianPackage))"
    }
}
