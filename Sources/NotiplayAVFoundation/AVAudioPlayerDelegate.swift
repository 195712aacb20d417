/// What an ``AVAudioPlayer`` tells about its playback (Apple: `AVAudioPlayerDelegate`).
///
/// Both members are optional, as on iOS: implement those you need. They are called on the main
/// actor, in the scope of the card the player plays for, so a player made in them plays through
/// the same card.
@MainActor
public protocol AVAudioPlayerDelegate: AnyObject {
    /// The audio played to its end (`flag` true), after every loop of
    /// ``AVAudioPlayer/numberOfLoops``, or stopped because it could not be played (`flag` false,
    /// after ``audioPlayerDecodeErrorDidOccur(_:error:)``). Not called for ``AVAudioPlayer/pause()``
    /// or ``AVAudioPlayer/stop()``.
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)

    /// The file could not be decoded or played; `error` says why (a ``NotiplayError``).
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?)
}

extension AVAudioPlayerDelegate {
    /// Does nothing: implement it to hear of the end.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}

    /// Does nothing: implement it to hear of decoding errors.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {}
}
