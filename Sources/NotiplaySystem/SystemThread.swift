@preconcurrency internal import Glibc
import SystemPackage

/// A thread of its own (`pthread_create`), for work that blocks: a poll loop, a blocking read,
/// a blocking call made from async code. None may hold one of the few threads Swift
/// concurrency runs tasks on.
package struct SystemThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread; `name` says what it is for, in errors.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) -> SystemThread {
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
        return SystemThread(thread: thread)
    }

    /// Starts `body` on a new thread that nobody joins.
    package static func detach(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let thread = try start(name: name, body)
        pthread_detach(thread.thread)
    }

    /// Waits for the thread to end (`pthread_join`); call once, and not from the thread itself.
    package func join() {
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
