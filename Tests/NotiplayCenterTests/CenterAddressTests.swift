import Foundation
import NotiplayCenterClient
import NotiplayCore
import Testing

/// Where a program finds the server, which app it speaks for, and triggers between the
/// protocol's form and their JSON.
@Suite struct CenterAddressTests {
    @Test("The socket is in $XDG_RUNTIME_DIR/notiplay when that is absolute, else in /tmp/notiplay-UID")
    func socketPath() {
        #expect(CenterAddress.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000) == "/run/user/1000/notiplay/center.sock")
        #expect(CenterAddress.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], userID: 1000) == "/run/user/1000/notiplay/center.sock")
        #expect(CenterAddress.socketPath(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 1000) == "/tmp/notiplay-1000/center.sock")
        #expect(CenterAddress.socketPath(environment: [:], userID: 0) == "/tmp/notiplay-0/center.sock")
    }

    @Test("The app is $NOTIPLAY_APP when set and not empty, else the program's name")
    func appName() {
        #expect(CenterAddress.appName(environment: ["NOTIPLAY_APP": "Custom Number"], programPath: "/usr/bin/tool") == "Custom Number")
        #expect(CenterAddress.appName(environment: ["NOTIPLAY_APP": ""], programPath: "/usr/bin/custom-number") == "custom-number")
        #expect(CenterAddress.appName(environment: [:], programPath: "./custom-number") == "custom-number")
        #expect(CenterAddress.appName(environment: [:], programPath: "custom-number") == "custom-number")
        #expect(CenterAddress.appName(environment: [:], programPath: "") == "notiplay")
    }

    @Test("Names match ignoring case, spaces and punctuation")
    func appKey() {
        #expect(CenterAddress.appKey("Custom Number") == "customnumber")
        #expect(CenterAddress.appKey("custom-number") == CenterAddress.appKey("Custom Number"))
        #expect(CenterAddress.appKey("Nag_Me 2!") == "nagme2")
        #expect(CenterAddress.appKey("Café") == "café")
        #expect(CenterAddress.appKey("Custom Numbers") != CenterAddress.appKey("Custom Number"))
    }

    @Test("A trigger's JSON (TriggerJSON's) and the protocol's form carry the same trigger")
    func triggerJSON() throws {
        let interval = try #require(TriggerJSON.encode(UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)))
        let spec = try #require(TriggerSpec(jsonText: interval))
        #expect(spec == TriggerSpec(type: "timeInterval", timeInterval: 30, repeats: false))
        let back = try #require(try TriggerJSON.decode(spec.jsonText) as? UNTimeIntervalNotificationTrigger)
        #expect(back == UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false))

        let calendar = try #require(TriggerSpec(jsonText: #"{"type":"calendar","dateComponents":{"hour":9,"minute":0},"timeZone":"Europe/Berlin","repeats":true}"#))
        #expect(calendar.dateComponents == ["hour": 9, "minute": 0] && calendar.timeZone == "Europe/Berlin" && calendar.repeats)
        let read = try #require(try TriggerJSON.decode(calendar.jsonText) as? UNCalendarNotificationTrigger)
        #expect(read.dateComponents.hour == 9 && read.dateComponents.timeZone?.identifier == "Europe/Berlin" && read.repeats)

        #expect(TriggerSpec(jsonText: "not json") == nil)
        #expect(TriggerSpec(jsonText: #"{"type":"timeInterval"}"#) == nil, "repeats is required")
    }
}
