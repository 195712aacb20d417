import NotiplayPlayback
import Testing

extension RealEngine {
    /// libmpv is opened with `dlopen` when asked for, and what cannot be opened says why by name.
    struct LibmpvLoadTests {
        @Test("The installed libmpv loads, once: a second load and a preload give the same library")
        func loadsOnce() throws {
            Libmpv.preload(Libmpv.standardName)
            _ = try Libmpv.load(Libmpv.standardName)
            _ = try Libmpv.load(Libmpv.standardName)
        }

        @Test("A library that is not there: the loader's words, the file's name and the package to install")
        func missing() throws {
            let name = "/nonexistent/notiplay-test/libmpv.so.2"
            let error = try #require(throws: LibmpvUnavailable.self) { try Libmpv.load(name) }
            #expect(error.library == name)
            #expect(!error.isTooOld)
            #expect(error.reason.contains("cannot open shared object file"))
            #expect(error.description.contains(name))
            #expect(error.description.contains("libmpv2"))
            // The outcome is kept: asking again answers the same without another search.
            #expect(throws: error) { try Libmpv.load(name) }
        }

        @Test("A library that is not libmpv is refused, naming the first function it lacks")
        func notLibmpv() throws {
            let error = try #require(throws: LibmpvUnavailable.self) { try Libmpv.load("libc.so.6") }
            #expect(error.reason == "libc.so.6 has no function mpv_client_api_version")
            #expect(error.description.contains("libmpv2"))
        }

        @Test("A preload that fails is reported by the load that waits for it")
        func preloadFailure() throws {
            let name = "/nonexistent/notiplay-test/preloaded/libmpv.so.2"
            Libmpv.preload(name)
            let error = try #require(throws: LibmpvUnavailable.self) { try Libmpv.load(name) }
            #expect(error.library == name)
        }
    }
}
