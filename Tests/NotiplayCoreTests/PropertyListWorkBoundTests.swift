@testable import NotiplayCore
import NotiplayTestSupport
import Testing

extension RealTime {
    /// Limits that keep hostile property lists from taking unbounded time: the verdict is the
    /// error, and a wall-clock bound far above the work (milliseconds) that a reader without the
    /// limit cannot meet.
    @Suite(.timeLimit(.minutes(1))) struct PropertyListWorkBoundTests {
        /// The bound catches a reader that walks the whole 100,000 levels (or recurses into them)
        /// before it counts the depth: it takes milliseconds here, a quadratic or recursive walk takes
        /// far longer than 2 s, and a recursive one crashes.
        @Test func refusesDeepNestingWithoutRecursing() {
            let depth = 100_000
            let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
            let clock = ContinuousClock()
            var error: PropertyListError?
            let elapsed = clock.measure { error = PlistFixtures.error(text) }
            #expect(error?.message == "nesting deeper than 512 levels")
            #expect(error?.line == 1)
            #expect(error?.column == 8 + 7 * 512)
            #expect(elapsed < .seconds(2))
            // Unclosed, too: the error comes from the depth, not the end of the file.
            #expect(PlistFixtures.error("<plist>" + String(repeating: "<dict><key>k</key>", count: depth))?.message == "nesting deeper than 512 levels")
        }

        /// The bound catches a reader that expands shared objects without counting them: 2^60 values
        /// never finish; the counted limit answers in milliseconds here.
        @Test func exponentialSharingIsRefused() {
            // Object k is [k+1, k+1]: 60 objects expand to 2^60 values.
            var objects: [[UInt8]] = (0..<59).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
            objects.append([0x09])
            let clock = ContinuousClock()
            var error: PropertyListError?
            let elapsed = clock.measure { error = PlistFixtures.error(PlistFixtures.binary(objects: objects)) }
            #expect(error?.message.contains("expands to more than 10000000 values") == true)
            #expect(elapsed < .seconds(2))
        }
    }
}
