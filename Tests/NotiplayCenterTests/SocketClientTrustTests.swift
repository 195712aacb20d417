import Foundation
@testable import NotiplayCenter
import NotiplayCore
import Testing

#if canImport(Glibc)
import Glibc
import NotiplayCenterClient
#endif

/// A client sends nothing to a server it cannot trust: the socket's folder must be the user's
/// own and closed to others, and the process listening must run as the user (`SO_PEERCRED`).
@Suite struct SocketClientTrustTests {
    @Test(arguments: [0o755, 0o750, 0o770, 0o707, 0o777])
    func aFolderOthersCanEnterIsRefusedBeforeAnythingIsSent(mode: Int) async throws {
        let center = try TestCenter()
        defer { center.finish() }
        let folder = center.scratch + "/notiplay"
        // What another user's folder in /tmp looks like to us: open to others.
        try #require(chmod(folder, mode_t(mode)) == 0)
        do {
            let client = try await CenterClient.connect(to: center.path)
            client.close()
            Issue.record("connected through a folder of mode 0\(String(mode, radix: 8))")
        } catch {
            guard case .untrusted(let path, let reason) = error else { throw error }
            #expect(path == folder)
            #expect(reason.contains("mode 0\(String(mode, radix: 8))") && reason.contains("0700"), "\(reason)")
            #expect(reason.contains("others may put a socket of their own") == (mode & 0o022 != 0), "\(reason)")
            #expect(error.notiplayError.kind == .unavailable)
            #expect(error.description.hasPrefix("\(folder): not connecting: "))
        }
        try #require(chmod(folder, 0o700) == 0)
        #expect(ActivityLog.acceptedCount(center.log.items) == 0)
        // The same server, its folder closed again: served.
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        #expect(try await client.perform(PingOperation()).pid == getpid())
    }

    @Test func aFolderOfAnotherUserIsRefused() throws {
        let center = try TestCenter()
        defer { center.finish() }
        let ours = geteuid()
        let other: UInt32 = ours == 4242 ? 4243 : 4242
        // The folder is ours; a client of uid `other` sees it as another user's.
        do {
            let client = try CenterClient.connect(to: center.path, trusting: ServerTrust(userID: other))
            client.close()
            Issue.record("connected through a folder of another user")
        } catch {
            guard case .untrusted(let path, let reason) = error else { throw error }
            #expect(path == center.scratch + "/notiplay")
            #expect(reason.contains("belongs to uid \(ours), not to you (uid \(other))"), "\(reason)")
        }
        #expect(ActivityLog.acceptedCount(center.log.items) == 0)
    }

    @Test func aSymbolicLinkForTheFolderIsRefused() throws {
        let center = try TestCenter()
        defer { center.finish() }
        try #require(symlink(center.scratch + "/notiplay", center.scratch + "/link") == 0)
        #expect(throws: CenterSocketError.self) { try CenterClient.connect(to: center.scratch + "/link/center.sock") }
        do {
            _ = try CenterClient.connect(to: center.scratch + "/link/center.sock")
        } catch {
            guard case .untrusted(_, let reason) = error else { throw error }
            #expect(reason.contains("symbolic link"))
        }
    }

    @Test func theServersCredentialsAreChecked() {
        let trust = ServerTrust(userID: 1000)
        #expect(trust.refusal(ofServer: PeerCredentials(pid: 9, uid: 1000, gid: 5)) == nil)
        let refusal = trust.refusal(ofServer: PeerCredentials(pid: 9, uid: 1002, gid: 1002))
        #expect(refusal?.contains("runs as uid 1002 (pid 9), not as you (uid 1000)") == true)
        // Root is another user too.
        #expect(trust.refusal(ofServer: PeerCredentials(pid: 1, uid: 0, gid: 0)) != nil)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another user; the check itself is tested above"))
    func aServerOfAnotherUserIsRefusedBeforeAnythingIsSent() async throws {
        let center = try TestCenter()
        defer { center.finish() }
        // The folder is the client's (uid 4242), the server is not (it runs as root).
        try #require(chown(center.scratch + "/notiplay", 4242, 4242) == 0)
        do {
            let client = try CenterClient.connect(to: center.path, trusting: ServerTrust(userID: 4242))
            client.close()
            Issue.record("a server of uid 0 was trusted by uid 4242")
        } catch {
            guard case .untrusted(let path, let reason) = error else { throw error }
            #expect(path == center.path)
            #expect(reason.contains("runs as uid 0 (pid \(getpid())), not as you (uid 4242)"), "\(reason)")
            #expect(error.notiplayError.kind == .unavailable)
        }
        // It connected, and hung up without a word: the server read nothing.
        _ = await center.log.wait { items in items.contains { if case .closed = $0 { true } else { false } } }
        #expect(center.handler.requests.isEmpty)
    }
}
