import NotiplayCore
import NotiplayViews
import Testing

/// The view toolkit's Button, grids that carry their buttons along, and the card's map: what a
/// click on each cell of a laid-out card reaches, and the focus drawn.
@Suite("Buttons and the card's map")
@MainActor
struct CardMapTests {
    /// Where `text` starts on `grid`: its column and row (counting cells, a wide character as two).
    func find(_ text: String, in grid: Grid) -> (column: Int, row: Int)? {
        let target = Array(text)
        for row in 0..<grid.height {
            let cells = Array(grid.row(row))
            for column in 0..<cells.count where column + target.count <= cells.count {
                if (0..<target.count).allSatisfy({ cells[column + $0].character == target[$0] }) { return (column, row) }
            }
        }
        return nil
    }

    /// NagMe with two buttons of its own in the view, the ▶ at its frame, two actions.
    func card(interactive: Bool, focus: CardTarget? = nil) -> CardModel {
        var card = CardModel(header: "NagMe", age: "now")
        card.view = [
            Label("Water the plants"),
            Box(title: "Later", [Button("Snooze") {}, Button("Done", alignment: .trailing) {}]),
        ]
        card.button = .play
        card.buttonFrame = Rect(x: 20, y: 0, width: 3, height: 1)
        card.defaultContent = ("Reminder", "", "Every Sunday")
        card.actions = [.init(title: "Cancel reminder", destructive: true), .init(title: "Reply", textInput: true)]
        card.interactive = interactive
        card.focus = focus
        return card
    }

    @Test("a Button draws [ Title ] where its alignment puts it, its cells the grid's one control")
    func button() {
        let grid = Button("Snooze", style: .bold) {}.render(width: 20)
        #expect(grid.lines == ["[ Snooze ]          "])
        #expect(grid[0, 2].style == .bold)
        #expect(grid.controls.map(\.frame) == [Rect(x: 0, y: 0, width: 10, height: 1)])
        #expect(grid.controls.map(\.title) == ["Snooze"])

        let centred = Button("Go", alignment: .center) {}.render(width: 12)
        #expect(centred.lines == ["   [ Go ]   "])
        #expect(centred.controls.map(\.frame) == [Rect(x: 3, y: 0, width: 6, height: 1)])
        let trailing = Button("Go", alignment: .trailing) {}.render(width: 12)
        #expect(trailing.controls.map(\.frame) == [Rect(x: 6, y: 0, width: 6, height: 1)])

        let narrow = Button("Snooze for ten minutes\u{1B}[2J") {}.render(width: 10)
        #expect(narrow.lines == ["[Snooze …]"])
        #expect(narrow.controls.first?.title == "Snooze for ten minutes", "the title is cleaned of the escape")
        #expect(Button("Snooze") {}.render(width: 0).controls.isEmpty)
    }

    @Test("a grid drawn into another brings its buttons along, moved and clipped")
    func carried() {
        let stack = VerticalStack([Label("top"), Box([Button("A") {}, Button("B") {}])]).render(width: 20)
        #expect(stack.controls.map(\.title) == ["A", "B"])
        #expect(stack.controls.map(\.frame) == [Rect(x: 1, y: 2, width: 5, height: 1), Rect(x: 1, y: 3, width: 5, height: 1)])

        var small = Grid(width: 4, height: 3)
        small.draw(stack, row: -2, column: 2)
        // A is now on row 0, cut at the right edge; B on row 1; both from column 3.
        #expect(small.controls.map(\.frame) == [Rect(x: 3, y: 0, width: 1, height: 1), Rect(x: 3, y: 1, width: 1, height: 1)])
        var none = Grid(width: 4, height: 3)
        none.draw(stack, row: 10, column: 0)
        #expect(none.controls.isEmpty)
        // Grids compare by what they show: a button's action is not compared.
        #expect(Button("A") {}.render(width: 8) == Button("A") { print("other") }.render(width: 8))
    }

    @Test("the map: ✕, media button, actions and view where the card draws them", arguments: [40, 60, 100])
    func systemTargets(width: Int) throws {
        let laid = CardLayout.layout(card(interactive: false), width: width)
        let grid = laid.grid
        #expect(grid == CardLayout.render(card(interactive: false), width: width), "render is the layout's grid")

        let play = try #require(find("▶", in: grid))
        #expect(laid.map.target(column: play.column, row: play.row) == .mediaButton)
        let aimed = try #require(laid.map.cell(of: .mediaButton))
        #expect(aimed == play, "a click is aimed at the glyph itself")
        #expect(laid.map.target(column: play.column - 1, row: play.row) == .mediaButton, "the whole frame")

        let close = try #require(find("✕", in: grid))
        #expect(close.row == 0 && close.column == width - 3)
        for dx in -1...1 { #expect(laid.map.target(column: close.column + dx, row: 0) == .close) }
        #expect(laid.map.target(column: close.column - 3, row: 0) == nil, "the age is not the ✕")

        let cancel = try #require(find("1 Cancel reminder", in: grid))
        for dx in 0..<17 { #expect(laid.map.target(column: cancel.column + dx, row: cancel.row) == .action(1)) }
        let reply = try #require(find("2 Reply…", in: grid))
        #expect(laid.map.target(column: reply.column, row: reply.row) == .action(2))
        #expect(laid.map.target(column: reply.column - 1, row: reply.row) == nil, "the gap between actions")

        // The extension's buttons are content on a card that takes no input.
        let snooze = try #require(find("[ Snooze ]", in: grid))
        #expect(laid.map.target(column: snooze.column + 2, row: snooze.row) == .content)
        #expect(laid.map.controls.map(\.title) == ["Snooze", "Done"], "listed all the same")

        // The frame, the default content, the outside: nothing.
        let body = try #require(find("Every Sunday", in: grid))
        #expect(laid.map.target(column: body.column, row: body.row) == nil)
        #expect(laid.map.target(column: 0, row: 1) == nil)
        #expect(laid.map.target(column: width, row: 1) == nil)
        #expect(laid.map.target(column: 2, row: grid.height) == nil)
        #expect(laid.map.focusOrder == [.action(1), .action(2)])

        for region in laid.map.regions {
            #expect(region.frame.clipped(width: grid.width, height: grid.height) == region.frame, "\(region) inside the card")
        }
    }

    @Test("with user interaction enabled the extension's buttons take clicks and come first in the focus order")
    func interactive() throws {
        let laid = CardLayout.layout(card(interactive: true), width: 60)
        let snooze = try #require(find("[ Snooze ]", in: laid.grid))
        let done = try #require(find("[ Done ]", in: laid.grid))
        for dx in 0..<10 { #expect(laid.map.target(column: snooze.column + dx, row: snooze.row) == .control(0)) }
        #expect(laid.map.target(column: done.column + 3, row: done.row) == .control(1))
        #expect(laid.map.target(column: snooze.column + 10, row: snooze.row) == .content, "beside a button: content")
        #expect(laid.map.focusOrder == [.control(0), .control(1), .action(1), .action(2)])
        #expect(laid.map.controls.map(\.frame.x) == [snooze.column, done.column])
    }

    @Test("the media button is over the extension's buttons, as the system's button is on iOS")
    func mediaOnTop() throws {
        var model = card(interactive: true)
        model.buttonFrame = Rect(x: 0, y: 0, width: 56, height: 5)
        let laid = CardLayout.layout(model, width: 60)
        let snooze = try #require(find("[ Snooze ]", in: laid.grid))
        #expect(laid.map.target(column: snooze.column + 2, row: snooze.row) == .mediaButton)
        model.button = .overlayHidden  // playing under an overlay: nothing drawn, the content takes the click
        let playing = CardLayout.layout(model, width: 60)
        #expect(playing.map.target(column: snooze.column + 2, row: snooze.row) == .control(0))
        #expect(playing.map.frame(of: .mediaButton) == nil)
    }

    @Test("the focused button is drawn in reverse video; nothing else changes")
    func focus() throws {
        let plain = CardLayout.render(card(interactive: true), width: 60)
        for target in [CardTarget.control(1), .action(2)] {
            let laid = CardLayout.layout(card(interactive: true, focus: target), width: 60)
            let frame = try #require(laid.map.frame(of: target))
            #expect(laid.grid.lines == plain.lines)
            for row in 0..<plain.height {
                for column in 0..<plain.width {
                    let inside = frame.contains(column: column, row: row)
                    #expect(laid.grid[row, column].style.reverse == (inside || plain[row, column].style.reverse))
                }
            }
        }
        // A focus the card does not show (an extension's button on a card that takes no input).
        let ignored = CardLayout.render(card(interactive: false, focus: .control(0)), width: 60)
        #expect(ignored == CardLayout.render(card(interactive: false), width: 60))
    }

    @Test("a compact card (narrower than 30 columns): only the media button takes a click")
    func compact() {
        let laid = CardLayout.layout(card(interactive: true), width: 24)
        #expect(laid.grid.height > 1)
        #expect(laid.map.target(column: 0, row: 0) == .mediaButton)
        #expect(laid.map.regions.count == 1)
        #expect(laid.map.focusOrder == [])
    }
}
