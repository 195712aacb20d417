import Foundation
@testable import NotiplayCenter
import NotiplayCore
import Testing

#if canImport(Glibc)
import Glibc
import NotiplayCenterClient
#endif

/// The socket's folder and file: made with the right modes, a stale socket taken over, a live
/// one or anything else in the way refused.
@Suite struct SocketPlaceTests {
    static func ping(_ path: String) async throws -> PingReply {
        let client = try await CenterClient.connect(to: path)
        defer { client.close() }
        return try await client.perform(PingOperation())
    }

    static func server(at path: String) throws(CenterSocketError) -> CenterSocketServer {
        try CenterSocketServer(path: path) { _, _ in .pong(PingReply(pid: 7)) }
    }

    /// A socket bound at `path` and closed without listening or unlinking: what a killed server
    /// leaves.
    static func makeStaleSocket(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(status == 0)
    }

    @Test func theFolderIsMade0700AndTheSocket0600() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try Self.server(at: scratch + "/notiplay/center.sock")
        defer { server.stop() }
        let folder = try #require(fileMode(scratch + "/notiplay"))
        #expect(folder.isFolder && folder.permissions == 0o700 && folder.uid == geteuid())
        let socket = try #require(fileMode(server.path))
        #expect(socket.isSocket && socket.permissions == 0o600 && socket.uid == geteuid())
    }

    @Test func theFolderIs0700WhateverTheUmask() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // mkdir's mode is masked by the umask; the server sets it after. (The umask is the
        // process's: the mode asked, 0700, only loses bits to it, so other tests are safe.)
        let server = try Self.server(at: scratch + "/n/c.sock")
        defer { server.stop() }
        #expect(fileMode(scratch + "/n")?.permissions == 0o700)
    }

    @Test func aFolderOthersCanEnterIsRefusedWithTheReason() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try #require(mkdir(scratch + "/open", 0o755) == 0 && chmod(scratch + "/open", 0o755) == 0)
        #expect(throws: CenterSocketError.self) { try Self.server(at: scratch + "/open/c.sock") }
        do {
            _ = try Self.server(at: scratch + "/open/c.sock")
        } catch {
            guard case .unsafeFolder(let path, let reason) = error else { throw error }
            #expect(path == scratch + "/open")
            #expect(reason.contains("mode 0755") && reason.contains("0700") && reason.contains("chmod 700"))
            #expect(error.notiplayError.kind == .badData)
        }
        #expect(fileMode(scratch + "/open/c.sock") == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another user"))
    func aFolderOfAnotherUserIsRefused() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try #require(mkdir(scratch + "/theirs", 0o700) == 0 && chown(scratch + "/theirs", 65534, 65534) == 0)
        do {
            _ = try Self.server(at: scratch + "/theirs/c.sock")
            Issue.record("a folder of uid 65534 was used")
        } catch {
            guard case .unsafeFolder(_, let reason) = error else { throw error }
            #expect(reason.contains("belongs to uid 65534"))
        }
    }

    @Test func aSymbolicLinkForTheFolderIsRefused() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try #require(mkdir(scratch + "/real", 0o700) == 0 && symlink(scratch + "/real", scratch + "/link") == 0)
        do {
            _ = try Self.server(at: scratch + "/link/c.sock")
            Issue.record("a symbolic link was taken for the folder")
        } catch {
            guard case .unsafeFolder(_, let reason) = error else { throw error }
            #expect(reason.contains("symbolic link"))
        }
    }

    @Test func aStaleSocketIsTakenOver() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/c.sock"
        try Self.makeStaleSocket(path)
        #expect(SocketPlace.probe(path) == .refused)
        // A client finds no server there.
        await #expect(throws: CenterSocketError.noServer(path: path)) { try await CenterClient.connect(to: path) }
        let server = try Self.server(at: path)
        defer { server.stop() }
        #expect(try await Self.ping(path).pid == 7)
    }

    @Test func aSecondServerOnThePathIsToldOneIsRunning() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/c.sock"
        let first = try Self.server(at: path)
        defer { first.stop() }
        #expect(throws: CenterSocketError.alreadyRunning(path: path)) { try Self.server(at: path) }
        #expect(CenterSocketError.alreadyRunning(path: path).notiplayError.kind == .unavailable)
        #expect("\(CenterSocketError.alreadyRunning(path: path))" == "a server is already running at \(path)")
        // The first one is untouched and still serves.
        #expect(try await Self.ping(path).pid == 7)
    }

    @Test func somethingElseAtThePathIsLeftAlone() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/c.sock"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CenterSocketError.notASocket(path: path, found: "a regular file")) { try Self.server(at: path) }
        try #require(mkdir(scratch + "/d", 0o700) == 0)
        #expect(throws: CenterSocketError.notASocket(path: scratch + "/d", found: "a folder")) { try Self.server(at: scratch + "/d") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func aPathTooLongForASocketIsRefused() async throws {
        let path = "/tmp/" + String(repeating: "x", count: 103)  // 108 bytes
        #expect(throws: CenterSocketError.pathTooLong(path: path, limit: 107)) { try Self.server(at: path) }
        await #expect(throws: CenterSocketError.pathTooLong(path: path, limit: 107)) { try await CenterClient.connect(to: path) }
    }

    @Test func aClientWithNoServerIsToldToStartOne() async throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/none.sock"
        await #expect(throws: CenterSocketError.noServer(path: path)) { try await CenterClient.connect(to: path) }
        let error = CenterSocketError.noServer(path: path)
        #expect(error.notiplayError.kind == .unavailable)
        #expect(error.description.contains("start one with `notiplay serve`"))
    }

    @Test func stopClosesEverythingAndRemovesTheSocketFile() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        defer { raw.close() }
        _ = await center.log.wait { ActivityLog.acceptedCount($0) == 1 }
        center.server.stop()
        #expect(fileMode(center.path) == nil)
        #expect(await raw.isClosedByServer())
        #expect(center.log.items.last == .stopped)
        #expect(center.log.items.contains(.closed(CenterConnectionID(rawValue: 1), .serverStopped)))
        await #expect(throws: CenterSocketError.noServer(path: center.path)) { try await CenterClient.connect(to: center.path) }
        center.server.stop()  // again: nothing
    }

    @Test func stopLeavesASocketThatIsNotItsOwn() throws {
        let scratch = try shortScratch()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = scratch + "/c.sock"
        let server = try Self.server(at: path)
        // Someone replaced the file (by hand, or a server that took over): it is not this one's.
        try #require(unlink(path) == 0)
        try Self.makeStaleSocket(path)
        server.stop()
        #expect(fileMode(path)?.isSocket == true)
    }
}
