internal import CDBus
internal import NotiplaySystem
internal import SystemPackage

/// libdbus's watches (descriptors to poll) and timeouts for one connection, kept for the loop
/// thread's `poll`: libdbus says through them what to wait for (reading, writing when messages
/// are queued, a reply's deadline), and the loop hands back what happened.
///
/// Created, installed and used on the loop thread only: libdbus calls the add, remove and toggle
/// functions from inside the calls that thread makes. Not `Sendable`.
final class LoopWatches {
    private var watches: [OpaquePointer] = []
    private var deadlines: [OpaquePointer: ContinuousClock.Instant] = [:]

    /// Installs the watch and timeout functions on `connection`; `self` must outlive it (the loop
    /// keeps it until the connection is closed and unreferenced).
    func install(on connection: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_connection_set_watch_functions(
            connection,
            { watch, context in
                guard let watch, let context else { return 0 }
                Unmanaged<LoopWatches>.fromOpaque(context).takeUnretainedValue().watches.append(watch)
                return 1
            },
            { watch, context in
                guard let watch, let context else { return }
                Unmanaged<LoopWatches>.fromOpaque(context).takeUnretainedValue().watches.removeAll { $0 == watch }
            },
            { _, _ in },  // toggling: `wait` asks each watch whether it is enabled
            context, nil)
        _ = dbus_connection_set_timeout_functions(
            connection,
            { timeout, context in
                guard let timeout, let context else { return 0 }
                Unmanaged<LoopWatches>.fromOpaque(context).takeUnretainedValue().arm(timeout)
                return 1
            },
            { timeout, context in
                guard let timeout, let context else { return }
                Unmanaged<LoopWatches>.fromOpaque(context).takeUnretainedValue().deadlines[timeout] = nil
            },
            { timeout, context in
                guard let timeout, let context else { return }
                Unmanaged<LoopWatches>.fromOpaque(context).takeUnretainedValue().arm(timeout)
            },
            context, nil)
    }

    /// Waits until a watch's descriptor is ready, `wake` is readable, or a timeout is due, then
    /// hands libdbus what happened. Returns whether `wake` was readable.
    func wait(wake: Int32) -> Bool {
        var descriptors = [Posix.PollEntry(file: FileDescriptor(rawValue: wake), events: .readable)]
        var polled: [OpaquePointer] = []
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Posix.PollEvents = []
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
            descriptors.append(Posix.PollEntry(file: FileDescriptor(rawValue: dbus_watch_get_unix_fd(watch)), events: events))
            polled.append(watch)
        }
        // An interrupted or failed wait finds nothing: the timeouts due are still handed over.
        let ready = (try? Posix.poll(&descriptors, milliseconds: milliseconds(until: nextDeadline))) ?? nil
        if let ready, ready > 0 {
            for (index, watch) in polled.enumerated() {
                let events = descriptors[index + 1].found
                // A watch handled before may have removed this one.
                guard !events.isEmpty, watches.contains(watch) else { continue }
                dbus_watch_handle(watch, Self.flags(events))
            }
        }
        fireDueTimeouts()
        return !descriptors[0].found.isEmpty
    }

    /// libdbus's watch flags for `poll`'s returned events.
    private static func flags(_ events: Posix.PollEvents) -> UInt32 {
        var flags: UInt32 = 0
        if events.contains(.readable) { flags |= DBUS_WATCH_READABLE.rawValue }
        if events.contains(.writable) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if !events.isDisjoint(with: [.error, .invalid]) { flags |= DBUS_WATCH_ERROR.rawValue }
        if events.contains(.hangUp) { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }

    /// Starts (or restarts) an enabled timeout's interval from now; forgets a disabled one.
    private func arm(_ timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else {
            deadlines[timeout] = nil
            return
        }
        deadlines[timeout] = .now + .milliseconds(Int(dbus_timeout_get_interval(timeout)))
    }

    private var nextDeadline: ContinuousClock.Instant? { deadlines.values.min() }

    /// `poll`'s timeout for `deadline`: -1 (none) without one, rounded up so as not to wake early.
    private func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// Hands libdbus the timeouts that are due, each rearmed for its next interval first (libdbus
    /// timeouts repeat until removed or disabled, which handling one may do).
    private func fireDueTimeouts() {
        let now = ContinuousClock.now
        let due = deadlines.filter { $0.value <= now }.map(\.key)
        for timeout in due where deadlines[timeout] != nil {
            arm(timeout)
            dbus_timeout_handle(timeout)
        }
    }
}
