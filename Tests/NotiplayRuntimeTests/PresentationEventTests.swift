import NotiplayCore
@testable import Notiplay
import Testing

@Suite("Presentation events: the typed event, and the line it projects to")
struct PresentationEventTests {
    /// One event of each kind, with and without its optional details.
    static let events: [PresentationEvent] = [
        .didReceive(identifier: "n1", category: "memo", extension: "VoiceMemo"),
        .didReceive(identifier: "n2", category: "memo", extension: "VoiceMemo", redelivery: true),
        .mediaPlay, .mediaPause, .mediaPlayingStarted, .mediaPlayingPaused,
        .buttonState(.play), .buttonState(.pause), .buttonState(.hidden), .buttonState(.none),
        .action(identifier: "done"), .action(identifier: "reply", text: "on my way"),
        .action(identifier: UNNotificationDefaultActionIdentifier, source: .user),
        .action(identifier: UNNotificationDefaultActionIdentifier, source: .extension),
        .actions(identifiers: ["a", "b"]), .actions(identifiers: ["pending"]), .actions(identifiers: []),
        .response(option: .doNotDismiss, identifier: "done"),
        .response(option: .dismiss, identifier: "done", timedOut: true),
        .forwarded(action: "done"), .forwarded(action: "reply", text: ""), .forwarded(action: "openURL", url: "nagme://r/1"),
        .command(action: "done", status: 0),
        .dismissed(reason: .user), .dismissed(reason: .timeout), .dismissed(reason: .extension),
        .playback(.started, position: 0), .playback(.paused, position: 1.5), .playback(.ended, position: 3),
        .playback(.stopped, position: 0.25), .playback(.error, position: 0, message: "unrecognized file format"),
        .service(extension: "Memo", identifier: "memo", outcome: .skipped(reason: "the payload has no mutable-content: 1")),
        .service(extension: "Memo", identifier: "memo", outcome: .finished(.modified, attachments: 1)),
        .service(extension: "Memo", identifier: "memo", outcome: .finished(.expired, attachments: 0, timeWillExpire: true)),
        .removed(.delivered, identifiers: ["n1", "n2"]), .removed(.pending, identifiers: ["n1"]),
        .error("no action \"x\" on the card"),
    ]

    @Test("Each event's line reads back as the same event")
    func linesReadBack() {
        for event in Self.events {
            let line = event.line(at: 1)
            #expect(PresentationEvent(name: line.name, fields: line.fields) == event, "\(line.json)")
        }
        #expect(PresentationEvent(name: "nonsense", fields: []) == nil)
        #expect(PresentationEvent(name: "buttonState", fields: [("state", .string("blinking"))]) == nil)
    }

    @Test("Lines keep the names, field order and values they always had")
    func lines() {
        let expected: [(PresentationEvent, String)] = [
            (
                .didReceive(identifier: "n2", category: "memo", extension: "VoiceMemo", redelivery: true),
                #"{"event":"didReceive","t":1.5,"identifier":"n2","category":"memo","extension":"VoiceMemo","redelivery":true}"#
            ),
            (.buttonState(.hidden), #"{"event":"buttonState","t":1.5,"state":"hidden"}"#),
            (.action(identifier: "reply", text: "hi"), #"{"event":"action","t":1.5,"identifier":"reply","text":"hi"}"#),
            (
                .action(identifier: UNNotificationDefaultActionIdentifier, source: .extension),
                #"{"event":"action","t":1.5,"identifier":"com.apple.UNNotificationDefaultActionIdentifier","source":"extension"}"#
            ),
            (.actions(identifiers: ["a", "b"]), #"{"event":"actions","t":1.5,"identifiers":"a,b"}"#),
            (
                .response(option: .dismiss, identifier: "done", timedOut: true),
                #"{"event":"response","t":1.5,"option":"dismiss","identifier":"done","reason":"timeout"}"#
            ),
            (.forwarded(action: "openURL", url: "x://y"), #"{"event":"forwarded","t":1.5,"action":"openURL","url":"x://y"}"#),
            (.command(action: "done", status: 0), #"{"event":"command","t":1.5,"action":"done","status":0}"#),
            (.dismissed(reason: .defaultAction), #"{"event":"dismissed","t":1.5,"reason":"defaultAction"}"#),
            (
                .playback(.error, position: 0.5, message: "bad"),
                #"{"event":"playback","t":1.5,"state":"error","position":0.5,"message":"bad"}"#
            ),
            (
                .service(extension: "M", identifier: "m", outcome: .skipped(reason: "r")),
                #"{"event":"service","t":1.5,"extension":"M","identifier":"m","outcome":"skipped","reason":"r"}"#
            ),
            (
                .service(extension: "M", identifier: "m", outcome: .finished(.expired, attachments: 0, timeWillExpire: true)),
                #"{"event":"service","t":1.5,"extension":"M","identifier":"m","outcome":"expired","attachments":0,"timeWillExpire":true}"#
            ),
            (.removed(.pending, identifiers: ["a"]), #"{"event":"removed","t":1.5,"kind":"pending","identifiers":"a"}"#),
            (.mediaPlayingStarted, #"{"event":"mediaPlayingStarted","t":1.5}"#),
            (.error("x"), #"{"event":"error","t":1.5,"message":"x"}"#),
        ]
        for (event, json) in expected {
            #expect(event.line(at: 1.5).json == json)
        }
    }

    @Test("Media stops when playback pauses, ends, stops or fails, or the card is dismissed")
    func endsMedia() {
        let ending = Self.events.filter(\.endsMedia).map { $0.line(at: 0).json }
        #expect(ending.count == 7, "\(ending)")
        #expect(!PresentationEvent.playback(.started, position: 0).endsMedia)
        #expect(PresentationEvent.playback(.paused, position: 0).endsMedia)
        #expect(PresentationEvent.dismissed(reason: .response).endsMedia)
        #expect(!PresentationEvent.mediaPlayingPaused.endsMedia)
    }
}
