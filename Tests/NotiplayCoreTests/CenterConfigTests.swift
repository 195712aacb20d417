import Foundation
import Testing

@testable import NotiplayCore

@Suite struct CenterConfigTests {
    /// The problems of `text` as `LINE:COLUMN: message`.
    func problems(_ text: String) -> [String] {
        do {
            _ = try CenterConfig.parse(text, file: "n.conf")
            return []
        } catch {
            return error.problems.map { "\($0.line ?? 0):\($0.column ?? 0): \($0.message)" }
        }
    }

    func subject(
        app: String = "mail", urgency: RuleUrgency = .normal, category: String = "", summary: String = "", body: String = ""
    ) -> RuleSubject {
        RuleSubject(app: app, urgency: urgency, category: category, summary: summary, body: body)
    }

    @Test func readsDefaultsAndRules() throws {
        let config = try CenterConfig.parse(
            """
            # notiplay.conf
            [global]
              expire = 8
            expire-critical = 0
            sounds = yes
            volume = 70
            sound-theme = oxygen
            store = /var/tmp/np
            keep-history = 50
            keep-days = 7.5

            ; a rule
            [quiet-chat]
            app = chat*
            urgency = low
            silence = yes
            [loud]
            summary = "  Alarm \\"now\\" "
            sound = /usr/share/sounds/alarm.oga
            volume = 100
            timeout = 0
            skip-queue = yes
            history = no
            autoplay = no
            """, file: "n.conf")
        let d = config.defaults
        #expect(d.expire == 8 && d.expireCritical == 0 && d.sounds == true && d.volume == 70)
        #expect(d.soundTheme == "oxygen" && d.store == "/var/tmp/np" && d.keepHistory == 50 && d.keepDays == 7.5)
        #expect(config.rules.map(\.name) == ["quiet-chat", "loud"])
        #expect(config.rules[0].match == RuleMatch(app: ConfigGlob("chat*"), urgency: .low))
        #expect(config.rules[0].actions == RuleActions(silence: true))
        #expect(config.rules[1].match.summary?.pattern == "  Alarm \"now\" ")
        #expect(
            config.rules[1].actions
                == RuleActions(
                    sound: .file("/usr/share/sounds/alarm.oga"), volume: 100, autoplay: false, timeout: 0, skipQueue: true,
                    history: false))
    }

    @Test func aMissingOrEmptyFileMeansNothing() throws {
        #expect(try CenterConfig.parse("", file: "n.conf") == CenterConfig())
        #expect(try CenterConfig.parse("# only\n\n", file: "n.conf") == CenterConfig())
    }

    @Test func laterRulesOverrideEarlierOnes() throws {
        let config = try CenterConfig.parse(
            """
            [all]
            volume = 40
            sound = default
            [mail]
            app = mail
            volume = 90
            [mail-low]
            app = mail
            urgency = low
            silence = yes
            """, file: "n.conf")
        #expect(config.actions(for: subject()) == RuleActions(sound: .default, volume: 90))
        #expect(config.actions(for: subject(urgency: .low)) == RuleActions(sound: .default, volume: 90, silence: true))
        #expect(config.actions(for: subject(app: "chat")) == RuleActions(sound: .default, volume: 40))
    }

    @Test func matchesEveryKeyGiven() throws {
        let config = try CenterConfig.parse(
            """
            [r]
            category = meet?ng
            body = *urgent*
            skip-queue = yes
            """, file: "n.conf")
        #expect(config.actions(for: subject(category: "meeting", body: "very urgent stuff")).skipQueue == true)
        #expect(config.actions(for: subject(category: "meeting", body: "later")).skipQueue == nil)
        #expect(config.actions(for: subject(category: "meetting", body: "urgent")).skipQueue == nil)
    }

    @Test func globs() {
        #expect(ConfigGlob("*").matches(""))
        #expect(ConfigGlob("a*b*c").matches("aXXbYbc"))
        #expect(!ConfigGlob("a*b*c").matches("aXXbYbcd"))
        #expect(ConfigGlob("?at").matches("cat") && !ConfigGlob("?at").matches("at"))
        #expect(ConfigGlob("\\*x").matches("*x") && !ConfigGlob("\\*x").matches("ax"))
        #expect(!ConfigGlob("Mail").matches("mail"))
        #expect(ConfigGlob("é*").matches("été"))
    }

    @Test func everySyntaxErrorNamesItsLineAndColumn() {
        #expect(problems("volume = 3") == [
            "1:1: key \"volume\" comes before any [section]; put it under [global] or a rule"
        ])
        #expect(problems("[global\n") == ["1:1: a section header must end with ]"])
        #expect(problems("[global]\n  just words") == ["2:3: expected a [section] or key = value"])
        #expect(problems("[global]\n = 3") == ["2:2: a key is missing before ="])
        #expect(problems("[r]\nsummary = \"open\nsilence = yes") == ["2:11: the quoted value has no closing quote"])
        #expect(problems("[r]\nsummary = \"a\" b\nsilence = yes") == ["2:15: nothing may follow the closing quote"])
        #expect(problems("[r]\nsummary = \"a\\tb\"\nsilence = yes") == [
            "2:13: unknown escape \\t: only \\\" and \\\\ are known"
        ])
        #expect(problems("[]") == ["1:1: a section needs a name without brackets: [global] or [rule-name]"])
    }

    @Test func unknownAndDuplicateKeysAndSectionsAreErrors() {
        #expect(problems("[global]\nvolum = 3").first?.hasPrefix("2:1: unknown key \"volum\" in [global] (known: expire,") == true)
        #expect(problems("[r]\nexpire = 3\nsilence = yes").first?.hasPrefix("2:1: unknown key \"expire\" in a rule") == true)
        #expect(problems("[global]\nvolume = 3\n  volume = 4") == [
            "3:3: key \"volume\" appears twice in [global] (first at line 2)"
        ])
        #expect(problems("[r]\nsilence = yes\n[r]\nsilence = no") == ["3:1: section [r] appears twice (first at line 1)"])
        #expect(problems("[r]\napp = x") == [
            "1:1: rule [r] does nothing: give it one of sound, volume, autoplay, timeout, skip-queue, history, silence"
        ])
    }

    @Test func valuesAreChecked() {
        #expect(problems("[global]\nvolume = 101") == ["2:10: volume must be a whole number from 0 to 100, not \"101\""])
        #expect(problems("[global]\nstore = rel/dir") == ["2:9: store must be an absolute path, not \"rel/dir\""])
        #expect(problems("[global]\nsounds = maybe") == ["2:10: sounds must be yes or no, not \"maybe\""])
        #expect(problems("[global]\nkeep-days = 0") == ["2:13: keep-days must be more than 0 and at most 36500, not \"0\""])
        #expect(problems("[global]\nsound-theme = a/b") == [
            "2:15: sound-theme must be a theme's folder name (freedesktop, say), not \"a/b\""
        ])
        #expect(problems("[r]\nurgency = high\nsilence = yes") == ["2:11: urgency must be low, normal or critical, not \"high\""])
        #expect(problems("[r]\ntimeout = -1\nsilence = no") == [
            "2:11: timeout must be 0 (until dismissed) or a number of seconds up to 86400, not \"-1\""
        ])
        #expect(problems("[r]\nsound = sub/x.oga") == [
            "2:9: sound must be none, default, a sound's file name, or an absolute path, not \"sub/x.oga\""
        ])
        #expect(problems("[r]\napp =\nsilence = yes") == ["2:6: app needs a pattern (\"*\" matches anything)"])
    }

    @Test func collectsEveryProblemInFileOrder() {
        #expect(problems("[global]\nvolume = x\nsounds = 2\n").map { $0.prefix(4) } == ["2:10", "3:10"])
        #expect(problems("[a]\napp = x\n[b]\nvolume = 900\n").map { $0.prefix(4) } == ["1:1:", "4:10"])
    }

    @Test func theErrorPrintsFileLineAndColumn() {
        let error = CenterConfigError(
            file: "/c/n.conf", problems: [.init(line: 3, column: 7, "bad"), .init(line: nil, column: nil, "whole")])
        #expect(error.lines == ["/c/n.conf:3:7: bad", "/c/n.conf: whole"])
    }

    @Test func refusesAFolderAFIFOABigFileAndBytesThatAreNotUTF8() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func message(_ path: String) -> String {
            do {
                _ = try CenterConfig.load(file: path)
                return "loaded"
            } catch { return error.description }
        }
        #expect(message(folder) == "\(folder): is a directory, not a configuration")
        let fifo = folder + "/fifo.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(message(fifo) == "\(fifo): is a FIFO, not a configuration")
        let big = folder + "/big.conf"
        try Data(repeating: 0x23, count: 2 << 20).write(to: URL(fileURLWithPath: big))
        #expect(message(big) == "\(big): is 2097152 bytes; a configuration file may not be larger than 1048576 bytes")
        let latin1 = folder + "/latin1.conf"
        try Data([0x5B, 0x72, 0x5D, 0x0A, 0x23, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))
        #expect(message(latin1) == "\(latin1): is not UTF-8 text")
        #expect(message(folder + "/none.conf") == "\(folder)/none.conf: no such file")
        let good = folder + "/good.conf"
        try Data("[r]\nsilence = yes\n".utf8).write(to: URL(fileURLWithPath: good))
        #expect(try CenterConfig.load(file: good).rules.count == 1)
    }
}
