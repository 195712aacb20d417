import Foundation
import Notiplay
import NotiplayTestSupport
import NotiplayViews
import Testing

/// What crosses between the center and a presenter process: the card's view as a grid (cells,
/// styles, wide characters, buttons, pictures), inputs, events.
@MainActor
struct PresenterWireTests {
    static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }

    @Test("A view's grid comes back whole: its cells, styles, a wide character, a button and a picture; a grid sent without pictures keeps the earlier ones")
    func gridRoundTrip() throws {
        var grid = VerticalStack([
            Label("Water 🌱", style: CellStyle(foreground: .rgb(1, 2, 3), bold: true)),
            Button("Snooze", style: CellStyle(foreground: .yellow)) {},
            Label("dim", style: CellStyle(background: .palette(200), dim: true, italic: true, underline: true, reverse: true)),
        ]).render(width: 20)
        let image = try #require(PictureImage(bytes: TestImages.png(width: 4, height: 2), name: "p.png"))
        grid.pictures = [Picture(frame: Rect(x: 1, y: 2, width: 3, height: 1), image: image)]
        let back = try Self.roundTrip(WireGrid(grid)).grid(activate: { _ in })
        #expect(back == grid)
        #expect(back.controls.map(\.title) == ["Snooze"])
        var without = WireGrid(grid)
        without.pictures = nil
        #expect(try Self.roundTrip(without).grid(pictures: grid.pictures, activate: { _ in }).pictures == grid.pictures)
    }

    @Test("Every input and every event crosses unchanged")
    func inputsAndEvents() throws {
        let inputs: [PresentationSession.Input] = [
            .media, .tapContent, .action(2, text: "on my way"), .action(1), .actionNamed("yes", text: nil), .defaultAction,
            .dismiss, .seek(to: 1.5), .seekBy(-5), .focusNext, .focusPrevious, .confirm, .click(column: 3, row: 4),
        ]
        for input in inputs { #expect(PresentationSession.Input(wire: input.wire) == input) }
        let events: [PresentationEvent] = [
            .didReceive(identifier: "a", category: "c", extension: "E"), .buttonState(.pause),
            .action(identifier: "yes", text: "t", source: .user), .forwarded(action: "yes", text: nil, url: "https://x"),
            .dismissed(reason: .user), .playback(.started, position: 0.25), .error("boom"),
        ]
        for event in events { #expect(try Self.roundTrip(WireEvent(event)).event == event) }
    }
}
