import Foundation
import NotiplayTestSupport
import Testing

@testable import NotiplayCore

// MARK: - Fixtures

/// Property lists as Xcode writes them for a Notification Content extension, and helpers.
enum PlistFixtures {
    /// The Info.plist Xcode's "Notification Content Extension" template writes (build
    /// settings not yet expanded).
    static let contentExtension = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>NSExtension</key>
        \t<dict>
        \t\t<key>NSExtensionAttributes</key>
        \t\t<dict>
        \t\t\t<key>UNNotificationExtensionCategory</key>
        \t\t\t<string>myNotificationCategory</string>
        \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
        \t\t\t<real>1</real>
        \t\t</dict>
        \t\t<key>NSExtensionMainStoryboard</key>
        \t\t<string>MainInterface</string>
        \t\t<key>NSExtensionPointIdentifier</key>
        \t\t<string>com.apple.usernotifications.content-extension</string>
        \t</dict>
        </dict>
        </plist>

        """

    /// A fuller one: CFBundle* keys, several categories, a principal class instead of a
    /// storyboard, an integer and booleans, and a comment.
    static let fullExtension = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleDevelopmentRegion</key>
        \t<string>$(DEVELOPMENT_LANGUAGE)</string>
        \t<key>CFBundleDisplayName</key>
        \t<string>Rich Notifications</string>
        \t<key>CFBundleExecutable</key>
        \t<string>$(EXECUTABLE_NAME)</string>
        \t<key>CFBundleIdentifier</key>
        \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        \t<key>CFBundleInfoDictionaryVersion</key>
        \t<string>6.0</string>
        \t<key>CFBundleName</key>
        \t<string>$(PRODUCT_NAME)</string>
        \t<key>CFBundlePackageType</key>
        \t<string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string>
        \t<key>CFBundleShortVersionString</key>
        \t<string>1.4.2</string>
        \t<key>CFBundleVersion</key>
        \t<string>37</string>
        \t<!-- Notification content extension -->
        \t<key>NSExtension</key>
        \t<dict>
        \t\t<key>NSExtensionAttributes</key>
        \t\t<dict>
        \t\t\t<key>UNNotificationExtensionCategory</key>
        \t\t\t<array>
        \t\t\t\t<string>myNotificationCategory</string>
        \t\t\t\t<string>reminder</string>
        \t\t\t</array>
        \t\t\t<key>UNNotificationExtensionDefaultContentHidden</key>
        \t\t\t<true/>
        \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
        \t\t\t<real>0.75</real>
        \t\t\t<key>UNNotificationExtensionUserInteractionEnabled</key>
        \t\t\t<false/>
        \t\t\t<key>NotiplaySoundRepeatCount</key>
        \t\t\t<integer>3</integer>
        \t\t</dict>
        \t\t<key>NSExtensionPointIdentifier</key>
        \t\t<string>com.apple.usernotifications.content-extension</string>
        \t\t<key>NSExtensionPrincipalClass</key>
        \t\t<string>$(PRODUCT_MODULE_NAME).NotificationViewController</string>
        \t</dict>
        </dict>
        </plist>

        """

    /// Generated once with Python's plistlib (`plistlib.dumps(v, fmt=FMT_BINARY,
    /// sort_keys=False)`), an implementation independent of ours, for:
    /// `{"CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)", "CFBundleIdentifier":
    /// "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "1", "NSExtension":
    /// {"NSExtensionAttributes": {"UNNotificationExtensionCategory": ["myNotificationCategory",
    /// "reminder"], "UNNotificationExtensionInitialContentSizeRatio": 0.75,
    /// "UNNotificationExtensionDefaultContentHidden": True}, "NSExtensionPrincipalClass":
    /// "$(PRODUCT_MODULE_NAME).NotificationViewController", "NSExtensionPointIdentifier":
    /// "com.apple.usernotifications.content-extension"}, "Size": -42, "Big": 2**40,
    /// "Name": "Café 🔔", "Blob": bytes(range(20)), "Built": datetime(2024, 2, 29, 13, 45, 30),
    /// "Empty": [], "Dup": ["x", "x"]}`. plistlib shares the two "x" strings (one object).
    static let plistlibBinary = Array(Data(base64Encoded: """
        YnBsaXN0MDDbAQIDBAUGBwgJCgsMDQ4PHh8gISIjJF8QGUNGQnVuZGxlRGV2ZWxvcG1lbnRSZWdpb25fEBJDRkJ1bmRsZUlkZW50aWZpZXJfEA9DRkJ1bmRsZVZlcnNpb25bTlNFeHRlbnNpb25UU2l6ZVNCaWdUTmFtZVRCbG9iVUJ1aWx0VUVtcHR5U0R1cF8QFyQoREVWRUxPUE1FTlRfTEFOR1VBR0UpXxAcJChQUk9EVUNUX0JVTkRMRV9JREVOVElGSUVSKVEx0xAREhMcHV8QFU5TRXh0ZW5zaW9uQXR0cmlidXRlc18QGU5TRXh0ZW5zaW9uUHJpbmNpcGFsQ2xhc3NfEBpOU0V4dGVuc2lvblBvaW50SWRlbnRpZmllctMUFRYXGhtfEB9VTk5vdGlmaWNhdGlvbkV4dGVuc2lvbkNhdGVnb3J5XxAuVU5Ob3RpZmljYXRpb25FeHRlbnNpb25Jbml0aWFsQ29udGVudFNpemVSYXRpb18QK1VOTm90aWZpY2F0aW9uRXh0ZW5zaW9uRGVmYXVsdENvbnRlbnRIaWRkZW6iGBlfEBZteU5vdGlmaWNhdGlvbkNhdGVnb3J5WHJlbWluZGVyIz/oAAAAAAAACV8QMSQoUFJPRFVDVF9NT0RVTEVfTkFNRSkuTm90aWZpY2F0aW9uVmlld0NvbnRyb2xsZXJfEC1jb20uYXBwbGUudXNlcm5vdGlmaWNhdGlvbnMuY29udGVudC1leHRlbnNpb24T/////////9YTAAABAAAAAABnAEMAYQBmAOkAINg93RRPEBQAAQIDBAUGBwgJCgsMDQ4PEBESEzNBxchg/QAAAKCiJSVReAAIAB8AOwBQAGIAbgBzAHcAfACBAIcAjQCRAKsAygDMANMA6wEHASQBKwFNAX4BrAGvAcgB0QHaAdsCDwI/AkgCUQJgAncCgAKBAoQAAAAAAAACAQAAAAAAAAAmAAAAAAAAAAAAAAAAAAAChg==
        """, options: .ignoreUnknownCharacters)!)

    /// Assembled by hand from the bplist00 layout: `{"a": [1, true], "é": 2.5}`.
    static let handBinary: [UInt8] =
        Array("bplist00".utf8)
        + [0xD2, 0x01, 0x02, 0x03, 0x04]  // 8: object 0, dict of 2: keys 1, 2; values 3, 4
        + [0x51, 0x61]  // 13: object 1, ASCII string "a"
        + [0x61, 0x00, 0xE9]  // 15: object 2, UTF-16BE string "é"
        + [0xA2, 0x05, 0x06]  // 18: object 3, array [object 5, object 6]
        + [0x23, 0x40, 0x04, 0, 0, 0, 0, 0, 0]  // 21: object 4, real 2.5
        + [0x10, 0x01]  // 30: object 5, integer 1
        + [0x09]  // 32: object 6, true
        + [8, 13, 15, 18, 21, 30, 32]  // 33: offset table, one byte per object
        + [0, 0, 0, 0, 0, 0, 1, 1]  // trailer: unused, offset size 1, reference size 1
        + [0, 0, 0, 0, 0, 0, 0, 7]  // 7 objects
        + [0, 0, 0, 0, 0, 0, 0, 0]  // top object 0
        + [0, 0, 0, 0, 0, 0, 0, 33]  // offset table at 33

    static let handValue = PropertyListValue.dictionary(
        PropertyListDictionary([("a", .array([.integer(1), .bool(true)])), ("é", .real(2.5))]))

    /// `bplist00` built from raw objects (each a byte array), with 1-byte or wider offsets.
    static func binary(objects: [[UInt8]], top: Int = 0, referenceSize: Int = 1, count: Int? = nil) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let table = out.count
        let offsetSize = (offsets.max() ?? 0) <= 0xFF ? 1 : (offsets.max() ?? 0) <= 0xFFFF ? 2 : 4
        for offset in offsets { out += bigEndian(UInt64(offset), offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        out += bigEndian(UInt64(count ?? objects.count), 8) + bigEndian(UInt64(top), 8) + bigEndian(UInt64(table), 8)
        return out
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func parse(_ text: String) throws(PropertyListError) -> PropertyListValue {
        try PropertyListParser.parse(Array(text.utf8)).value
    }

    /// The error parsing `bytes` throws, or `nil` if it parses.
    static func error(_ bytes: [UInt8]) -> PropertyListError? {
        do {
            _ = try PropertyListParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ text: String) -> PropertyListError? { error(Array(text.utf8)) }

    /// A document around one value: `<plist version="1.0">` on line 3, the value from line 4.
    static func wrapped(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }
}

// MARK: - Random values

/// Random property-list trees for round trips, from the seeded `SplitMix64` of the JSON tests.
struct RandomPlist {
    var rng: SplitMix64
    /// Whether strings may hold a carriage return (Python's XML writer turns it into a line feed).
    var carriageReturns = true

    static let pieces: [String] = [
        "a", "Z", "0", " ", "\t", "\n", "<", ">", "&", "\"", "'", "&amp;", "]]>", "<!--", "é", "ü", "ß", "中文",
        "🔊", "🔔", "👩‍👩‍👧", "🇫🇷", "e\u{301}", "\u{7F}", "\u{FEFF}", "\u{FFFD}", "𝄞", "$(PRODUCT_MODULE_NAME)",
        "UNNotificationExtensionCategory", "com.apple.usernotifications.content-extension",
    ]

    mutating func string() -> String {
        let count = Int.random(in: 0...8, using: &rng)
        var text = ""
        for _ in 0..<count {
            text += Self.pieces.randomElement(using: &rng) ?? ""
            if carriageReturns, Int.random(in: 0..<40, using: &rng) == 0 { text += "\r" }
        }
        return text
    }

    mutating func integer() -> Int64 {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return [Int64.min, .max, 0, -1, 1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296].randomElement(using: &rng) ?? 0
        case 1: return Int64.random(in: -300...300, using: &rng)
        case 2: return Int64(bitPattern: rng.next())
        default: return Int64.random(in: -1_000_000...10_000_000, using: &rng)
        }
    }

    mutating func real() -> Double {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            return [-0.0, 0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                -.greatestFiniteMagnitude, .infinity, -.infinity, 1, 0.1, 1e-5, 1e16, 0.75, 1e300, -1e-300]
                .randomElement(using: &rng) ?? 0
        case 1:
            // A subnormal.
            return Double(bitPattern: rng.next() & 0x000F_FFFF_FFFF_FFFF | (rng.next() & 1) << 63)
        case 2, 3:
            // Any bit pattern but NaN.
            var value = Double(bitPattern: rng.next())
            while value.isNaN { value = Double(bitPattern: rng.next()) }
            return value
        case 4: return Double(Int.random(in: -1000...1000, using: &rng))
        default: return Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    /// Whole seconds from year 0001 to 9999.
    mutating func date() -> Double {
        Double(Int64.random(in: -63_113_904_000...252_423_993_599, using: &rng))
    }

    mutating func value(depth: Int = 0) -> PropertyListValue {
        let containers = depth < 5
        switch Int.random(in: 0..<(containers ? 10 : 7), using: &rng) {
        case 0: return .string(string())
        case 1: return .integer(integer())
        case 2: return .real(real())
        case 3: return .bool(Bool.random(using: &rng))
        case 4: return .date(date())
        case 5: return .data((0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 6: return .string(string())
        case 7: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth + 1) })
        default:
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int.random(in: 0...5, using: &rng) { dictionary[string()] = value(depth: depth + 1) }
            return .dictionary(dictionary)
        }
    }
}

/// Equality that also tells -0.0 from 0.0 (and NaN equals NaN): bit-for-bit values.
func identical(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)), (.date(let x), .date(let y)):
        return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && x.allSatisfy { entry in y[entry.key].map { identical(entry.value, $0) } ?? false }
    default:
        return a == b
    }
}

// MARK: - XML reading

@Suite struct PropertyListXMLTests {
    @Test func readsTheContentExtensionTemplate() throws {
        let (value, format) = try PropertyListParser.parse(Array(PlistFixtures.contentExtension.utf8))
        #expect(format == .xml)
        let attributes = value["NSExtension"]?["NSExtensionAttributes"]
        #expect(attributes?["UNNotificationExtensionCategory"] == .string("myNotificationCategory"))
        #expect(attributes?["UNNotificationExtensionInitialContentSizeRatio"] == .real(1))
        #expect(value["NSExtension"]?["NSExtensionMainStoryboard"] == .string("MainInterface"))
        #expect(value["NSExtension"]?["NSExtensionPointIdentifier"] == .string("com.apple.usernotifications.content-extension"))
        #expect(value["NSExtension"]?.dictionaryValue?.keys == ["NSExtensionAttributes", "NSExtensionMainStoryboard", "NSExtensionPointIdentifier"])
    }

    @Test func readsAFullExtensionManifest() throws {
        let value = try PlistFixtures.parse(PlistFixtures.fullExtension)
        #expect(value["CFBundleShortVersionString"] == .string("1.4.2"))
        #expect(value["CFBundleDevelopmentRegion"] == .string("$(DEVELOPMENT_LANGUAGE)"))
        #expect(value.dictionaryValue?.count == 10)
        let attributes = value["NSExtension"]?["NSExtensionAttributes"]
        #expect(attributes?["UNNotificationExtensionCategory"] == .array([.string("myNotificationCategory"), .string("reminder")]))
        #expect(attributes?["UNNotificationExtensionDefaultContentHidden"] == .bool(true))
        #expect(attributes?["UNNotificationExtensionUserInteractionEnabled"] == .bool(false))
        #expect(attributes?["UNNotificationExtensionInitialContentSizeRatio"]?.doubleValue == 0.75)
        #expect(attributes?["NotiplaySoundRepeatCount"] == .integer(3))
        #expect(value["NSExtension"]?["NSExtensionPrincipalClass"] == .string("$(PRODUCT_MODULE_NAME).NotificationViewController"))
    }

    @Test func readsEveryElementForm() throws {
        let value = try PlistFixtures.parse(
            PlistFixtures.wrapped(
                """
                <array>
                    <string/>
                    <string></string>
                    <dict/>
                    <array/>
                    <array></array>
                    <dict>
                    </dict>
                    <string>  two  spaces\n\ta tab  </string>
                    <string>&lt;b&gt; &amp; &quot;q&quot; &apos;a&apos; &#65;&#x42;&#x1F514;</string>
                    <string><![CDATA[<raw> & ]] > stuff]]></string>
                    <string>a<!-- not text -->b</string>
                    <integer>-12</integer>
                    <integer>+7</integer>
                    <integer> 42 </integer>
                    <integer>0x1F</integer>
                    <integer>-0x10</integer>
                    <integer>9223372036854775807</integer>
                    <integer>-9223372036854775808</integer>
                    <real>1</real>
                    <real>-2.5e-3</real>
                    <real>.5</real>
                    <real>1E+2</real>
                    <real>-inf</real>
                    <real>+infinity</real>
                    <real>INF</real>
                    <true/>
                    <false></false>
                    <date>2001-01-01T00:00:00Z</date>
                    <date>2024-02-29T13:45:30Z</date>
                    <data>
                    AAECAwQF
                    BgcICQ==
                    </data>
                    <data></data>
                    <data>AA</data>
                </array>
                """))
        let expected: [PropertyListValue] = [
            .string(""), .string(""), .dictionary(PropertyListDictionary()), .array([]), .array([]), .dictionary(PropertyListDictionary()),
            .string("  two  spaces\n\ta tab  "), .string("<b> & \"q\" 'a' AB🔔"), .string("<raw> & ]] > stuff"), .string("ab"),
            .integer(-12), .integer(7), .integer(42), .integer(31), .integer(-16), .integer(.max), .integer(.min),
            .real(1), .real(-0.0025), .real(0.5), .real(100), .real(-.infinity), .real(.infinity), .real(.infinity),
            .bool(true), .bool(false), .date(0), .date(730_907_130),
            .data([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), .data([]), .data([0]),
        ]
        #expect(value.arrayValue?.count == expected.count)
        for (got, want) in zip(value.arrayValue ?? [], expected) { #expect(got == want) }
    }

    @Test func readsNaNInAnyCase() throws {
        for spelling in ["nan", "NaN", "NAN", "-nan"] {
            let value = try PlistFixtures.parse(PlistFixtures.wrapped("<real>\(spelling)</real>"))
            guard case .real(let real) = value else {
                Issue.record("expected a real for \(spelling)")
                continue
            }
            #expect(real.isNaN)
        }
    }

    @Test func acceptsWhatRealFilesHold() throws {
        // A byte-order mark, CR LF line ends, comments before and after the root, no DOCTYPE,
        // single-quoted attributes, a processing instruction.
        let text = "\u{FEFF}<?xml version='1.0' encoding='utf-8'?>\r\n<!-- generated -->\r\n<plist version=\"1.0\">\r\n<!-- a --><dict><key>k</key><!-- b --><string>v</string></dict>\r\n</plist>\r\n<!-- end -->\r\n"
        #expect(try PlistFixtures.parse(text) == .dictionary(PropertyListDictionary([("k", .string("v"))])))
        #expect(try PlistFixtures.parse("<plist><string>bare</string></plist>") == .string("bare"))
        #expect(try PlistFixtures.parse("<plist version=\"1.0\"><true/></plist>") == .bool(true))
    }

    @Test func keepsKeyOrder() throws {
        let value = try PlistFixtures.parse(PlistFixtures.wrapped("<dict><key>z</key><true/><key>a</key><true/><key>m</key><true/></dict>"))
        #expect(value.dictionaryValue?.keys == ["z", "a", "m"])
    }

    @Test(arguments: [
        ("2001-01-01T00:00:00Z", 0.0),
        ("1970-01-01T00:00:00Z", -978_307_200),
        ("0001-01-01T00:00:00Z", -63_113_904_000),
        ("9999-12-31T23:59:59Z", 252_423_993_599),
        ("1900-03-01T00:00:00Z", -3_182_198_400),
        ("2000-02-29T12:00:00Z", -26_481_600),
        ("2024-02-29T13:45:30Z", 730_907_130),
        ("2001-01-01T00:00:00.5Z", 0.5),
    ])
    func computesDates(text: String, seconds: Double) throws {
        // Expected values computed with Python's datetime.
        #expect(try PlistFixtures.parse(PlistFixtures.wrapped("<date>\(text)</date>")) == .date(seconds))
    }

    @Test func formatsDatesBack() throws {
        let seconds: [Double] = [0, -978_307_200, -63_113_904_000, 252_423_993_599, -3_182_198_400, -26_481_600, 730_907_130]
        let texts = ["2001-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "1900-03-01T00:00:00Z", "2000-02-29T12:00:00Z", "2024-02-29T13:45:30Z"]
        for (value, text) in zip(seconds, texts) { #expect(PropertyListDate.format(value) == text) }
        #expect(PropertyListDate.format(0.5) == "2001-01-01T00:00:01Z")
        #expect(PropertyListDate.format(-0.4) == "2001-01-01T00:00:00Z")
        #expect(PropertyListDate.format(-1.5) == "2000-12-31T23:59:58Z")
        #expect(PropertyListDate.format(.nan) == "2001-01-01T00:00:00Z")
        #expect(PropertyListDate.format(1e300) == "9999-12-31T23:59:59Z")
        #expect(PropertyListDate.format(-.infinity) == "0000-01-01T00:00:00Z")
        // Every day from 1599 to 2401 reads back as itself.
        var day = -148_000.0
        var mismatches = 0
        while day < 146_000 {
            let seconds = day * 86_400 + 3_723
            if (try? PropertyListDate.parse(Array(PropertyListDate.format(seconds).utf8))) != seconds { mismatches += 1 }
            day += 1
        }
        #expect(mismatches == 0)
    }
}

// MARK: - XML errors

@Suite struct PropertyListXMLErrorTests {
    /// (document, line, column, part of the message). Documents from `wrapped` put the
    /// value on line 4.
    @Test(arguments: [
        (PlistFixtures.wrapped("<dict>\n\t<key>A</key>\n\t<foo>1</foo>\n</dict>"), 6, 2, "unknown element <foo>"),
        (PlistFixtures.wrapped("<dict>\n\t<key>A</key>\n\t<string>x</dict>\n</dict>"), 6, 11, "expected </string>, found </dict>"),
        (PlistFixtures.wrapped("<array>\n\t<string>x</string>\n</dict>"), 6, 1, "expected </array>, found </dict>"),
        (PlistFixtures.wrapped("<dict>\n\t<string>x</string>\n</dict>"), 5, 2, "expected <key> before <string> in <dict>"),
        (PlistFixtures.wrapped("<dict>\n\t<key>X</key>\n</dict>"), 5, 2, "key \"X\" has no value"),
        (PlistFixtures.wrapped("<dict>\n\t<key>X</key>\n\t<key>Y</key>\n\t<true/>\n</dict>"), 5, 2, "key \"X\" has no value"),
        (PlistFixtures.wrapped("<dict>\n\t<key>X</key>\n\t<true/>\n\t<key>X</key>\n\t<false/>\n</dict>"), 7, 2, "duplicate key \"X\" (first at line 5, column 2)"),
        (PlistFixtures.wrapped("<array>\n\t<key>X</key>\n</array>"), 5, 2, "<key> outside a <dict>"),
        (PlistFixtures.wrapped("<integer>abc</integer>"), 4, 10, "\"abc\" is not an integer"),
        (PlistFixtures.wrapped("<integer>12.5</integer>"), 4, 10, "\"12.5\" is not an integer"),
        (PlistFixtures.wrapped("<integer></integer>"), 4, 1, "<integer> is empty"),
        (PlistFixtures.wrapped("<integer>0x</integer>"), 4, 10, "\"0x\" is not an integer"),
        (PlistFixtures.wrapped("<integer>9223372036854775808</integer>"), 4, 10, "\"9223372036854775808\" is out of the integer range"),
        (PlistFixtures.wrapped("<integer>-9223372036854775809</integer>"), 4, 10, "out of the integer range"),
        (PlistFixtures.wrapped("<integer>0x10000000000000000</integer>"), 4, 10, "out of the integer range"),
        (PlistFixtures.wrapped("<real>1.2.3</real>"), 4, 7, "\"1.2.3\" is not a real number"),
        (PlistFixtures.wrapped("<real>0x1p3</real>"), 4, 7, "\"0x1p3\" is not a real number"),
        (PlistFixtures.wrapped("<real>1e</real>"), 4, 7, "\"1e\" is not a real number"),
        (PlistFixtures.wrapped("<real>  </real>"), 4, 1, "<real> is empty"),
        (PlistFixtures.wrapped("<data>\n\tAAEC\n\tA*==\n</data>"), 6, 3, "bad base64 in <data>: unexpected '*'"),
        (PlistFixtures.wrapped("<data>AAECA</data>"), 4, 1, "bad base64 in <data>: the data ends part-way"),
        (PlistFixtures.wrapped("<data>AA==AA</data>"), 4, 11, "bad base64"),
        (PlistFixtures.wrapped("<date>2020-02-30T00:00:00Z</date>"), 4, 7, "not a valid date: day 30 does not exist in month 2 of 2020"),
        (PlistFixtures.wrapped("<date>2021-13-01T00:00:00Z</date>"), 4, 7, "month 13 does not exist"),
        (PlistFixtures.wrapped("<date>2021-01-01T24:00:00Z</date>"), 4, 7, "hour 24 does not exist"),
        (PlistFixtures.wrapped("<date>2021-01-01 10:00:00</date>"), 4, 7, "is not a date in the form YYYY-MM-DDTHH:MM:SSZ"),
        (PlistFixtures.wrapped("<date>yesterday</date>"), 4, 7, "\"yesterday\" is not a date"),
        (PlistFixtures.wrapped("<array>\n<!-- open"), 5, 1, "unterminated comment"),
        (PlistFixtures.wrapped("<array>\n\t<string>x</string"), 5, 11, "unterminated tag </string (missing '>')"),
        (PlistFixtures.wrapped("<array>\n\t<string"), 5, 2, "unterminated tag <string (missing '>')"),
        ("<plist><array>\n\t<string", 2, 2, "unterminated tag <string"),
        ("<plist><array>\n\t<string>x</string", 2, 11, "unterminated tag </string"),
        ("<plist>\n<array>\n\t<string>x</string>\n", 2, 1, "<array> is never closed (missing </array>)"),
        ("<plist>\n\t<string>never closed\n", 2, 2, "<string> is never closed"),
        (PlistFixtures.wrapped("<string>a &copy; b</string>"), 4, 11, "unknown entity &copy;"),
        (PlistFixtures.wrapped("<string>fish & chips</string>"), 4, 14, "'&' must be written &amp;"),
        (PlistFixtures.wrapped("<string>&#xD800;</string>"), 4, 9, "not a valid character"),
        (PlistFixtures.wrapped("<string>&#0;</string>"), 4, 9, "not a valid character"),
        (PlistFixtures.wrapped("<string>&#xZZ;</string>"), 4, 9, "malformed character reference"),
        (PlistFixtures.wrapped("<string>a <b>bold</b></string>"), 4, 11, "unexpected <b> inside <string>"),
        (PlistFixtures.wrapped("<dict>\n\thello\n</dict>"), 5, 2, "unexpected text \"hello\" inside <dict>"),
        (PlistFixtures.wrapped("<array>x<string/></array>"), 4, 8, "unexpected text \"x\" inside <array>"),
        (PlistFixtures.wrapped("loose"), 4, 1, "unexpected text \"loose\" inside <plist>"),
        (PlistFixtures.wrapped("<true/>\n<false/>"), 5, 1, "<plist> must hold exactly one value"),
        ("<plist></plist>", 1, 1, "<plist> is empty"),
        ("<plist/>", 1, 1, "<plist> is empty"),
        (PlistFixtures.wrapped("<true/>") + "<true/>\n", 6, 1, "after </plist>"),
        ("<plist><true/></plist>\ntrailing", 2, 1, "unexpected \"trailing\" after </plist>"),
        ("<?xml version=\"1.0\"?>\n<dict/>", 2, 1, "expected <plist> root element, found <dict>"),
        ("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n", 3, 1, "expected <plist> root element"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist/>", 1, 1, "encoding \"ISO-8859-1\" is not supported"),
        ("<plist><plist><true/></plist></plist>", 1, 8, "<plist> can only be the root element"),
        ("<plist><true>yes</true></plist>", 1, 8, "<true> must be empty"),
        ("<plist><string x=1>a</string></plist>", 1, 8, "must be in quotes"),
        ("<plist><string/ ></plist>", 1, 8, "malformed tag"),
        ("<plist><array><![CDATA[x]]></array></plist>", 1, 15, "unexpected CDATA section inside <array>"),
        ("<plist>\n<string><![CDATA[x</string></plist>", 2, 9, "unterminated CDATA section"),
        ("<!DOCTYPE plist [ <!ENTITY x \"y\"> \n", 1, 1, "unterminated <!DOCTYPE>"),
        ("{\n  CFBundleName = Demo;\n}\n", 1, 1, "not a property list: expected XML (<?xml or <plist) or binary (bplist00)"),
        ("{\"CFBundleName\": \"Demo\"}", 1, 1, "not a property list"),
        ("  ( a, b )", 1, 3, "not a property list"),
        ("\u{FEFF}\n [1, 2]", 2, 2, "not a property list"),
        ("<?xml version=\"1.0\"?>\nhello\n<plist/>", 2, 1, "unexpected text \"hello\" before the <plist> root element"),
    ])
    func reportsWhereAndWhat(document: String, line: Int, column: Int, message: String) {
        let error = PlistFixtures.error(document)
        #expect(error?.message.contains(message) == true, "got \(String(describing: error))")
        #expect(error?.line == line, "got \(String(describing: error))")
        #expect(error?.column == column, "got \(String(describing: error))")
        #expect(error?.offset == nil)
    }

    @Test func emptyFiles() {
        for text in ["", "   \n\t ", "\u{FEFF}", "\u{FEFF}\n"] {
            let error = PlistFixtures.error(text)
            #expect(error?.message == "the file is empty")
            #expect(error?.description == "the file is empty")
        }
    }

    @Test func invalidUTF8IsReportedWhereItIs() {
        var bytes = Array(PlistFixtures.wrapped("<string>caf\u{E9}</string>").utf8)
        // Replace "é" (C3 A9) by a lone Latin-1 E9.
        let at = bytes.firstIndex(of: 0xC3)!
        bytes.replaceSubrange(at..<(at + 2), with: [0xE9])
        let error = PlistFixtures.error(bytes)
        #expect(error?.message.contains("invalid UTF-8") == true)
        #expect(error?.message.contains("0xE9") == true)
        #expect(error?.line == 4)
        #expect(error?.column == 12)
        // Overlong, surrogate and truncated sequences.
        for sequence: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x94], [0xF8, 0x80, 0x80, 0x80, 0x80], [0x80]] {
            let document = Array("<plist><string>".utf8) + sequence + Array("</string></plist>".utf8)
            let error = PlistFixtures.error(document)
            #expect(error?.message.contains("invalid UTF-8") == true)
            #expect(error?.column == 16)
        }
    }

    @Test func refusesUTF16() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<plist><true/></plist>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(PlistFixtures.error(bytes)?.message.contains("UTF-16") == true)
        #expect(PlistFixtures.error(Array(bytes.dropFirst(2)))?.message.contains("UTF-16") == true)
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = PlistFixtures.error("<plist><string>🔔é</string><foo/></plist>")
        #expect(error?.line == 1)
        #expect(error?.column == 27)
        #expect(error?.message == "unknown element <foo>")
    }

    @Test func descriptionPutsThePositionFirst() {
        #expect(PlistFixtures.error(PlistFixtures.wrapped("<strin>x</strin>"))?.description == "line 4, column 1: unknown element <strin>")
        #expect(PropertyListError(message: "m", offset: 120).description == "byte 120: m")
        #expect(PropertyListError(message: "m").description == "m")
    }

    @Test func acceptsExactlyTheMaximumDepth() throws {
        let depth = PropertyListParser.maximumDepth
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        var value = try PlistFixtures.parse(text)
        var levels = 0
        while case .array(let items) = value {
            levels += 1
            guard let first = items.first else { break }
            value = first
        }
        #expect(levels == depth)
        let deeper = "<plist>" + String(repeating: "<array>", count: depth) + "<array/>" + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(PlistFixtures.error(deeper)?.message == "nesting deeper than 512 levels")
    }
}

// MARK: - Binary reading

@Suite struct PropertyListBinaryTests {
    @Test func readsAHandAssembledFile() throws {
        let (value, format) = try PropertyListParser.parse(PlistFixtures.handBinary)
        #expect(format == .binary)
        #expect(value == PlistFixtures.handValue)
        #expect(value.dictionaryValue?.keys == ["a", "é"])
    }

    @Test func readsAFileWrittenByPlistlib() throws {
        let (value, format) = try PropertyListParser.parse(PlistFixtures.plistlibBinary)
        #expect(format == .binary)
        #expect(value["CFBundleIdentifier"] == .string("$(PRODUCT_BUNDLE_IDENTIFIER)"))
        #expect(value["Size"] == .integer(-42))
        #expect(value["Big"] == .integer(1 << 40))
        #expect(value["Name"] == .string("Café 🔔"))
        #expect(value["Blob"] == .data(Array(0..<20)))
        #expect(value["Built"] == .date(730_907_130))
        #expect(value["Empty"] == .array([]))
        #expect(value["Dup"] == .array([.string("x"), .string("x")]))
        let attributes = value["NSExtension"]?["NSExtensionAttributes"]
        #expect(attributes?["UNNotificationExtensionCategory"] == .array([.string("myNotificationCategory"), .string("reminder")]))
        #expect(attributes?["UNNotificationExtensionInitialContentSizeRatio"] == .real(0.75))
        #expect(attributes?["UNNotificationExtensionDefaultContentHidden"] == .bool(true))
        #expect(value["NSExtension"]?["NSExtensionPrincipalClass"] == .string("$(PRODUCT_MODULE_NAME).NotificationViewController"))
        #expect(value.dictionaryValue?.keys.first == "CFBundleDevelopmentRegion")
    }

    @Test func readsEveryScalarEncoding() throws {
        let objects: [[UInt8]] = [
            [0xAF, 0x10, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],  // array of 12, count in an int object
            [0x10, 0xFF],  // 255 (1-byte ints are unsigned)
            [0x11, 0xFF, 0xFE],  // 65534
            [0x12, 0xFF, 0xFF, 0xFF, 0xFF],  // 4294967295
            [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],  // -2
            [0x14] + [UInt8](repeating: 0, count: 8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // 16 bytes: Int64.max
            [0x14] + [UInt8](repeating: 0xFF, count: 8) + [0x80, 0, 0, 0, 0, 0, 0, 0],  // 16 bytes: Int64.min
            [0x22, 0x3F, 0xC0, 0x00, 0x00],  // Float 1.5
            [0x33, 0x41, 0xC5, 0xC8, 0x60, 0xFD, 0, 0, 0],  // date 730907130
            [0x08],  // false
            [0xC2, 0x0B, 0x0C],  // a set: read as an array
            [0x63, 0xD8, 0x3D, 0xDD, 0x14, 0x00, 0x21],  // "🔔!" in UTF-16BE
            [0x40],  // empty data
        ]
        let value = try PropertyListParser.parse(PlistFixtures.binary(objects: objects)).value
        #expect(value == .array([
            .integer(255), .integer(65534), .integer(4_294_967_295), .integer(-2), .integer(.max), .integer(.min),
            .real(1.5), .date(730_907_130), .bool(false), .array([.string("🔔!"), .data([])]), .string("🔔!"), .data([]),
        ]))
    }

    /// (file, byte offset, part of the message), from the hand-assembled file with one change.
    static func variant(_ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = PlistFixtures.handBinary
        change(&bytes)
        return bytes
    }

    static let trailer = PlistFixtures.handBinary.count - 32

    @Test(arguments: [
        (variant { $0[32] = 0x00 }, 32, "null is not supported"),
        (variant { $0[32] = 0x0F }, 32, "unknown object type 0x0F"),
        (variant { $0[30] = 0x80 }, 30, "UID values (NSKeyedArchiver) are not supported"),
        (variant { $0[19] = 0x03 }, 18, "object 3 refers to itself"),
        (variant { $0[9] = 0x05 }, 30, "has a key that is an integer, not a string"),
        (variant { $0[10] = 0x01 }, 8, "has the key \"a\" twice"),
        (variant { $0[20] = 0x09 }, 20, "object 3 refers to object 9, but the file holds only 7 objects"),
        (variant { $0[trailer + 6] = 3 }, trailer + 6, "offset size is 3; it must be 1, 2, 4 or 8"),
        (variant { $0[trailer + 7] = 0 }, trailer + 7, "object reference size is 0"),
        (variant { $0[trailer + 15] = 0 }, trailer + 8, "holds no objects"),
        (variant { $0[trailer + 15] = 200 }, trailer + 8, "the offset table does not fit"),
        (variant { $0[trailer + 23] = 7 }, trailer + 16, "the top object is number 7, but the file holds only 7 objects"),
        (variant { $0[trailer + 31] = 250 }, trailer + 24, "the offset table's offset 250 is outside the file"),
        (variant { $0[trailer + 31] = 3 }, trailer + 24, "is outside the file"),
        (variant { $0[33] = 3 }, 33, "object 0's offset 3 is outside the object area"),
        (variant { $0[34] = 40 }, 34, "object 1's offset 40 is outside the object area"),
        (variant { $0[21] = 0x24 }, 21, "real of 16 bytes is not supported"),
        (variant { $0[30] = 0x15 }, 30, "integer of 32 bytes is not supported"),
        (variant { $0[30] = 0x13 }, 30, "integer (object 5) runs past the end of the object area"),
        (variant { $0[8] = 0xDF }, 9, "length must be an integer object, found marker 0x01"),
        (variant { $0[13] = 0x5F }, 14, "found marker 0x61"),
        (variant { $0[15] = 0x6F }, 16, "found marker 0x00"),
        (variant { $0[14] = 0xE9 }, 14, "holds byte 0xE9, which is not ASCII"),
        (variant { $0[15] = 0x6F; $0[16] = 0x10; $0[17] = 0x20 }, 15, "UTF-16 string (object 2) claims 32 UTF-16 units, more than fit before the offset table at byte 33"),
        (variant { $0[18] = 0xAF; $0[19] = 0x10; $0[20] = 0x0F }, 18, "array (object 3) claims 15 object references"),
        (variant { $0[16] = 0xDC }, 16, "unpaired low surrogate 0xDCE9"),
        (variant { $0[16] = 0xD8 }, 16, "unpaired high surrogate 0xD8E9"),
        (Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40), 0, "unsupported binary property list version \"bplist15\""),
        (Array("bplist00".utf8) + [0x09], 9, "too short"),
    ])
    func reportsOffsetAndWhat(file: [UInt8], offset: Int, message: String) {
        let error = PlistFixtures.error(file)
        #expect(error?.message.contains(message) == true, "got \(String(describing: error))")
        #expect(error?.offset == offset, "got \(String(describing: error))")
        #expect(error?.line == nil)
    }

    @Test func hugeLengthsAreErrorsNotAllocations() {
        let lengths: [[UInt8]] = [
            [0x13, 0x10, 0, 0, 0, 0, 0, 0, 0],  // 2^60
            [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // Int64.max
            [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // UInt64.max
            [0x12, 0xFF, 0xFF, 0xFF, 0xFF],
        ]
        for type: UInt8 in [0x4F, 0x5F, 0x6F, 0xAF, 0xCF, 0xDF] {
            for length in lengths {
                let error = PlistFixtures.error(PlistFixtures.binary(objects: [[type] + length + [0x09, 0x09]]))
                #expect(error != nil)
                #expect(error?.message.contains("claims") == true || error?.message.contains("more than") == true, "got \(String(describing: error))")
            }
        }
        // An object count of 2^60 in the trailer.
        var file = PlistFixtures.handBinary
        file.replaceSubrange((file.count - 24)..<(file.count - 16), with: PlistFixtures.bigEndian(1 << 60, 8))
        #expect(PlistFixtures.error(file)?.message.contains("does not fit") == true)
    }

    @Test func sixteenByteIntegersMustFitIn64Bits() {
        // What plistlib writes for 2**64 - 1.
        let file = PlistFixtures.binary(objects: [[0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)])
        let error = PlistFixtures.error(file)
        #expect(error?.message == "integer 18446744073709551615 (object 0) is out of the 64-bit signed range")
        #expect(error?.offset == 8)
    }

    @Test func indirectCyclesAreErrors() {
        // 0 = [1], 1 = [2], 2 = [0]
        let file = PlistFixtures.binary(objects: [[0xA1, 0x01], [0xA1, 0x02], [0xA1, 0x00]])
        let error = PlistFixtures.error(file)
        #expect(error?.message == "object 0 refers to itself")
        #expect(error?.offset == 8)
        // A dictionary whose value is itself.
        let dictionary = PlistFixtures.binary(objects: [[0xD1, 0x01, 0x00], [0x51, 0x6B]])
        #expect(PlistFixtures.error(dictionary)?.message == "object 0 refers to itself")
    }

    @Test func sharedObjectsAreNotCycles() throws {
        // 0 = [1, 1, 2], 1 = "s", 2 = [1]
        let file = PlistFixtures.binary(objects: [[0xA3, 0x01, 0x01, 0x02], [0x51, 0x73], [0xA1, 0x01]])
        #expect(try PropertyListParser.parse(file).value == .array([.string("s"), .string("s"), .array([.string("s")])]))
    }

    @Test func deepFilesAreRefused() {
        // 1,000 arrays, each holding the next, with 2-byte references.
        let depth = 1_000
        var objects: [[UInt8]] = (0..<(depth - 1)).map { [0xA1] + PlistFixtures.bigEndian(UInt64($0 + 1), 2) }
        objects.append([0x09])
        let error = PlistFixtures.error(PlistFixtures.binary(objects: objects, referenceSize: 2))
        #expect(error?.message == "nesting deeper than 512 levels")
        #expect(error?.offset == 8 + 3 * 512)
        // 512 levels are fine.
        var exact: [[UInt8]] = (0..<511).map { [0xA1] + PlistFixtures.bigEndian(UInt64($0 + 1), 2) }
        exact.append([0xA0])
        #expect(PlistFixtures.error(PlistFixtures.binary(objects: exact, referenceSize: 2)) == nil)
    }

}

// MARK: - Writing

@Suite struct PropertyListWriterTests {
    @Test func writesXMLAsXcodeDoes() throws {
        let value = try PlistFixtures.parse(PlistFixtures.contentExtension)
        #expect(PropertyListWriter.xml(value) == PlistFixtures.contentExtension)
    }

    @Test func writesEveryXMLForm() {
        let value = PropertyListValue.dictionary(PropertyListDictionary([
            ("a<&>b", .string("x < y && z > w\r")),
            ("int", .integer(-5)),
            ("reals", .array([.real(1), .real(0.1), .real(-0.0), .real(1e-5), .real(.infinity), .real(-.infinity), .real(.nan), .real(1e100)])),
            ("flags", .array([.bool(true), .bool(false)])),
            ("date", .date(730_907_130.4)),
            ("data", .data(Array(0..<60))),
            ("none", .data([])),
            ("empty", .array([])),
            ("nothing", .dictionary(PropertyListDictionary())),
            ("blank", .string("")),
        ]))
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a&lt;&amp;&gt;b</key>
            \t<string>x &lt; y &amp;&amp; z &gt; w&#13;</string>
            \t<key>int</key>
            \t<integer>-5</integer>
            \t<key>reals</key>
            \t<array>
            \t\t<real>1</real>
            \t\t<real>0.1</real>
            \t\t<real>-0</real>
            \t\t<real>1e-05</real>
            \t\t<real>+infinity</real>
            \t\t<real>-infinity</real>
            \t\t<real>nan</real>
            \t\t<real>1e+100</real>
            \t</array>
            \t<key>flags</key>
            \t<array>
            \t\t<true/>
            \t\t<false/>
            \t</array>
            \t<key>date</key>
            \t<date>2024-02-29T13:45:30Z</date>
            \t<key>data</key>
            \t<data>
            \tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEy
            \tMzQ1Njc4OTo7
            \t</data>
            \t<key>none</key>
            \t<data>
            \t</data>
            \t<key>empty</key>
            \t<array/>
            \t<key>nothing</key>
            \t<dict/>
            \t<key>blank</key>
            \t<string></string>
            </dict>
            </plist>

            """
        #expect(PropertyListWriter.xml(value) == expected)
    }

    @Test func writesTheSmallestBinary() {
        #expect(PropertyListWriter.binary(PlistFixtures.handValue) == PlistFixtures.handBinary)
    }

    @Test func widensReferencesAndOffsetsWhenNeeded() throws {
        let many = PropertyListValue.array((0..<300).map { .integer(Int64($0)) })
        let bytes = PropertyListWriter.binary(many)
        #expect(bytes[bytes.count - 26] == 2)  // offsets need 2 bytes
        #expect(bytes[bytes.count - 25] == 2)  // 301 objects need 2-byte references
        #expect(try PropertyListParser.parse(bytes).value == many)
        let big = PropertyListValue.data([UInt8](repeating: 7, count: 70_000))
        let bigBytes = PropertyListWriter.binary(big)
        #expect(bigBytes[bigBytes.count - 26] == 1)
        #expect(try PropertyListParser.parse(bigBytes).value == big)
        let pair = PropertyListValue.array([big, .string("after")])
        let pairBytes = PropertyListWriter.binary(pair)
        #expect(pairBytes[pairBytes.count - 26] == 4)
        #expect(try PropertyListParser.parse(pairBytes).value == pair)
    }

    @Test func nanSurvivesBothForms() throws {
        for bytes in [Array(PropertyListWriter.xml(.real(.nan)).utf8), PropertyListWriter.binary(.real(.nan))] {
            let value = try PropertyListParser.parse(bytes).value
            #expect(value.doubleValue?.isNaN == true)
        }
    }

    @Test func roundTripsRandomValues() throws {
        var random = RandomPlist(rng: SplitMix64(seed: 0x6E6F_7469_706C_6179))
        for round in 0..<1_500 {
            let value = random.value()
            let xml = PropertyListWriter.xml(value)
            let fromXML = try PropertyListParser.parse(Array(xml.utf8))
            #expect(fromXML.format == .xml)
            #expect(identical(fromXML.value, value), "round \(round) XML:\n\(xml)")
            let binary = PropertyListWriter.binary(value)
            let fromBinary = try PropertyListParser.parse(binary)
            #expect(fromBinary.format == .binary)
            #expect(identical(fromBinary.value, value), "round \(round) binary of \(value)")
            if !identical(fromXML.value, value) || !identical(fromBinary.value, value) { break }
        }
    }
}

// MARK: - Other implementations

/// The path of an executable on `PATH`, if any.
func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a program to completion; returns its exit status and standard error.
func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
    try spawnAndWait(program, arguments)
}

let python3 = executable("python3").flatMap { path in
    ((try? run(path, ["-c", "import plistlib"]))?.status == 0) ? path : nil
}

@Suite struct PropertyListCrossCheckTests {
    /// Python's plistlib reads what we write in both forms, and writes each back in both forms
    /// for us to read: every value must survive.
    @Test(.enabled(if: python3 != nil, "python3 with plistlib is not available"))
    func plistlibAgrees() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = RandomPlist(rng: SplitMix64(seed: 2024), carriageReturns: false)
        var values: [PropertyListValue] = [try PlistFixtures.parse(PlistFixtures.fullExtension)]
        for _ in 0..<150 {
            values.append(random.value())
        }
        for (k, value) in values.enumerated() {
            try Fixtures.write(Array(PropertyListWriter.xml(value).utf8), to: folder.appendingPathComponent("\(k).xml.in"))
            try Fixtures.write(PropertyListWriter.binary(value), to: folder.appendingPathComponent("\(k).bin.in"))
        }
        let script = """
            import plistlib, sys, os
            folder = sys.argv[1]
            for name in sorted(os.listdir(folder)):
                if not name.endswith('.in'):
                    continue
                with open(os.path.join(folder, name), 'rb') as f:
                    data = f.read()
                try:
                    value = plistlib.loads(data)
                except Exception as e:
                    sys.stderr.write(f'{name}: {e!r}\\n')
                    sys.exit(1)
                base = os.path.join(folder, name[:-3])
                with open(base + '.py.xml', 'wb') as f:
                    f.write(plistlib.dumps(value, fmt=plistlib.FMT_XML))
                with open(base + '.py.bin', 'wb') as f:
                    f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
            """
        let result = try run(try #require(python3), ["-c", script, folder.path])
        #expect(result.status == 0, "plistlib: \(result.errors)")
        guard result.status == 0 else { return }
        for (k, value) in values.enumerated() {
            for form in ["xml", "bin"] {
                for back in ["py.xml", "py.bin"] {
                    let url = folder.appendingPathComponent("\(k).\(form).\(back)")
                    let bytes = Array(try Data(contentsOf: url))
                    let read = try PropertyListParser.parse(bytes)
                    #expect(read.format == (back == "py.xml" ? PropertyListFormat.xml : .binary))
                    #expect(identical(read.value, value), "\(url.lastPathComponent) differs from \(value)")
                }
            }
        }
    }

    /// swift-corelibs-foundation's plutil, where installed, converts our fixture to its binary
    /// form; we read that back.
    @Test(.enabled(if: executable("plutil") != nil, "plutil is not available"))
    func plutilBinaryReadsBack() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Info.plist")
        let output = folder.appendingPathComponent("Info.bplist")
        try Fixtures.write(Array(PlistFixtures.fullExtension.utf8), to: source)
        let result = try run(try #require(executable("plutil")), ["-convert", "binary1", "-o", output.path, source.path])
        #expect(result.status == 0, "plutil: \(result.errors)")
        let read = try PropertyListParser.parse(Array(try Data(contentsOf: output)))
        #expect(read.format == .binary)
        let expected = try PlistFixtures.parse(PlistFixtures.fullExtension)
        #expect(read.value == expected)
    }
}

// MARK: - Fuzzing

@Suite struct PropertyListFuzzTests {
    /// Flips, overwrites, inserts, deletes and duplicates random bytes of valid files; the
    /// parser must return a value or throw an error that points inside the file.
    @Test(arguments: ["xml", "binary", "plistlib"])
    func mutatedFilesNeverTrap(kind: String) throws {
        let original: [UInt8] =
            switch kind {
            case "xml": Array(PlistFixtures.fullExtension.utf8)
            case "binary": PropertyListWriter.binary(try PlistFixtures.parse(PlistFixtures.fullExtension))
            default: PlistFixtures.plistlibBinary
            }
        var rng = SplitMix64(seed: UInt64(kind.utf8.count) &* 7919)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<max(bytes.count, 1), using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where at < bytes.count: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                case 1 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: min(at, bytes.count))
                case 3 where at < bytes.count: bytes.remove(at: at)
                case 4 where at < bytes.count:
                    let end = min(bytes.count, at + Int.random(in: 1...16, using: &rng))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                default:
                    // A "special" byte where it hurts: markers, lengths, '<', '&', '>'.
                    if at < bytes.count { bytes[at] = [0x00, 0x0F, 0x1F, 0x4F, 0x6F, 0xAF, 0xDF, 0xFF, 0x3C, 0x26, 0x3E, 0x2F].randomElement(using: &rng) ?? 0 }
                }
            }
            do {
                _ = try PropertyListParser.parse(bytes)
                parsed += 1
            } catch {
                if let line = error.line { #expect(line >= 1) }
                if let column = error.column { #expect(column >= 1) }
                if let offset = error.offset { #expect(offset >= 0 && offset <= bytes.count) }
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed < 20_000)
    }
}
