import NotiplayCore
import Foundation
import NotiplayTestSupport
import Testing

@testable import Notiplay

/// A payload's local `media-url` attaches files from the payload's folder only (symbolic links
/// resolved), or from a folder the host allows; every refusal reads the same, whatever is (or is
/// not) at the path.
@MainActor
@Suite("media-url: local media confined to the payload's folder", .timeLimit(.minutes(2)))
struct MediaConfinementTests {
    /// `scratch/payload/` holds the payload and `inside.wav`; `scratch/outside/x.wav` is beside it.
    let scratch: URL
    let folder: String
    let outside: String
    let cache: String
    let payloadFile: String

    init() throws {
        scratch = try TestMedia.scratch()
        folder = scratch.appendingPathComponent("payload").path
        outside = scratch.appendingPathComponent("outside").path
        cache = scratch.appendingPathComponent("cache").path
        payloadFile = folder + "/memo.apns"
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let tone = TestMedia.path("tone-1s.wav")
        try manager.copyItem(atPath: tone, toPath: folder + "/inside.wav")
        try manager.copyItem(atPath: tone, toPath: outside + "/x.wav")
    }

    func fetcher(mediaFolders: [String] = [], baseDirectory: String? = nil) -> MediaFetcher {
        MediaFetcher(cacheDirectory: cache, baseDirectory: baseDirectory ?? folder, mediaFolders: mediaFolders, payloadFile: payloadFile)
    }

    /// The error fetching `reference` gives, or `nil` when it is attached.
    func refusal(_ reference: String, _ fetcher: MediaFetcher? = nil) async -> String? {
        do {
            _ = try await (fetcher ?? self.fetcher()).fetch(reference)
            return nil
        } catch {
            return error.description
        }
    }

    /// The message of a refused `reference`, with the reference itself taken out.
    func shape(_ message: String?, _ reference: String) -> String? {
        message?.replacingOccurrences(of: reference, with: "REF")
    }

    @Test("file:///etc/passwd is refused with the very message a missing file gets, naming the payload and the key")
    func systemFile() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let passwd = try #require(await refusal("file:///etc/passwd"))
        #expect(passwd.hasPrefix(payloadFile + ": media-url \"file:///etc/passwd\" is refused"), "\(passwd)")
        let missing = await refusal("file:///etc/notiplay-no-such-file")
        let missingInside = await refusal("no-such.wav")
        let folderInside = await refusal("file://" + folder)
        #expect(shape(passwd, "file:///etc/passwd") == shape(missing, "file:///etc/notiplay-no-such-file"))
        #expect(shape(passwd, "file:///etc/passwd") == shape(missingInside, "no-such.wav"))
        #expect(shape(passwd, "file:///etc/passwd") == shape(folderInside, "file://" + folder))
        for word in ["no such", "exist", "directory", "permission", "regular"] {
            #expect(!passwd.lowercased().contains(word), "\(passwd)")
        }
        // Nothing of it was copied into the cache.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).isEmpty)
    }

    @Test("A FIFO or a device named by a payload: the same message, and nothing opened that could block")
    func specialFiles() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(mkfifo(folder + "/pipe.wav", 0o600) == 0)
        let pipe = await refusal("pipe.wav")
        let passwd = await refusal("file:///etc/passwd")
        #expect(shape(pipe, "pipe.wav") == shape(passwd, "file:///etc/passwd"))
        let zero = await refusal("file:///dev/zero")
        #expect(shape(zero, "file:///dev/zero") == shape(passwd, "file:///etc/passwd"))
        // A file that cannot be read (root reads any file: checked only for another user).
        if geteuid() != 0 {
            try FileManager.default.copyItem(atPath: folder + "/inside.wav", toPath: folder + "/locked.wav")
            #expect(chmod(folder + "/locked.wav", 0) == 0)
            let locked = await refusal("locked.wav")
            #expect(shape(locked, "locked.wav") == shape(passwd, "file:///etc/passwd"))
        }
    }

    @Test("../x.wav, outside the payload's folder, is refused; a file inside is attached, by path or file:// URL")
    func relativeOutside() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let parent = await refusal("../outside/x.wav")
        #expect(parent?.contains("media-url \"../outside/x.wav\" is refused") == true, "\(parent ?? "attached")")
        #expect(await refusal("file://" + outside + "/x.wav") != nil)
        #expect(await refusal("file://" + folder + "/../outside/x.wav") != nil)
        #expect(await refusal("inside.wav") == nil)
        #expect(await refusal("file://" + folder + "/inside.wav") == nil)
    }

    @Test("A symbolic link inside the folder to a file outside is refused; one to a file inside is attached")
    func symbolicLinks() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder + "/escape.wav", withDestinationPath: outside + "/x.wav")
        try manager.createSymbolicLink(atPath: folder + "/up", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: folder + "/alias.wav", withDestinationPath: "inside.wav")
        let escape = await refusal("escape.wav")
        let passwd = await refusal("file:///etc/passwd")
        #expect(shape(escape, "escape.wav") == shape(passwd, "file:///etc/passwd"), "\(escape ?? "attached")")
        #expect(await refusal("up/x.wav") != nil)
        #expect(await refusal("file://" + folder + "/escape.wav") != nil)
        #expect(await refusal("alias.wav") == nil)
        // A payload folder reached through a link is the folder it resolves to.
        try manager.createSymbolicLink(atPath: scratch.appendingPathComponent("linked").path, withDestinationPath: folder)
        let linked = fetcher(baseDirectory: scratch.appendingPathComponent("linked").path)
        #expect(await refusal("inside.wav", linked) == nil)
        #expect(await refusal("escape.wav", linked) != nil)
    }

    @Test("A media folder allowed widens it: files there, and links to them, are attached")
    func mediaFolders() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/escape.wav", withDestinationPath: outside + "/x.wav")
        let wide = fetcher(mediaFolders: [outside])
        #expect(await refusal("../outside/x.wav", wide) == nil)
        #expect(await refusal("file://" + outside + "/x.wav", wide) == nil)
        #expect(await refusal("escape.wav", wide) == nil)
        #expect(await refusal("file:///etc/passwd", wide) != nil)
        // No payload folder (a payload sent to the center): only the folders allowed.
        let sent = MediaFetcher(cacheDirectory: cache, mediaFolders: [outside])
        #expect(await refusal("file://" + outside + "/x.wav", sent) == nil)
        let refused = try #require(await refusal("file://" + folder + "/inside.wav", MediaFetcher(cacheDirectory: cache)))
        #expect(refused.hasPrefix("media-url \"file://\(folder)/inside.wav\" is refused"), "\(refused)")
    }

    @Test("Through the service extension stage: one error event naming the payload file and the key, the content unchanged")
    func throughTheStage() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let json = #"{"aps": {"alert": {"title": "Memo", "body": "Listen"}, "mutable-content": 1}, "media-url": "file:///etc/passwd"}"#
        let payload = try PayloadDecoder().decode(Array(json.utf8))
        var configuration = ServiceExtensionStage.Configuration(
            environment: HostEnvironment(mediaCacheDirectory: cache), payloadDirectory: folder)
        configuration.payloadFile = payloadFile
        let log = EventLog()
        let result = await ServiceExtensionStage.run(
            request: payload.request(identifier: "memo"), payloadIsMutable: true, registry: .empty, types: ExtensionTypes(), log: log,
            configuration: configuration)
        #expect(result.content == payload.content)
        let errors = log.events(named: "error").compactMap { $0.string("message") }
        #expect(errors == [
            "\(payloadFile): media-url \"file:///etc/passwd\" is refused: local media must be a readable file inside the payload's folder or a media folder allowed; the notification is shown without it"
        ])
    }
}
