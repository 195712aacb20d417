@testable import CustomNumberContent
import NotiplayTesting
import Testing

/// Seed 002's extension presented by the test host, with its Info.plist and app file.
@MainActor
@Suite("Seed 002: the custom number")
struct CustomNumberTests {
    static let folder = Ports.folder("CustomNumber")

    func host() throws -> NotificationTestHost {
        var types = ExtensionTypes()
        types.register(NotificationViewController.self, as: "CustomNumberContent")
        return try NotificationTestHost(app: "\(Self.folder)/CustomNumber.app.json", types: types)
    }

    @Test("33 is drawn, large, above the default content")
    func drawsTheNumber() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/custom-number.apns")
        let lines = Ports.lines(host.screen())
        let digits = BlockDigits.rows("33")
        #expect(digits == ["███ ███", "  █   █", " ██  ██", "  █   █", "███ ███"])
        let top = try #require(lines.firstIndex(of: digits[0]))
        #expect(Array(lines[top..<top + 5]) == digits.map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(host.screen().contains("Notification Title"))
        await host.close()
    }

    @Test("A customNumber that is not a whole number leaves the label empty, as the seed's if-let does")
    func notAWholeNumber() async throws {
        let payload = #"{"aps": {"alert": {"title": "Notification Title"}, "category": "category"}, "customNumber": "33"}"#
        try await Ports.withPayload(payload, named: "text.apns") { path in
            let host = try host()
            try await host.deliver(payload: path)
            #expect(!host.screen().contains("███"))
            #expect(host.screen().contains("Notification Title"))
            await host.close()
        }
    }

    @Test("Block digits: every digit and the minus sign, a column apart; other characters as themselves")
    func blockDigits() {
        #expect(BlockDigits.rows("").isEmpty)
        #expect(BlockDigits.rows("-1") == ["     █ ", "    ██ ", "███  █ ", "     █ ", "    ███"])
        #expect(BlockDigits.rows("0123456789").allSatisfy { $0.count == 10 * 3 + 9 })
        #expect(BlockDigits.rows("x")[2] == " x ")
    }
}
