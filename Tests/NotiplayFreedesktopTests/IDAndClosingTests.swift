import NotiplayFreedesktop
import Testing

@Suite struct IDAndClosingTests {
    @Test func idsIncreaseFromOne() {
        var ids = FreedesktopIDs()
        #expect(ids.assign(replacing: 0) == .init(id: 1, replaces: false))
        #expect(ids.assign(replacing: 0).id == 2)
        #expect(ids.assign(replacing: 0).id == 3)
        #expect(ids.live == [1, 2, 3])
    }

    @Test func replacingALiveIDKeepsIt() {
        var ids = FreedesktopIDs()
        let first = ids.assign(replacing: 0).id
        _ = ids.assign(replacing: 0)
        #expect(ids.assign(replacing: first) == .init(id: first, replaces: true))
        #expect(ids.assign(replacing: 0).id == 3)
    }

    @Test func replacingAnUnknownOrClosedIDGetsANewOne() {
        var ids = FreedesktopIDs()
        let first = ids.assign(replacing: 0).id
        #expect(ids.assign(replacing: 999) == .init(id: 2, replaces: false))
        ids.release(first)
        #expect(!ids.isLive(first))
        #expect(ids.assign(replacing: first) == .init(id: 3, replaces: false))
    }

    @Test func wrapsPastTheMaximumSkippingZeroAndLiveIDs() {
        var ids = FreedesktopIDs(live: [1, 2, 4], next: UInt32.max - 1)
        #expect(ids.assign(replacing: 0).id == UInt32.max - 1)
        #expect(ids.assign(replacing: 0).id == UInt32.max)
        #expect(ids.assign(replacing: 0).id == 3)
        #expect(ids.assign(replacing: 0).id == 5)
        ids.release(UInt32.max)
        #expect(ids.assign(replacing: 0).id == 6)
    }

    @Test func neverZero() {
        #expect(FreedesktopIDs(next: 0).next == 1)
        var ids = FreedesktopIDs(live: [0, UInt32.max])
        #expect(!ids.isLive(0))
        #expect(ids.next == 1)
        #expect(ids.assign(replacing: 0).id == 1)
        #expect(ids.assign(replacing: 0).id != 0)
    }

    @Test func restartedServerGoesOnAfterTheLiveIDs() {
        let live = ["freedesktop-7", "freedesktop-3", "other-app-id", "freedesktop-x", "freedesktop-007"]
            .compactMap(FreedesktopIDs.id(fromIdentifier:))
        #expect(live == [7, 3])
        var ids = FreedesktopIDs(live: live)
        #expect(ids.assign(replacing: 3) == .init(id: 3, replaces: true))
        #expect(ids.assign(replacing: 0).id == 8)
    }

    @Test func identifiers() {
        #expect(FreedesktopIDs.identifier(for: 42) == "freedesktop-42")
        #expect(FreedesktopIDs.id(fromIdentifier: "freedesktop-42") == 42)
        #expect(FreedesktopIDs.id(fromIdentifier: "freedesktop-4294967296") == nil)
        #expect(FreedesktopIDs.id(fromIdentifier: "freedesktop-") == nil)
        #expect(FreedesktopIDs.categoryIdentifier(for: 42) == "freedesktop.42")
    }

    @Test(arguments: [
        (CenterEnding.dismissedByUser, CloseReason?.some(.dismissed)),
        (.actionInvoked(resident: false), .dismissed),
        (.actionInvoked(resident: true), nil),
        (.closeNotificationCall, .closedByCall),
        (.removed, .closedByCall),
        (.expired, .expired),
        (.replaced, nil),
        (.serverStopping, nil),
        (.other, .undefined),
    ])
    func closeReasons(ending: CenterEnding, reason: CloseReason?) {
        #expect(ending.closeReason == reason)
    }

    @Test func closeReasonNumbersAreTheSpecs() {
        #expect(CloseReason.allCases.map(\.rawValue) == [1, 2, 3, 4])
    }

    @Test func serverInformation() {
        let info = ServerInformation.notiplay(version: "0.1.0")
        #expect(info == ServerInformation(name: "notiplay", vendor: "notiplay", version: "0.1.0", specVersion: "1.2"))
        for capability in ["actions", "body", "body-markup", "persistence", "sound", "inline-reply"] {
            #expect(ServerInformation.capabilities.contains(capability))
        }
        #expect(!ServerInformation.capabilities.contains("body-images"))
    }
}
