import NotiplayCore
import Notiplay
import NotiplayTerminal
import NotiplayViews
import Testing

@Suite struct KeyScriptTests {
    @Test("Keys by name, digits and waits, separated by spaces, tabs or commas")
    func names() throws {
        let script = try KeyScript(parsing: "space 1,enter\tq ~250ms ~end")
        #expect(script.steps == [
            .key(.space), .key(.character("1")), .key(.enter), .key(.character("q")), .wait(.milliseconds(250)),
            .waitForEnd,
        ])
    }

    @Test("A literal space, as a newcomer types it, is the space key; two are two presses")
    func literalSpace() throws {
        #expect(try KeyScript(parsing: " ").steps == [.key(.space)])
        #expect(try KeyScript(parsing: "  ").steps == [.key(.space), .key(.space)])
        #expect(try KeyScript(parsing: "").steps == [])
    }

    @Test("An unknown key names itself and the accepted spellings")
    func unknown() {
        #expect {
            try KeyScript(parsing: "space jump")
        } throws: { error in
            let text = (error as? KeyScript.UnknownKey)?.description ?? ""
            return text.contains("unknown key 'jump'") && text.contains("space, p, 1-9")
        }
    }

    @Test("One table: a script's key names and the keyboard's keys do the same thing")
    func oneTable() {
        let pairs: [(String, CardCommand)] = [
            ("space", .input(.media)), ("p", .input(.media)), ("3", .input(.action(3))),
            ("enter", .input(.confirm)), ("tab", .input(.focusNext)), ("shift-tab", .input(.focusPrevious)),
            ("backtab", .input(.focusPrevious)), ("click:12:3", .input(.click(column: 11, row: 2))), ("esc", .input(.dismiss)), ("d", .input(.dismiss)),
            ("tap", .input(.tapContent)), ("left", .input(.seekBy(-5))), ("right", .input(.seekBy(5))), ("q", .quit),
        ]
        for (name, command) in pairs {
            let key = KeyBindings.key(named: name)
            #expect(key.flatMap(KeyBindings.command(for:)) == command, "\(name)")
        }
        #expect(KeyBindings.command(for: .controlC) == .interrupt)
        #expect(KeyBindings.command(for: .controlD) == .quit)
        #expect(KeyBindings.command(for: .character("0")) == nil)
    }

    @Test("Tab, Shift-Tab and clicks by name: a cell from 1, the media button, the ✕")
    func clicks() throws {
        let script = try KeyScript(parsing: "tab shift-tab backtab enter click:12:3 click:media click:close")
        #expect(script.steps == [
            .key(.tab), .key(.backTab), .key(.backTab), .key(.enter), .key(.mouse(.click(column: 12, row: 3))),
            .click(.mediaButton), .click(.close),
        ])
        for bad in ["click:0:3", "click:3:0", "click:a:b", "click:12", "click:12:3:4", "click:", "click:button", "click:-1:2"] {
            #expect { try KeyScript(parsing: bad) } throws: { ($0 as? KeyScript.UnknownKey)?.token == bad }
        }
        #expect(KeyBindings.command(for: .mouse(MouseEvent(.release, button: 0, column: 1, row: 1))) == nil)
        #expect(KeyBindings.command(for: .mouse(MouseEvent(.press, button: 2, column: 1, row: 1))) == nil)
        #expect(KeyBindings.command(for: .mouse(MouseEvent(.wheel, button: 0, column: 1, row: 1))) == nil)
    }

    @Test("A key script reaches an extension's button with Tab and Enter only when it takes input; clicks play and close")
    @MainActor
    func runs() async throws {
        for interaction in [true, false] {
            let (session, ext) = try clickableSession(interaction: interaction)
            #expect(try await KeyScript(parsing: "tab enter").run(on: session) == .finished)
            #expect(ext.pressed == (interaction ? ["Snooze"] : []))
            #expect(session.log.events(named: "control").count == (interaction ? 1 : 0))
            #expect(session.log.events(named: "action").map { $0.string("identifier") } == (interaction ? [] : ["later"]))
        }
        let (session, ext) = try clickableSession(interaction: true)
        let media = try #require(session.cardMap().cell(of: .mediaButton))
        let clicks = try KeyScript(parsing: "click:\(media.column + 1):\(media.row + 1) click:media")
        #expect(await clicks.run(on: session) == .finished)
        #expect(ext.calls == ["mediaPlay", "mediaPause"])
        #expect(try await KeyScript(parsing: "click:close 1").run(on: session) == .finished)
        #expect(session.isDismissed)
        #expect(session.log.events(named: "dismissed").map { $0.string("reason") } == ["user"])
        #expect(session.log.events(named: "action").isEmpty, "the card was closed before the 1")
    }
}
