internal import CDBus

/// The loop thread of a ``DBusServiceConnection``: the only thread that calls libdbus for the
/// connection once it is open. It dispatches what arrived (the router's filter runs the handlers),
/// sends what the outbox holds, then waits in `poll` on libdbus's watches and the outbox's
/// wake-up pipe; at a stop or a disconnection it sends what is left, closes and unreferences the
/// connection once, and says so.
final class ServiceLoop {
    private let connection: OpaquePointer
    private let router: Router
    private let outbox: Outbox
    private let watches = LoopWatches()

    private init(connection: OpaquePointer, router: Router, outbox: Outbox) {
        self.connection = connection
        self.router = router
        self.outbox = outbox
    }

    /// Runs the loop for `connection` until a stop or a disconnection; takes the connection over
    /// (it is closed and unreferenced when this returns).
    static func run(connection: OpaquePointer, router: Router, outbox: Outbox) {
        ServiceLoop(connection: connection, router: router, outbox: outbox).run()
    }

    private func run() {
        watches.install(on: connection)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_connection_add_filter(
            connection,
            { _, message, context in
                guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let loop = Unmanaged<ServiceLoop>.fromOpaque(context).takeUnretainedValue()
                return loop.router.route(message, outbox: loop.outbox)
                    ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }, context, nil)
        var disconnected = false
        while true {
            guard !settle() else { break }
            guard dbus_connection_get_is_connected(connection) != 0 else {
                disconnected = true
                break
            }
            if watches.wait(wake: outbox.wakeDescriptor) { outbox.drainWake() }
        }
        finish(disconnected: disconnected)
    }

    /// Dispatches everything received and performs every job posted, until neither is left
    /// (handlers post replies; a name request reads messages while it waits). Returns whether a
    /// stop was requested.
    private func settle() -> Bool {
        while true {
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            let (jobs, stopping) = outbox.take()
            for job in jobs { perform(job) }
            if stopping { return true }
            if jobs.isEmpty, dbus_connection_get_dispatch_status(connection) != DBUS_DISPATCH_DATA_REMAINS {
                return false
            }
        }
    }

    /// Sends what is left (when still connected), closes the connection, and tells those waiting.
    private func finish(disconnected: Bool) {
        let jobs = outbox.close()
        let connected = dbus_connection_get_is_connected(connection) != 0
        for job in jobs {
            if connected, case .requestName = job {
                Outbox.refuse(job)  // a blocking request would hold up the stop
            } else if connected {
                perform(job)
            } else {
                Outbox.refuse(job)
            }
        }
        if connected { dbus_connection_flush(connection) }
        // The filter stays: nothing is dispatched after the close, and the unref frees it.
        RawConnection.close(connection)
        if disconnected { router.onEvent(.disconnected) }
        outbox.finishClose()
    }

    private func perform(_ job: Outbox.Job) {
        switch job {
        case .reply(let replySerial, let destination, let reply):
            send(Self.message(replySerial: replySerial, destination: destination, reply: reply))
        case .signal(let signal):
            send(MessageFactory.signal(signal))
        case .requestName(let name, let replace, let continuation):
            continuation.resume(returning: requestName(name, replace: replace))
        }
    }

    /// The reply's message; a method return whose values cannot be written becomes a `Failed`.
    private static func message(replySerial: UInt32, destination: String?, reply: DBusReply) -> OpaquePointer? {
        switch reply {
        case .values(let values):
            if let message = MessageFactory.methodReturn(replySerial: replySerial, destination: destination, values: values) {
                return message
            }
            let problem = values.lazy.compactMap(\.encodingProblem).first ?? "out of memory"
            return MessageFactory.error(
                replySerial: replySerial, destination: destination, failure: .failed("the reply cannot be sent: \(problem)"))
        case .error(let failure):
            return MessageFactory.error(replySerial: replySerial, destination: destination, failure: failure)
        }
    }

    private func send(_ message: OpaquePointer?) {
        guard let message else { return }
        dbus_connection_send(connection, message, nil)
        dbus_message_unref(message)
    }

    /// Asks the bus for `name` (blocking this thread until it answers): replacement allowed,
    /// never queued, replacing the owner when `replace` is set.
    private func requestName(_ name: String, replace: Bool) -> Result<Void, DBusNameError> {
        let allowReplacement: UInt32 = 0x1, replaceExisting: UInt32 = 0x2, doNotQueue: UInt32 = 0x4
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let flags = allowReplacement | doNotQueue | (replace ? replaceExisting : 0)
        let outcome = name.withCString { dbus_bus_request_name(connection, $0, flags, &error) }
        switch outcome {
        case 1, 4:  // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, _ALREADY_OWNER
            return .success(())
        case 2, 3:  // _IN_QUEUE (not asked for), _EXISTS
            return .failure(.exists(name))
        default:
            return .failure(.failed(RawConnection.failure(&error, otherwise: "the bus did not answer RequestName")))
        }
    }
}
