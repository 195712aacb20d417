import NotiplayTestSupport
import Testing

@testable import NotiplayCore

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a": [1, -2.5, 1e3, true, false, null], "s": "x\u00e9\ud83d\udd0a\n", "o": {}}"#)
        #expect(value["a"] == .array([.integer(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null]))
        #expect(value["s"] == .string("xé🔊\n"))
        #expect(value["o"] == .object(JSONObject()))
        #expect(value.objectValue?.memberNames == ["a", "s", "o"])
    }

    @Test func integersStayIntegers() throws {
        #expect(try JSONParser.parse("3") == .integer(3))
        #expect(try JSONParser.parse("-0") == .integer(0))
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try JSONParser.parse("3.0").intValue == 3)
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.integer(1)]))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
        ("[1, 2,]", 1, 7, "trailing comma before ']'"),
        ("{\n  // note\n  \"a\": 1\n}", 2, 3, "comments are not allowed"),
        ("{\"a\": 1 /* x */}", 1, 9, "comments are not allowed"),
        ("{'a': 1}", 1, 2, "expected a member name"),
        ("['a']", 1, 2, "double quotes"),
        ("{\"aps\": {\"alert\": \"no closing brace\"}", 1, 38, "unexpected end of file inside an object"),
        ("", 1, 1, "empty"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("[01]", 1, 3, "leading zeros"),
        ("[1.]", 1, 4, "digits after '.'"),
        ("[1e999]", 1, 2, "out of range"),
        ("[tru]", 1, 2, "expected a value"),
        ("\"a\tb\"", 1, 3, "must be escaped"),
        ("\"\\x\"", 1, 3, "invalid escape"),
        ("\"\\ud800\"", 1, 8, "unpaired surrogate"),
        ("{} {}", 1, 4, "after the end"),
        ("{\"é\": nope}", 1, 7, "expected a value"),
    ])
    func errorsSayWhereAndWhat(text: String, line: Int, column: Int, message: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(error?.line == line, "\(error?.description ?? "")")
        #expect(error?.column == column, "\(error?.description ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test func refusesBytesThatAreNotUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x28, 0xA1], [0xF5, 0x80, 0x80, 0x80]] {
            let error = #expect(throws: JSONSyntaxError.self) {
                try JSONParser.parse(Array("{\"a\": \"".utf8) + bad + Array("\"}".utf8))
            }
            #expect(error?.message.contains("not UTF-8") == true)
            #expect(error?.column == 8)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        for opener in ["[", "{\"a\":"] {
            let text = String(repeating: opener, count: 100_000)
            let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
            #expect(error?.message.contains("nesting deeper than 512") == true)
        }
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    /// Property: any value written as JSON parses back to itself.
    @Test func roundTripsRandomValues() throws {
        var random = SplitMix64(seed: 0x6E6F_7469_706C_6179)
        for _ in 0..<2_000 {
            let value = randomValue(&random, depth: 0)
            let text = value.jsonText
            #expect(try JSONParser.parse(text) == value, "\(text)")
        }
    }

    private func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        let pick = depth > 3 ? random.next() % 5 : random.next() % 7
        switch pick {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 3:
            let d = Double(Int64(bitPattern: random.next()) % 1_000_000) / 1_000 + 0.5
            return .number(d)
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<Int(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int(random.next() % 5) { object[randomString(&random)] = randomValue(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    private func randomString(_ random: inout SplitMix64) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7F}", "é", "漢", "🔊", "\u{2028}", "\u{202E}"]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 12) { scalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
        return String(scalars)
    }
}


@Suite struct JSONObjectTests {
    @Test func keepsOrderAndLastValueAcrossTheIndexThreshold() throws {
        var object = JSONObject()
        for i in 0..<40 { object["k\(i)"] = .integer(Int64(i)) }
        object["k3"] = .string("three")
        object["k39"] = nil
        #expect(object.count == 39)
        #expect(object["k3"] == .string("three"))
        #expect(object["k39"] == nil)
        #expect(object["k38"] == .integer(38))
        #expect(object.memberNames.first == "k0")
        for i in (0..<36).reversed() { object["k\(i)"] = nil }
        #expect(object.memberNames == ["k36", "k37", "k38"])
        #expect(object["k37"] == .integer(37))
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value["a"] == .integer(3))
        #expect(value.objectValue?.memberNames == ["a", "b"])
    }

    @Test func equalityIgnoresOrder() throws {
        #expect(try JSONParser.parse(#"{"a": 1, "b": [2]}"#) == JSONParser.parse(#"{"b": [2], "a": 1}"#))
        #expect(try JSONParser.parse(#"{"a": 1}"#) != JSONParser.parse(#"{"a": 2}"#))
    }
}
