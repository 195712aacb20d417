import Foundation
@testable import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
import NotiplayCenterClient
#endif

/// Peers are checked by the credentials the kernel recorded (`SO_PEERCRED`): only the server's
/// user is served.
@Suite struct SocketPeerTests {
    @Test func onlyTheServersUserIsServed() {
        let policy = PeerPolicy(userID: 1000)
        #expect(policy.refusal(of: PeerCredentials(pid: 10, uid: 1000, gid: 1000)) == nil)
        #expect(policy.refusal(of: PeerCredentials(pid: 10, uid: 1000, gid: 0)) == nil)  // the group does not matter
        let refusal = policy.refusal(of: PeerCredentials(pid: 11, uid: 1001, gid: 1000))
        #expect(refusal?.contains("serves uid 1000 only") == true && refusal?.contains("pid 11, uid 1001") == true)
        // Root is another user too: a notification center belongs to one user.
        #expect(policy.refusal(of: PeerCredentials(pid: 12, uid: 0, gid: 0)) != nil)
    }

    @Test func aPeerOfAnotherUserGetsAnErrorAndIsClosedAndLogged() async throws {
        let other = geteuid() == 4242 ? 4243 : 4242
        let center = try TestCenter(userID: UInt32(other))
        defer { center.finish() }
        let raw = try RawConnection(path: center.path)
        let reply = try #require(try await raw.nextMessage())
        #expect(reply.errorCode == "permission-denied" && reply["id"] == .null)
        #expect(await raw.isClosedByServer())
        #expect(await center.log.wait { $0.contains { if case .refused = $0 { true } else { false } } })
        let refused = center.log.items.compactMap { if case .refused(let credentials, _) = $0 { credentials } else { nil } }
        #expect(refused == [PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid())])
        #expect(center.handler.requests.isEmpty && ActivityLog.acceptedCount(center.log.items) == 0)

        // The client is told why, whether its request went out before the server hung up or not.
        let client = try await CenterClient.connect(to: center.path)
        defer { client.close() }
        do {
            _ = try await client.perform(PingOperation())
            Issue.record("a peer of another user was served")
        } catch {
            guard case .failed(let failure) = error else { throw error }
            #expect(failure.code == .permissionDenied)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to run a child as uid 65534; without root the refusal is shown by the test above"))
    func aProcessOfAnotherUserIsRefused() async throws {
        let python = try #require(pythonPath, "python3 is needed to run a child as another user")
        let center = try TestCenter()
        defer { center.finish() }
        // Test-only: let uid 65534 reach the socket (the server checked its folder when it started).
        for (path, mode) in [(center.scratch, 0o711), (center.scratch + "/notiplay", 0o711), (center.path, 0o666)] {
            try #require(chmod(path, mode_t(mode)) == 0)
        }
        let script = """
            import os, socket, struct, sys
            os.setgroups([]); os.setgid(65534); os.setuid(65534)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(30)
            s.connect(sys.argv[1])
            def exactly(n):
                data = b""
                while len(data) < n:
                    chunk = s.recv(n - len(data))
                    if not chunk: raise SystemExit("closed early")
                    data += chunk
                return data
            (n,) = struct.unpack(">I", exactly(4))
            print(exactly(n).decode())
            print("closed" if s.recv(1) == b"" else "open")
            """
        let child = await TestChild.start(python, ["-c", script, center.path])
        #expect(await child.wait(seconds: 30) == .exited(0), "\(String(decoding: child.standardError, as: UTF8.self))")
        let lines = String(decoding: child.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        let reply = try JSONParser.parse(lines[0])
        #expect(reply.errorCode == "permission-denied")
        #expect(reply["error"]?["message"]?.stringValue?.contains("uid 65534") == true)
        #expect(lines[1] == "closed")
        let refused = center.log.items.compactMap { if case .refused(let credentials, _) = $0 { credentials } else { nil } }
        #expect(refused.map(\.uid) == [65534] && refused.first?.pid == child.processID)
    }
}

/// `python3` on the `PATH`, if there is one.
let pythonPath: String? = {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return folders.map { "\($0)/python3" }.first { access($0, X_OK) == 0 }
}()
