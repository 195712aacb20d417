@preconcurrency internal import Glibc
import NotiplaySystem
import SystemPackage

/// A thread of its own (`pthread_create`), for the server's poll loop and for the client's
/// blocking calls made from async code: neither may hold one of the few threads Swift
/// concurrency runs tasks on.
struct SocketThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread; `name` says what it is for, in errors.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> SocketThread {
        let box = Unmanaged.passRetained(Body(name: name, run: body))
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, box.toOpaque())
        guard status == 0 else {
            box.release()
            throw SystemCallError("pthread_create", Errno(rawValue: status))
        }
        return SocketThread(thread: thread)
    }

    /// Starts `body` on a new thread that nobody joins.
    static func detach(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let thread = try start(name: name, body)
        pthread_detach(thread.thread)
    }

    /// Waits for the thread to end (`pthread_join`); call once, and not from the thread itself.
    func join() {
        pthread_join(thread, nil)
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
