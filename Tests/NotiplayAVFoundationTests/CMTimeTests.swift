import NotiplayAVFoundation
import Testing

@Suite("CMTime: CoreMedia's rational times")
struct CMTimeTests {
    @Test("Made from a value and timescale, or from seconds (rounded, and flagged so)")
    func making() {
        let half = CMTime(value: 1, timescale: 2)
        #expect(half.value == 1 && half.timescale == 2 && half.epoch == 0 && half.flags == .valid)
        #expect(half.seconds == 0.5 && CMTimeGetSeconds(half) == 0.5)
        #expect(CMTimeMake(value: 900, timescale: 600).seconds == 1.5)

        let exact = CMTime(seconds: 1.5, preferredTimescale: 600)
        #expect(exact.value == 900 && exact.timescale == 600 && exact.flags == .valid)
        let rounded = CMTimeMakeWithSeconds(1.0 / 3, preferredTimescale: 10)
        #expect(rounded.value == 3 && rounded.flags == [.valid, .hasBeenRounded])

        #expect(!CMTime(seconds: .nan, preferredTimescale: 600).isValid)
        #expect(!CMTime(seconds: 1, preferredTimescale: 0).isValid)
        #expect(!CMTime(value: 1, timescale: 0).isValid)
        #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        #expect(CMTime(seconds: -1e300, preferredTimescale: 600).isNegativeInfinity)
    }

    @Test("Special times: validity, kinds and seconds")
    func specials() {
        #expect(CMTime.zero.isNumeric && CMTime.zero.seconds == 0)
        #expect(!CMTime.invalid.isValid && CMTime.invalid.seconds.isNaN)
        #expect(CMTime.indefinite.isValid && CMTime.indefinite.isIndefinite && !CMTime.indefinite.isNumeric)
        #expect(CMTime.indefinite.seconds.isNaN)
        #expect(CMTime.positiveInfinity.seconds == .infinity && CMTime.negativeInfinity.seconds == -.infinity)
        #expect("\(CMTime(value: 3, timescale: 2))" == "{3/2 = 1.5}")
        #expect("\(CMTime.invalid)" == "{INVALID}")
    }

    @Test("Equal by the instant, whatever the timescale; hashes agree")
    func equality() {
        let a = CMTime(value: 1, timescale: 2)
        let b = CMTime(value: 300, timescale: 600)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(Set([a, b, CMTime(seconds: 0.5, preferredTimescale: 1_000_000_000)]).count == 1)
        #expect(CMTime(value: 1, timescale: 3) != CMTime(value: 333, timescale: 1000))
        #expect(CMTime.invalid == CMTime.invalid && CMTime.indefinite != CMTime.invalid)
        #expect(CMTime(value: -2, timescale: 4) == CMTime(value: -1, timescale: 2))
    }

    @Test("Ordered as CMTimeCompare orders: −∞, numbers, indefinite, +∞, invalid")
    func ordering() {
        let numbers = [CMTime(value: -7, timescale: 3), .zero, CMTime(value: 1, timescale: 3), CMTime(value: 334, timescale: 1000)]
        let sorted: [CMTime] = [.negativeInfinity] + numbers + [.indefinite, .positiveInfinity, .invalid]
        #expect(sorted.reversed().sorted().map(\.description) == sorted.map(\.description))
        #expect(CMTimeCompare(.zero, CMTime(value: 1, timescale: 1)) == -1)
        #expect(CMTimeCompare(CMTime(value: 2, timescale: 4), CMTime(value: 1, timescale: 2)) == 0)
        #expect(CMTimeCompare(.invalid, .positiveInfinity) == 1)
        // Exact, where doubles would not tell them apart.
        let big = CMTime(value: .max, timescale: 1_000_000_000)
        let bigger = CMTime(value: .max, timescale: 999_999_999)
        #expect(big < bigger)
    }

    @Test("Sums and differences keep a common timescale; infinities and indefinite win; invalid spreads")
    func arithmetic() {
        let sum = CMTime(value: 1, timescale: 2) + CMTime(value: 1, timescale: 3)
        #expect(sum.value == 5 && sum.timescale == 6)
        let difference = CMTimeSubtract(CMTime(seconds: 10, preferredTimescale: 600), CMTime(seconds: 15, preferredTimescale: 600))
        #expect(difference.seconds == -5 && difference.timescale == 600)
        #expect(CMTimeAdd(.zero, CMTime(value: 7, timescale: 1)).seconds == 7)
        #expect((CMTime.positiveInfinity + CMTime(value: 1, timescale: 1)).isPositiveInfinity)
        #expect((CMTime.positiveInfinity - CMTime.positiveInfinity) == .invalid)
        #expect((CMTime.positiveInfinity + CMTime.negativeInfinity) == .invalid)
        #expect((CMTime.zero - CMTime.negativeInfinity).isPositiveInfinity)
        #expect((CMTime.indefinite + .zero).isIndefinite)
        #expect(!(CMTime.invalid + .zero).isValid)
        // Timescales whose common multiple is too large: the largest timescale, rounded.
        let odd = CMTime(value: 1, timescale: 999_983) + CMTime(value: 1, timescale: 999_979)
        #expect(odd.timescale == 1_000_000_000 && odd.flags.contains(.hasBeenRounded))
        #expect(abs(odd.seconds - (1.0 / 999_983 + 1.0 / 999_979)) < 1e-9)
    }
}
