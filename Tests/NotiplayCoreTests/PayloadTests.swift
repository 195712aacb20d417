import NotiplayTestSupport
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@testable import NotiplayCore

@Suite struct PayloadTests {
    let decoder = PayloadDecoder()

    func decode(_ json: String, limit: Int? = PayloadDecoder.apnsLimit) throws -> APNsPayload {
        try PayloadDecoder(sizeLimit: limit).decode(Array(json.utf8))
    }

    func errors(_ json: String, limit: Int? = PayloadDecoder.apnsLimit) -> [String] {
        do {
            _ = try decode(json, limit: limit)
            return []
        } catch let error as PayloadError {
            return error.errors.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func readsEveryApsKey() throws {
        let payload = try decode(
            """
            {"Simulator Target Bundle": "com.example.nagme",
             "aps": {"alert": {"title": "Lunch", "subtitle": "Kitchen", "body": "Soup is ready", "launch-image": "soup.png"},
                     "badge": 3, "sound": {"critical": 1, "name": "bell.caf", "volume": 0.5},
                     "thread-id": "kitchen", "category": "meal", "content-available": 1, "mutable-content": 1,
                     "target-content-id": "table-4", "interruption-level": "time-sensitive",
                     "relevance-score": 0.75, "filter-criteria": "work"},
             "table": 4, "dishes": ["soup", "bread"]}
            """)
        let c = payload.content
        #expect(c.title == "Lunch" && c.subtitle == "Kitchen" && c.body == "Soup is ready")
        #expect(c.launchImageName == "soup.png")
        #expect(c.badge == 3)
        #expect(c.sound == .criticalSoundNamed("bell.caf", withAudioVolume: 0.5))
        #expect(c.threadIdentifier == "kitchen" && c.categoryIdentifier == "meal")
        #expect(c.targetContentIdentifier == "table-4" && c.filterCriteria == "work")
        #expect(c.interruptionLevel == .timeSensitive && c.relevanceScore == 0.75)
        #expect(payload.mutableContent && payload.contentAvailable && payload.wantsServiceExtension)
        #expect(payload.simulatorTargetBundle == "com.example.nagme")
        // userInfo: the whole payload, aps included, the simulator key excluded; types kept.
        #expect(c.jsonUserInfo.memberNames == ["aps", "table", "dishes"])
        #expect(c.jsonUserInfo["table"] == .integer(4))
        #expect(c.jsonUserInfo["table"]?.intValue == 4)
        #expect(c.jsonUserInfo["dishes"] == .array([.string("soup"), .string("bread")]))
        #expect(payload.warnings.isEmpty)
    }

    @Test func alertAndSoundMayBeStrings() throws {
        let payload = try decode(#"{"aps": {"alert": "Hello", "sound": "default"}}"#)
        #expect(payload.content.body == "Hello" && payload.content.title.isEmpty)
        #expect(payload.content.sound == .default)
        let named = try decode(#"{"aps": {"alert": "Hi", "sound": "chime.wav"}}"#)
        #expect(named.content.sound == UNNotificationSound(named: "chime.wav"))
        #expect(!named.mutableContent && named.content.interruptionLevel == .active)
    }

    @Test(arguments: [
        (#""loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Jenna", "Frank"]"#, "GAME_PLAY_REQUEST_FORMAT (Jenna, Frank)"),
        (#""loc-key": "%@ and %@ have invited you to play""#, " and  have invited you to play"),
        (#""loc-key": "%@ and %@ invited you", "loc-args": ["Jenna", "Frank"]"#, "Jenna and Frank invited you"),
        (#""loc-key": "%2$@ before %1$@", "loc-args": ["Jenna", "Frank"]"#, "Frank before Jenna"),
        (#""loc-key": "%d%% done", "loc-args": ["40"]"#, "40% done"),
        (#""loc-key": "PLAIN""#, "PLAIN"),
    ])
    func localizedBodiesShowTheKey(_ members: String, _ expected: String) throws {
        let payload = try decode(#"{"aps": {"alert": {\#(members)}}}"#)
        #expect(payload.content.body == expected)
    }

    @Test func localizedTitleTakesThePlaceOfTitle() throws {
        let payload = try decode(
            #"{"aps": {"alert": {"title": "T", "title-loc-key": "TITLE_%@", "title-loc-args": ["x"], "subtitle-loc-key": "SUB", "body": "b"}}}"#)
        #expect(payload.content.title == "TITLE_x")
        #expect(payload.content.subtitle == "SUB")
        #expect(payload.warnings.map(\.key) == ["aps.alert.title-loc-key"])
    }

    @Test func unknownKeysAreWarnings() throws {
        let payload = try decode(#"{"aps": {"alert": {"body": "b", "colour": "red"}, "custom": 1, "stale-date": 5}}"#)
        #expect(payload.warnings.map(\.key) == ["aps.alert.colour", "aps.custom", "aps.stale-date"])
        #expect(payload.warnings[2].message.contains("Live Activity"))
    }

    // MARK: Bad input (each with its key or position)

    @Test func malformedJSONGivesLineAndColumn() {
        let found = errors("{\"aps\": {\"alert\": \"no closing brace\"}")
        #expect(found == ["line 1, column 38: unexpected end of file inside an object; expected ',' or '}'"])
        #expect(errors("{\n  \"aps\": {\n    \"alert\": \"x\",\n  }\n}").first?.hasPrefix("line 4, column 3: trailing comma") == true)
        #expect(errors("{\n  // a comment\n  \"aps\": {}\n}").first?.hasPrefix("line 2, column 3: comments are not allowed") == true)
    }

    @Test func aTopLevelArrayOrNoApsIsRefused() {
        #expect(errors(#"[{"aps": {}}]"#) == [#"a payload is a JSON object with an "aps" dictionary; found an array of 1"#])
        #expect(errors(#"{"alert": "hi"}"#).first?.hasPrefix("aps: missing") == true)
        #expect(errors(#"{"aps": "hi"}"#) == [#"aps: expected a dictionary; found string "hi""#])
    }

    @Test func wrongTypesNameTheKey() {
        #expect(errors(#"{"aps": {"alert": "x", "badge": "3"}}"#) == [#"aps.badge: expected an integer (0 removes the badge); found string "3""#])
        let many = errors(
            #"{"aps": {"alert": 5, "badge": -1, "sound": {"volume": 2}, "mutable-content": true, "interruption-level": "loud", "relevance-score": "high", "category": 7, "alert2": 1}}"#
        )
        #expect(many.count == 7)
        #expect(many[0] == "aps.alert: expected a string or a dictionary (title, subtitle, body…); found integer 5")
        #expect(many[1].hasPrefix("aps.badge: must not be negative"))
        #expect(many[2] == "aps.sound.volume: must be between 0 and 1; found integer 2")
        #expect(many[3] == "aps.mutable-content: expected the number 1 (or 0); found boolean true")
        #expect(many[4].hasPrefix("aps.interruption-level: expected one of passive, active, time-sensitive, critical"))
        #expect(many[5] == #"aps.relevance-score: expected a number between 0 and 1; found string "high""#)
        #expect(many[6] == "aps.category: expected a string; found integer 7")
        #expect(errors(#"{"aps": {"alert": {"loc-key": "K", "loc-args": ["a", 2]}}}"#) == ["aps.alert.loc-args[1]: expected a string; found integer 2"])
    }

    @Test func oversizePayloadsAreRefusedUnlessTheLimitIsLifted() throws {
        let body = String(repeating: "x", count: 4100)
        let json = #"{"aps": {"alert": "\#(body)"}}"#
        let found = errors(json)
        #expect(found.count == 1)
        #expect(found[0].contains("the payload is 4120 bytes") && found[0].contains("at most 4096"))
        #expect(try decode(json, limit: nil).content.body == body)
        // Whitespace does not count, as APNs receives the payload without it.
        let padded = "{\n" + String(repeating: " ", count: 5000) + #""aps": {"alert": "hi"}}"#
        #expect(try decode(padded).byteCount == 22)
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        var bytes = Array(#"{"aps": {"alert": "caf"#.utf8)
        bytes += [0xE9]  // Latin-1 é
        bytes += Array(#""}}"#.utf8)
        do {
            _ = try decoder.decode(bytes)
            Issue.record("decoded invalid UTF-8")
        } catch {
            #expect(error.errors.first?.description.contains("UTF-8") == true)
            #expect(error.errors.first?.line == 1)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = #"{"aps": {"alert": "x"}, "deep": "# + String(repeating: "[", count: 100_000)
        let found = errors(deep, limit: nil)
        #expect(found.count == 1)
        #expect(found[0].contains("nesting deeper than 512"))
    }

    @Test func readsFilesAndNamesThemInErrors() throws {
        let dir = try Fixtures.scratch()
        let good = dir.appendingPathComponent("lunch.apns").path
        try Fixtures.write(Array(#"{"aps": {"alert": "hi", "category": "meal"}}"#.utf8), to: dir.appendingPathComponent("lunch.apns"))
        #expect(try decoder.decodeFile(good).content.categoryIdentifier == "meal")
        #expect(throws: InvalidFileError.self) { try decoder.decodeFile(dir.path) }
        do {
            _ = try decoder.decodeFile(dir.appendingPathComponent("missing.apns").path)
        } catch {
            #expect(error.isMissing && error.notiplayError.kind == .missingInput)
            #expect(error.description.hasSuffix("missing.apns: no such file"))
        }
    }

    @Test func mutatedPayloadsNeverCrash() {
        let seed = Array(
            #"{"Simulator Target Bundle": "x", "aps": {"alert": {"title": "T", "loc-key": "%1$@ %@", "loc-args": ["é", "🔊"]}, "badge": 3, "sound": {"name": "a", "critical": 1, "volume": 0.5}, "category": "c", "relevance-score": 0.5}, "n": [1, -2.5e3, null, true, {"k": "\u00e9\ud83d\udd0a"}]}"#.utf8)
        var random = SplitMix64(seed: 0xF022)
        var decoded = 0
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<max(bytes.count, 1), using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: min(at, bytes.count))
                default: if !bytes.isEmpty { bytes.remove(at: at) }
                }
            }
            if (try? decoder.decode(bytes)) != nil { decoded += 1 }
        }
        #expect(decoded > 0)  // Some mutations stay valid; none may crash.
    }

    // MARK: Property-based round trip

    @Test func randomPayloadsRoundTrip() throws {
        var random = SplitMix64(seed: 0xA11CE)
        let alphabet = Array("abcXYZ019 _-é€🔊日本\n\t\"\\/<>&\u{1B}\u{202E}".unicodeScalars)
        func text(_ max: Int) -> String {
            var s = ""
            for _ in 0..<Int.random(in: 0...max, using: &random) {
                s.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
            }
            return s
        }
        for _ in 0..<1_000 {
            var aps = JSONObject()
            var alert = JSONObject()
            let title = text(20), subtitle = text(20), body = text(200)
            if !title.isEmpty { alert["title"] = .string(title) }
            if !subtitle.isEmpty { alert["subtitle"] = .string(subtitle) }
            alert["body"] = .string(body)
            aps["alert"] = .object(alert)
            let badge = Int.random(in: -1...99, using: &random)
            if badge >= 0 { aps["badge"] = .integer(Int64(badge)) }
            let category = text(12), thread = text(12)
            aps["category"] = .string(category)
            aps["thread-id"] = .string(thread)
            let mutable = Bool.random(using: &random)
            aps["mutable-content"] = .integer(mutable ? 1 : 0)
            let level = UNNotificationInterruptionLevel.allCases.randomElement(using: &random)!
            aps["interruption-level"] = .string(level.apnsName)
            let score = Double(Int.random(in: 0...100, using: &random)) / 100
            aps["relevance-score"] = .number(score)
            var root = JSONObject()
            root["aps"] = .object(aps)
            let custom = JSONValue.integer(Int64.random(in: .min ... .max, using: &random))
            root["custom"] = custom

            let json = JSONValue.object(root).jsonText
            let payload = try decode(json, limit: nil)
            let c = payload.content
            #expect(c.title == title && c.subtitle == subtitle && c.body == body)
            #expect(c.badge == (badge >= 0 ? badge : nil))
            #expect(c.categoryIdentifier == category && c.threadIdentifier == thread)
            #expect(payload.mutableContent == mutable && c.interruptionLevel == level && c.relevanceScore == score)
            // Integral numbers come back as integers (JSON does not tell 1.0 from 1).
            #expect(c.jsonUserInfo["custom"] == custom)
            #expect(c.jsonUserInfo["aps"] == (try JSONParser.parse(JSONValue.object(aps).jsonText)))
            #expect(payload.byteCount == json.utf8.count)
        }
    }
}
