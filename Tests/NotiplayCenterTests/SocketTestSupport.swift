import Foundation
@testable import NotiplayCenter
import NotiplayTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
import NotiplayCenterClient
#endif

// What the socket tests share: short scratch folders, a server with a handler that echoes and
// records, a log of the server's activity to wait on, and a raw connection to send anything.

/// A new folder `/tmp/npc-XXXXXX` (mode 0700): socket paths must stay under 108 bytes, whatever
/// `TMPDIR` says.
func shortScratch() throws -> String {
    var template = Array("/tmp/npc-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return String(cString: made)
}

/// `stat`'s type and permission bits of `path` (not following a final link).
func fileMode(_ path: String) -> (isSocket: Bool, isFolder: Bool, permissions: UInt32, uid: UInt32)? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    let type = status.st_mode & S_IFMT
    return (type == S_IFSOCK, type == S_IFDIR, status.st_mode & 0o7777, status.st_uid)
}

/// Makes sure this process may open `count` more descriptors (the soft limit raised toward the
/// hard one when needed).
func allowDescriptors(_ count: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let wanted = rlim_t(count + 512)
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// The server's activity as it happens, to wait on.
final class ActivityLog: Sendable {
    private struct Waiter {
        let condition: @Sendable ([CenterSocketServer.Activity]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var items: [CenterSocketServer.Activity] = []
        var waiters: [Int: Waiter] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    /// What happened so far.
    var items: [CenterSocketServer.Activity] { state.withLock { $0.items } }

    func record(_ activity: CenterSocketServer.Activity) {
        let ready: [Waiter] = state.withLock { state in
            state.items.append(activity)
            let met = state.waiters.filter { $0.value.condition(state.items) }
            for id in met.keys { state.waiters[id] = nil }
            return Array(met.values)
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Waits until `condition` holds for what happened; false if it did not within `seconds`
    /// (a guard against a hang, not a measure).
    func wait(
        seconds: Double = 30, until condition: @escaping @Sendable ([CenterSocketServer.Activity]) -> Bool
    ) async -> Bool {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let now: Bool = state.withLock { state in
                if condition(state.items) { return true }
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    /// Waits for a connection to close, and says why.
    func closeReason(seconds: Double = 30, where match: @escaping @Sendable (CenterConnectionID) -> Bool = { _ in true })
        async -> CenterSocketServer.CloseReason?
    {
        _ = await wait(seconds: seconds) { items in items.contains { if case .closed(let id, _) = $0 { match(id) } else { false } } }
        for case .closed(let id, let reason) in items where match(id) { return reason }
        return nil
    }

    /// How many connections were accepted so far.
    static func acceptedCount(_ items: [CenterSocketServer.Activity]) -> Int {
        items.reduce(0) { count, item in if case .accepted = item { count + 1 } else { count } }
    }
}

/// A handler that answers every operation from what it was asked and records the requests.
final class EchoHandler: Sendable {
    private let state = Mutex<[(CenterRequest, CenterPeer)]>([])
    /// Requests with identifier "hold" wait here until ``release()``.
    private let gate = Mutex<(held: CheckedContinuation<Void, Never>?, waiting: CheckedContinuation<Void, Never>?)>((nil, nil))

    var requests: [CenterRequest] { state.withLock { $0.map(\.0) } }
    var peers: [CenterPeer] { state.withLock { $0.map(\.1) } }

    func handle(_ request: CenterRequest, _ peer: CenterPeer) async -> CenterReply {
        state.withLock { $0.append((request, peer)) }
        switch request.operation {
        case .send(let send):
            if send.identifier == "hold" { await hold() }
            return .sent(SendReply(identifier: send.identifier ?? "made-\(request.id)", state: .delivered))
        case .list(let list):
            return .listed(ListReply(notifications: [sampleSummary("listed", state: list.state ?? .delivered)]))
        case .remove(let remove):
            switch remove.target {
            case .identifiers(let identifiers): return .removed(RemoveReply(removed: identifiers))
            case .all: return .removed(RemoveReply(removed: ["everything"]))
            }
        case .history(let history):
            let count = min(history.limit, 3)
            return .history(HistoryReply(notifications: (0..<count).map { sampleSummary("old-\($0)", state: .dismissed) }))
        case .ping:
            return .pong(PingReply(pid: getpid()))
        case .focus(let focus):
            return .focus(FocusReply(focus: focus.set ?? false))
        case .clock:
            return .clock(ClockReply(now: Date(timeIntervalSince1970: 0), virtual: false))
        case .categories:
            return .categories(CategoriesReply(categories: []))
        case .authorize:
            return .authorized(AuthorizeReply(granted: true))
        case .reload:
            return .reloaded(ReloadReply(rules: 0))
        }
    }

    /// Waits until a request is held by the handler.
    func waitUntilHolding() async {
        await withCheckedContinuation { continuation in
            let now = gate.withLock { gate in
                if gate.held != nil { return true }
                gate.waiting = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the held request go.
    func release() {
        gate.withLock { gate in
            defer { gate.held = nil }
            return gate.held
        }?.resume()
    }

    private func hold() async {
        await withCheckedContinuation { continuation in
            let waiting = gate.withLock { gate in
                gate.held = continuation
                defer { gate.waiting = nil }
                return gate.waiting
            }
            waiting?.resume()
        }
    }
}

/// A server in a scratch folder with an ``EchoHandler`` and an ``ActivityLog``.
final class TestCenter: Sendable {
    let scratch: String
    let server: CenterSocketServer
    let handler = EchoHandler()
    let log = ActivityLog()
    var path: String { server.path }

    /// A server whose partial frames wait `partialFrameTimeout` for their next byte: an hour
    /// unless a test is about that limit, so that a test of something else (a client that
    /// vanishes mid-frame) never meets it on a loaded machine (two of three soak runs with two
    /// busy loops beside them did, 27 s in, with the server's 10 s default).
    init(partialFrameTimeout: Duration = .seconds(3600), userID: UInt32? = nil) throws {
        scratch = try shortScratch()
        let handler = handler
        let log = log
        let configuration = CenterSocketServer.Configuration(
            partialFrameTimeout: partialFrameTimeout, userID: userID, activity: { log.record($0) })
        server = try CenterSocketServer(path: scratch + "/notiplay/center.sock", configuration: configuration) {
            await handler.handle($0, $1)
        }
    }

    /// Stops the server and removes the scratch folder.
    func finish() {
        server.stop()
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
