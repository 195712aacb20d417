import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// The player against an engine whose events the test sends: the orders of events that a real
/// engine produces only now and then, each reported once and for the right notification.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ArrivalSoundOrderTests {
    let folders: ArrivalSoundFolders

    init() throws { folders = try ArrivalSoundFolders() }

    func player(_ engine: FakeEngine) -> (ArrivalSoundPlayer, ArrivalSoundEvents) {
        let player = ArrivalSoundPlayer(engine: engine, resolver: folders.resolver())
        let events = ArrivalSoundEvents()
        player.onEvent = { events.record($0) }
        return (player, events)
    }

    func played(_ identifier: String) -> (SoundEvent) -> Bool {
        { if case .played(identifier, _, _, _) = $0 { true } else { false } }
    }

    @Test("An end the engine reports before its load returned is kept: played, then ended")
    func endBeforeLoadReturns() async throws {
        let engine = FakeEngine(tracksCurrentFile: true)
        engine.sendWhileLoading([PlaybackEvent(item: nil, .started(position: 0)), PlaybackEvent(item: nil, .ended(.endOfFile))])
        let (player, events) = player(engine)
        player.arrive(identifier: "a", app: "App", sound: .default, level: .active, focus: false)
        #expect(await events.end(of: "a") == .endOfFile)
        #expect(events.all.count == 2)
        #expect(events.played == ["a"])
        await player.close()
        await engine.shutdown()
    }

    @Test("Media starting stops a loaded sound once; the engine's own end of it is not reported again")
    func stoppedOnce() async throws {
        let engine = FakeEngine(tracksCurrentFile: true)
        var commands = engine.commands.makeAsyncIterator()
        let (player, events) = player(engine)
        player.arrive(identifier: "a", app: "App", sound: .default, level: .active, focus: false)
        #expect(await commands.next() == "load #1 volume 100")
        await events.first(where: played("a"))

        player.mediaPlayingChanged(true)
        #expect(events.all.last == .ended(identifier: "a", reason: .stopped))
        #expect(await commands.next() == "stop")  // the engine sent its own end of #1 then

        player.mediaPlayingChanged(false)
        let critical = UNNotificationSound.criticalSoundNamed("x", withAudioVolume: 0.35)
        player.arrive(identifier: "b", app: "App", sound: critical, level: .critical, focus: false)
        #expect(await commands.next() == "load #2 volume 35")
        await events.first(where: played("b"))
        engine.send(.ended(.endOfFile), item: PlaybackItemID(2))
        #expect(await events.end(of: "b") == .endOfFile)
        #expect(events.ended == ["a", "b"])
        await player.close()
        await engine.shutdown()
    }

    @Test("A sound replaced after its load: the replaced one ends once, stopped; the engine's end of it is ignored")
    func replacedAfterLoad() async throws {
        let engine = FakeEngine(tracksCurrentFile: true)
        var commands = engine.commands.makeAsyncIterator()
        let (player, events) = player(engine)
        player.arrive(identifier: "a", app: "App", sound: .default, level: .active, focus: false)
        #expect(await commands.next() == "load #1 volume 100")
        await events.first(where: played("a"))

        player.arrive(identifier: "b", app: "App", sound: .default, level: .active, focus: false)
        #expect(events.all.last == .ended(identifier: "a", reason: .stopped))
        #expect(await commands.next() == "load #2 volume 100")  // #1's end was sent before
        await events.first(where: played("b"))
        engine.send(.ended(.endOfFile), item: PlaybackItemID(2))
        #expect(await events.end(of: "b") == .endOfFile)
        #expect(events.played == ["a", "b"])
        #expect(events.ended == ["a", "b"])
        await player.close()
        await engine.shutdown()
    }
}
