import NotiplayViews
import Testing

@Suite("Placed elements: a frame in points drawn into the cells it covers")
struct PlacementLayoutTests {
    @Test("Points map to cells: the origin rounds down, the far edge up; a negative size counts back")
    func pointsToCells() {
        #expect(PointFrame(x: 16, y: 32, width: 40, height: 16).cells == Rect(x: 2, y: 2, width: 5, height: 1))
        #expect(PointFrame(x: 7, y: 15, width: 2, height: 2).cells == Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(PointFrame(x: 16, y: 16, width: -8, height: -16).cells == Rect(x: 1, y: 0, width: 1, height: 1))
        #expect(PointFrame(cells: Rect(x: 1, y: 2, width: 3, height: 4)) == PointFrame(x: 8, y: 32, width: 24, height: 64))
    }

    @Test("Frames that are empty, not finite or absurdly far cover nothing", arguments: [
        PointFrame(x: 0, y: 0, width: 0, height: 10), PointFrame(x: .nan, y: 0, width: 10, height: 10),
        PointFrame(x: 0, y: 0, width: .infinity, height: 10), PointFrame(x: 0, y: 0, width: 1e300, height: 10),
        PointFrame(x: -1e300, y: 0, width: 1e300, height: 10),
    ])
    func emptyFrames(_ frame: PointFrame) {
        #expect(frame.cells == .zero)
        var label = Label("never drawn")
        label.placement = frame
        let grid = VerticalStack([Label("flow"), label]).render(width: 10)
        #expect(grid.lines == ["flow      "])
    }

    @Test("A placed element is drawn at its cells, over the flow, which it takes no room from")
    func placedOverFlow() {
        var placed = Label("XY")
        placed.placement = PointFrame(x: 16, y: 16, width: 16, height: 16)
        let grid = VerticalStack([Label("aaaaaa"), placed, Label("bbbbbb")]).render(width: 6)
        #expect(grid.lines == ["aaaaaa", "bbXYbb"])
    }

    @Test("The stack grows to hold what is placed below the flow; a placed box lays out its own content")
    func stackGrows() {
        var title = Label("T")
        title.placement = PointFrame(x: 8, y: 0, width: 8, height: 16)
        var box = Box([title, Label("flow")])
        box.placement = PointFrame(x: 0, y: 32, width: 64, height: 64)
        let grid = VerticalStack([Label("top"), box]).render(width: 10)
        #expect(grid.lines == [
            "top       ",
            "          ",
            "┌──────┐  ",
            "│fTow  │  ",
            "└──────┘  ",
            "          ",
        ])
    }

    @Test("A frame partly outside the stack shows the part inside; the width it is laid out at is its own")
    func clipped() {
        var right = Label("abcdef", alignment: .trailing)
        right.placement = PointFrame(x: 32, y: 0, width: 48, height: 16)  // columns 4..<10 of 6
        var left = Label("uvwxyz")
        left.placement = PointFrame(x: -24, y: 16, width: 48, height: 16)  // columns -3..<3
        #expect(VerticalStack([right, left]).render(width: 6).lines == ["    ab", "xyz   "])
    }

    @Test("A frame far below is bounded: the stack never grows past its row limit")
    func farBelow() {
        var label = Label("deep")
        label.placement = PointFrame(x: 0, y: 900_000, width: 32, height: 16)
        #expect(VerticalStack([label]).render(width: 8).height == 0)
        label.placement = PointFrame(x: 0, y: 16 * 999, width: 32, height: 16 * 50)
        #expect(VerticalStack([label]).render(width: 8).height == 1_000)
    }

    @Test("A placed button's control is where it is drawn")
    func placedControl() {
        var button = Button("Go") {}
        button.placement = PointFrame(x: 8, y: 16, width: 48, height: 16)
        let grid = VerticalStack([Label("x"), button]).render(width: 10)
        #expect(grid.controls.map(\.frame) == [Rect(x: 1, y: 1, width: 6, height: 1)])
    }
}
