import NotiplayViews
import NotiplayCore
import Foundation
import Notiplay
import Testing

@testable import NotiplaySamples

extension RealEngine {
    @MainActor
    @Suite("CustomNumber (seed 002): userInfo[\"customNumber\"] drawn large")
    struct CustomNumberTests {
        /// The card's lines between the borders, trailing spaces removed.
        func lines(_ card: SampleCard) -> [String] {
            card.text.split(separator: "\n").map { line in
                var inner = line.dropFirst(2).dropLast(2)
                while inner.last == " " { inner = inner.dropLast() }
                return String(inner)
            }
        }

        @Test("33 in block digits, centred, over the default content; registered under the bundle's name")
        func drawsTheNumber() async throws {
            try await SampleCard.run("CustomNumber") { card in
                let controller = try await card.present("custom-number.apns")
                #expect(controller is CustomNumberViewController)
                #expect(card.events("didReceive").first?.string("extension") == "CustomNumber")
                let rows = lines(card)
                // "33": two glyphs three columns wide, one column apart, centred in 56 columns.
                let left = String(repeating: " ", count: (56 - 7) / 2)
                let digits = Array(rows[1...5])
                #expect(digits == ["███ ███", "  █   █", " ██  ██", "  █   █", "███ ███"].map { left + $0 }, "\(card.text)")
                #expect(rows[6].trimmingCharacters(in: .whitespaces) == "customNumber")
                #expect(card.text.contains("Notification Title") && card.text.contains("Notification Subtitle"))
                #expect(card.text.contains("Notification body text"))
                #expect(card.session.buttonState == .none && card.actions.isEmpty)
            }
        }

        @Test("A new notification of the thread goes to the same extension: -17 replaces 33")
        func redelivery() async throws {
            try await SampleCard.run("CustomNumber") { card in
                let first = try await card.present("custom-number.apns")
                let second = try await card.present("custom-number-negative.apns")
                #expect(first === second)
                #expect(card.events("didReceive").last?.fields.contains { $0.0 == "redelivery" } == true)
                let rows = lines(card)
                #expect(rows[3].hasSuffix("███  █    █"), "\(card.text)")  // the minus, 1 and 7 on the middle row
                #expect(card.text.contains("Temperature"))
            }
        }

        @Test("A bad or missing number: a large ? and a line saying what was found")
        func placeholders() async throws {
            try await SampleCard.run("CustomNumber") { card in
                try await card.present("custom-number-bad.apns")
                #expect(card.flatText.contains("customNumber is the string \"thirty-three\", not a whole number."), "\(card.text)")
                #expect(lines(card)[1].hasSuffix("███"))
                let cases: [(JSONValue?, String)] = [
                    (nil, "This notification has no customNumber."),
                    (.null, "This notification has no customNumber."),
                    (.number(33.5), "customNumber is the number 33.5, not a whole number."),
                    (.number(1e30), "is too large for a whole number"),
                    (.bool(true), "customNumber is the boolean true, not a whole number."),
                    (.object(JSONObject()), "customNumber is an object, not a whole number."),
                    (.string("\u{1B}[2J\u{1B}]0;x\u{07}"), "customNumber is the string"),
                ]
                for (value, message) in cases {
                    let content = UNMutableNotificationContent()
                    content.categoryIdentifier = "category"
                    if let value { content.jsonUserInfo = JSONObject([("customNumber", value)]) }
                    try card.present(content)
                    #expect(card.flatText.contains(message), "\(String(describing: value)): \(card.text)")
                    #expect(!card.text.contains("\u{1B}"))
                }
            }
        }

        @Test("Numbers too wide for block digits are drawn as plain text, whole")
        func wideNumbers() async throws {
            try await SampleCard.run("CustomNumber") { card in
                for whole in [Int64.max, Int64.min, 123_456_789_012_345] {
                    let content = UNMutableNotificationContent()
                    content.categoryIdentifier = "category"
                    content.jsonUserInfo = JSONObject([("customNumber", .integer(whole))])
                    try card.present(content)
                    #expect(card.text.contains(String(whole)), "\(card.text)")
                }
                let content = UNMutableNotificationContent()
                content.categoryIdentifier = "category"
                content.jsonUserInfo = JSONObject([("customNumber", .number(33.0))])
                try card.present(content)
                #expect(lines(card)[1].hasSuffix("███ ███"), "33.0 is a whole number: \(card.text)")
            }
            // Every glyph has five rows of three columns.
            let rows = try #require(BlockNumber.rows("0123456789-?"))
            #expect(rows.count == 5 && Set(rows.map(\.count)) == [12 * 4 - 1])
            #expect(BlockNumber.rows("3a") == nil)
            // Narrow views get the plain text too.
            let narrow = BlockNumber("12345").render(width: 10)
            #expect(FrameRenderer.plainText(narrow).contains("12345"))
        }

        @Test("No actions of its own: the default action (Enter) goes to the app")
        func defaultAction() async throws {
            try await SampleCard.run("CustomNumber") { card in
                try await card.present("custom-number.apns")
                let mark = card.mark
                card.session.handle(.defaultAction)
                #expect(card.names(since: mark) == ["action", "forwarded", "dismissed"])
                #expect(card.events("forwarded", since: mark).first?.string("action") == UNNotificationDefaultActionIdentifier)
            }
        }
    }
}
