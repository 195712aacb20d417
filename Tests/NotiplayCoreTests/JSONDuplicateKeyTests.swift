import Foundation
import Testing

@testable import NotiplayCore

/// A member name written twice in one object: the last value is kept, as before, and payloads and
/// app files warn, naming the key and both lines.
@Suite struct JSONDuplicateKeyTests {
    func parse(_ text: String) throws -> (JSONValue, [JSONDuplicateKey]) {
        var duplicates: [JSONDuplicateKey] = []
        let value = try JSONParser.parse(Array(text.utf8), duplicateKeys: &duplicates)
        return (value, duplicates)
    }

    @Test("Repeats at every level, in the order of the text, with the object's path and both lines")
    func everyLevel() throws {
        let (value, duplicates) = try parse(
            """
            {
              "aps": {"alert": "a",
                "alert": "b", "x": [{"k": 1}, {"k": 1, "é": 0, "k": 2}]},
              "aps": {"alert": "c"}
            }
            """)
        #expect(value["aps"]?["alert"] == .string("c"))
        #expect(
            duplicates == [
                JSONDuplicateKey(key: "alert", objectPath: "aps", line: 3, column: 5, firstLine: 2),
                JSONDuplicateKey(key: "k", objectPath: "aps.x[1]", line: 3, column: 52, firstLine: 3),
                JSONDuplicateKey(key: "aps", objectPath: "", line: 4, column: 3, firstLine: 2),
            ])
    }

    @Test("Many repeats on one line, and in an object past the hash index threshold")
    func manyRepeats() throws {
        let members = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let (value, duplicates) = try parse("{\(members), \"k3\": 0, \"k39\": 1,\n \"k0\": 2}")
        #expect(value.objectValue?.count == 40 && value["k0"] == .integer(2) && value["k3"] == .integer(0))
        let start = "{\(members), ".count
        #expect(
            duplicates == [
                JSONDuplicateKey(key: "k3", objectPath: "", line: 1, column: start + 1, firstLine: 1),
                JSONDuplicateKey(key: "k39", objectPath: "", line: 1, column: start + 10, firstLine: 1),
                JSONDuplicateKey(key: "k0", objectPath: "", line: 2, column: 2, firstLine: 1),
            ])
    }

    @Test("Twenty thousand repeats of one key on one line: each reported, at its own column")
    func hostileRepeats() throws {
        let (value, duplicates) = try parse("{" + Array(repeating: #""a": 0"#, count: 20_000).joined(separator: ",") + "}")
        #expect(value.objectValue?.count == 1)
        #expect(duplicates.count == 19_999)
        #expect(duplicates.last == JSONDuplicateKey(key: "a", objectPath: "", line: 1, column: 2 + 19_999 * 7, firstLine: 1))
    }

    @Test("A repeat inside a repeated key's value: both, in the order of the text, columns counted in characters")
    func nested() throws {
        let (value, duplicates) = try parse(#"{"é": 0, "a": 1, "a": {"ü": "ö", "b": 1, "b": 2}, "é": 3}"#)
        #expect(value["a"]?["b"] == .integer(2) && value["é"] == .integer(3))
        #expect(
            duplicates == [
                JSONDuplicateKey(key: "a", objectPath: "", line: 1, column: 18, firstLine: 1),
                JSONDuplicateKey(key: "b", objectPath: "a", line: 1, column: 42, firstLine: 1),
                JSONDuplicateKey(key: "é", objectPath: "", line: 1, column: 51, firstLine: 1),
            ])
    }

    @Test("Nothing is reported for a text that does not parse, nor where no key repeats")
    func noneReported() throws {
        var duplicates: [JSONDuplicateKey] = []
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(#"{"a": 1, "a": }"#.utf8), duplicateKeys: &duplicates) }
        #expect(duplicates.isEmpty)
        #expect(try parse(#"{"a": {"a": {"a": [{"a": 1}, {"a": 2}]}}}"#).1.isEmpty)
    }

    @Test("A payload warns about aps twice and alert twice, naming the key and both lines; it stays valid")
    func payloadWarnings() throws {
        let payload = try PayloadDecoder().decode(
            Array(
                """
                {
                  "aps": {"alert": "first"},
                  "aps": {
                    "alert": "second",
                    "alert": "third"
                  }
                }
                """.utf8))
        #expect(payload.content.body == "third")
        #expect(
            payload.warnings.map(\.description) == [
                #"line 3, column 3: duplicate key "aps" (first at line 2); the last one is used"#,
                #"line 5, column 5: duplicate key "alert" in aps (first at line 4); the last one is used"#,
            ])
    }

    @Test("An app file warns about a repeated key, at any depth; validate shows the warnings")
    func appWarnings() throws {
        let dir = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Memo.app.json")
        try Fixtures.write(
            Array(
                """
                {"name": "Memo",
                 "categories": [{"identifier": "memo", "actions": [{"identifier": "a", "title": "A", "title": "B"}]}],
                 "name": "Memo 2"}
                """.utf8), to: file)
        let app = try AppDefinition.decodeFile(file.path)
        #expect(app.name == "Memo 2" && app.categories.first?.actions.first?.title == "B")
        let expected = [
            #"line 2, column 86: duplicate key "title" in categories[0].actions[0] (first at line 2); the last one is used"#,
            #"line 3, column 2: duplicate key "name" (first at line 1); the last one is used"#,
        ]
        #expect(app.warnings.map(\.description) == expected)
        let result = FileValidator().validate(file.path)
        #expect(result.kind == .app && result.valid && result.warnings.map(\.description) == expected, "\(result)")
    }
}
