import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whom the clients trust: a socket in a folder others can enter is not the user's server, and
/// nothing is sent to it.
extension CenterTests {
    @Test("send and list refuse a socket whose folder others can enter (69, the folder named), and send it nothing")
    func clientsRefuseAnOpenSocketFolder() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        // What another user who made the folder first would leave: mode 0755, someone listening.
        let folder = environment["XDG_RUNTIME_DIR"]! + "/notiplay"
        try #require(mkdir(folder, 0o755) == 0 && chmod(folder, 0o755) == 0)
        let listener = try #require(ImpostorSocket(path: folder + "/center.sock"))
        defer { listener.close() }

        for arguments in [["send", E2E.media("nagme.apns"), "--id", "secret"], ["list", "--json"]] {
            let result = try await run(try E2E.binary(), arguments, timeout: 90, environment: environment)
            #expect(result.status == 69, "\(arguments[0]): \(result)")
            #expect(result.stderrText.contains("\(folder): not connecting:"), "\(arguments[0]): \(result)")
            #expect(result.stderrText.contains("mode 0755"), "\(arguments[0]): \(result)")
        }
        #expect(!listener.hasConnectionWaiting(), "a client connected to the impostor")
    }
}

/// A socket bound and listened on by this process, in a folder a test chose: an impostor server
/// that never answers.
final class ImpostorSocket: Sendable {
    private let descriptor: Int32

    /// Binds and listens at `path`; `nil` if that fails.
    init?(path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            Glibc.close(fd)
            return nil
        }
        descriptor = fd
    }

    /// Whether a client connected (its connection waits in the backlog: nothing accepts it).
    func hasConnectionWaiting() -> Bool {
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return false }
        Glibc.close(connection)
        return true
    }

    func close() {
        Glibc.close(descriptor)
    }
}
