import Foundation
import NotiplayAVFoundation
import NotiplayCore
import NotiplayTestSupport
import Testing

/// What a player may open: only regular local files that pass the attachments' validation. No
/// engine is needed: nothing that fails ever reaches libmpv.
@MainActor
@Suite("AVAudioPlayer and AVPlayerItem validate their URL as attachments are")
struct ValidationTests {
    /// A missing file, a directory, a text file, a URL of another scheme or host: each with the
    /// reason its error names.
    static func badURLs() throws -> [(url: URL, kind: NotiplayError.Kind, reason: String)] {
        let folder = try TestMedia.scratch()
        let text = folder.appendingPathComponent("notes.mp3")
        try Data("just some words, not audio\n".utf8).write(to: text)
        let empty = folder.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        return [
            (folder.appendingPathComponent("missing.wav"), .missingInput, "no such file"),
            (folder, .badData, "is a directory, not a regular file"),
            (text, .badData, "is text, not audio"),
            (empty, .badData, "is empty"),
            (URL(string: "https://example.com/memo.mp3")!, .badData, "is a URL (https:), not a file URL"),
            (URL(string: "file://elsewhere.example/tmp/memo.wav")!, .badData, "names the host \"elsewhere.example\""),
        ]
    }

    @Test("AVAudioPlayer(contentsOf:) throws a NotiplayError naming the file and the reason")
    func audioPlayerThrows() throws {
        for (url, kind, reason) in try Self.badURLs() {
            do {
                _ = try AVAudioPlayer(contentsOf: url)
                Issue.record("\(url) was accepted")
            } catch let error as NotiplayError {
                #expect(error.kind == kind, "\(url): \(error)")
                #expect(error.reason.contains(reason), "\(url): \(error)")
                #expect(error.localizedDescription == error.description, "localizedDescription says it: \(error.localizedDescription)")
                let named = url.isFileURL && (url.host ?? "").isEmpty ? url.path : url.absoluteString
                #expect(error.description.hasPrefix(named), "\(error)")
            }
        }
    }

    @Test("AVPlayerItem(url:) of a file that fails validation is .failed with the error; its player plays nothing")
    func itemFails() throws {
        for (url, kind, reason) in try Self.badURLs() {
            let item = AVPlayerItem(url: url)
            #expect(item.status == .failed, "\(url)")
            let error = try #require(item.error as? NotiplayError, "\(url)")
            #expect(error.kind == kind && error.reason.contains(reason), "\(url): \(error)")
            #expect(item.duration == .indefinite)
            #expect(item.currentTime() == .zero)
            let player = AVPlayer(playerItem: item)
            player.play()
            player.seek(to: CMTime(seconds: 1, preferredTimescale: 600))
            player.pause()
            #expect(player.currentItem === item)
            #expect(player.currentTime() == .zero)
        }
    }

    @Test("A valid file is .readyToPlay at once; AVURLAsset keeps its URL; fileTypeHint is ignored")
    func validFile() throws {
        let url = URL(fileURLWithPath: TestMedia.path("chime.ogg"))
        let asset = AVURLAsset(url: url)
        #expect(asset.url == url)
        let item = AVPlayerItem(asset: asset)
        #expect(item.status == .readyToPlay && item.error == nil)
        #expect(item.asset === asset)
        #expect(AVPlayerItem(url: url).status == .readyToPlay)
        let player = try AVAudioPlayer(contentsOf: url, fileTypeHint: "public.mp3")
        #expect(player.url == url && player.duration == 0 && player.currentTime == 0)
    }
}
