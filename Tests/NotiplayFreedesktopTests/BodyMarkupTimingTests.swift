import NotiplayCore
import NotiplayFreedesktop
import NotiplayTestSupport
import Testing

extension RealTime {
    /// Body markup parsing stays linear: a wall-clock bound far above the work (milliseconds
    /// here), which a quadratic scan of a 64 KiB body or of 32,768 unclosed tags cannot meet. In
    /// the real-time lane, alone: in the parallel lane beside every other test (and under a
    /// sanitizer) the bound is a race.
    @Suite(.timeLimit(.minutes(1))) struct BodyMarkupTimingTests {
        @Test func sixtyFourKiBBodiesParseFast() {
            let unit = "<b>bold</b> <i>it</i> &amp; <a href=\"https://example.org/x\">link</a> text <img src=x> "
            let body = String(repeating: unit, count: 65_536 / unit.utf8.count + 1)
            let hostile = String(repeating: "<a \"", count: 16_384) + String(repeating: "<!--", count: 16_384)
            let clock = ContinuousClock()
            var plain = ""
            var hostilePlain = ""
            let elapsed = clock.measure {
                plain = BodyMarkup.parse(body).plainText
                hostilePlain = BodyMarkup.parse(hostile).plainText
            }
            #expect(body.utf8.count >= 65_536)
            #expect(plain.hasPrefix("bold it & link text"))
            #expect(hostilePlain.utf8.count == hostile.utf8.count)
            #expect(elapsed < .seconds(2), "took \(elapsed)")
        }
    }
}
