import NotiplaySystem

/// What the center's service says of its own process, under the name it has always used. The
/// socket calls themselves are `Posix`'s (NotiplaySystem: `Posix+Sockets.swift`, `Posix+Poll.swift`).
package enum UnixSocket {
    /// This process's id (`getpid(2)`), as a ping's reply gives it.
    package static var processID: Int32 { Posix.processID }
}
