public import Foundation

/// A media file, by its URL (Apple: AVFoundation's `AVAsset`): what an ``AVPlayerItem`` plays.
///
/// Nothing is read or checked until an item is made of it; loading its properties
/// (`load(.duration)`, tracks, metadata) is not offered: an item's ``AVPlayerItem/duration`` tells
/// the duration once the engine knows it.
@MainActor
public class AVAsset {
    /// Where the file is.
    let location: URL

    init(location: URL) {
        self.location = location
    }

    /// An asset for the file at `url`.
    public convenience init(url: URL) {
        self.init(location: url)
    }
}

/// A media file named by a URL (Apple: AVFoundation's `AVURLAsset`).
@MainActor
public final class AVURLAsset: AVAsset {
    /// The URL, as given.
    public var url: URL { location }

    /// An asset for the file at `url`; `options` are ignored (they concern network and precise
    /// timing, which do not apply to local audio files).
    public init(url: URL, options: [String: Any]? = nil) {
        super.init(location: url)
    }
}
