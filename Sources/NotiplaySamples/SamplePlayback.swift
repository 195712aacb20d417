import Notiplay

/// Where a media sample's attachment stands, as its card says it.
enum PlaybackPhase: Equatable {
    case ready, playing, paused, ended
    case failed(String)
}

extension MediaPlayer {
    /// A player for `file` that reports to `controller`'s extension context as AVPlayer-based
    /// iOS extensions do — started, then paused at a pause, at the end and on an error — and
    /// hands each new phase, and each position, to `update`.
    static func reporting(
        _ file: AudioFile, to controller: TerminalViewController, update: @escaping @MainActor (PlaybackPhase?) -> Void
    ) -> MediaPlayer {
        let player = MediaPlayer(file: file)
        player.onStart = { [weak controller] in
            update(.playing)
            controller?.extensionContext?.mediaPlayingStarted()
        }
        player.onPause = { [weak controller] in
            update(.paused)
            controller?.extensionContext?.mediaPlayingPaused()
        }
        player.onFinish = { [weak controller] in
            update(.ended)
            controller?.extensionContext?.mediaPlayingPaused()
        }
        player.onError = { [weak controller] message in
            update(.failed(message))
            controller?.extensionContext?.mediaPlayingPaused()
        }
        player.onPosition = { _ in update(nil) }
        return player
    }
}
