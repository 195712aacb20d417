#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Terminal size")
struct TerminalSizeTests {
    @Test("the terminal's reported size, from TIOCGWINSZ")
    func reported() throws {
        let pty = try PseudoTerminal(columns: 100, rows: 30)
        let size = TerminalSize.current(fd: pty.slave) { _ in nil }
        #expect(size?.columns == 100)
        #expect(size?.rows == 30)
        pty.setSize(columns: 132, rows: 43)
        #expect(TerminalSize.reportedSize(fd: pty.slave).map { [$0.columns, $0.rows] } == [132, 43])
    }

    @Test("COLUMNS and LINES override what the terminal reports, each on its own")
    func environmentOverrides() throws {
        let pty = try PseudoTerminal(columns: 100, rows: 30)
        let both = TerminalSize.current(fd: pty.slave) { ["COLUMNS": "40", "LINES": "12"][$0] }
        #expect(both.map { [$0.columns, $0.rows] } == [40, 12])
        let columnsOnly = TerminalSize.current(fd: pty.slave) { $0 == "COLUMNS" ? "60" : nil }
        #expect(columnsOnly.map { [$0.columns, $0.rows] } == [60, 30])
        let nonsense = TerminalSize.current(fd: pty.slave) { ["COLUMNS": "wide", "LINES": "-3"][$0] }
        #expect(nonsense.map { [$0.columns, $0.rows] } == [100, 30])
    }

    @Test("no terminal: the environment alone, when it gives both; else nil")
    func noTerminal() {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(TerminalSize.current(fd: ends[0]) { _ in nil } == nil)
        #expect(TerminalSize.current(fd: ends[0]) { $0 == "COLUMNS" ? "80" : nil } == nil)
        let both = TerminalSize.current(fd: ends[0]) { ["COLUMNS": "80", "LINES": "24"][$0] }
        #expect(both.map { [$0.columns, $0.rows] } == [80, 24])
    }
}
