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
}
