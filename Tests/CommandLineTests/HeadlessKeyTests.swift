import NotiplayCore
import Testing

@testable import NotiplayCommandLine

@Suite struct HeadlessKeyTests {
    @Test("Keys by name, digits and waits, separated by spaces, tabs or commas")
    func names() throws {
        let keys = try HeadlessKey.parse("space 1,enter\tq ~250ms ~end")
        #expect(keys == [
            .input(.media), .input(.action(1)), .input(.defaultAction), .quit, .wait(.milliseconds(250)), .waitForEnd,
        ])
    }

    @Test("A literal space, as a newcomer types it, is the space key; two are two presses")
    func literalSpace() throws {
        #expect(try HeadlessKey.parse(" ") == [.input(.media)])
        #expect(try HeadlessKey.parse("  ") == [.input(.media), .input(.media)])
        #expect(try HeadlessKey.parse("") == [])
    }

    @Test("An unknown key is a usage error naming the accepted spellings")
    func unknown() {
        #expect {
            try HeadlessKey.parse("space jump")
        } throws: { error in
            let error = error as? UsageError
            return error?.reason.contains("unknown key 'jump'") == true
                && error?.reason.contains("space, p, 1-9") == true
        }
    }
}
