import NotiplayCore
import NotiplayFreedesktop
import Testing

@Suite struct ActionTests {
    @Test func pairsBecomeButtonsInOrder() {
        let actions = FreedesktopActions(reading: ["yes", "Yes", "no", "No"])
        #expect(actions.buttons.map(\.key) == ["yes", "no"])
        #expect(actions.buttons.map(\.label) == ["Yes", "No"])
        #expect(actions.defaultActionLabel == nil)
        #expect(actions.warnings.isEmpty)
        let category = actions.category(identifier: "freedesktop.7")
        #expect(category?.identifier == "freedesktop.7")
        #expect(category?.actions == [UNNotificationAction(identifier: "yes", title: "Yes"), UNNotificationAction(identifier: "no", title: "No")])
    }

    @Test func defaultIsTheCardsDefaultActionNotAButton() {
        let actions = FreedesktopActions(reading: ["default", "Open", "later", "Later"])
        #expect(actions.defaultActionLabel == "Open")
        #expect(actions.buttons.map(\.key) == ["later"])
        #expect(actions.offers("default"))
        #expect(actions.offers("later"))
        #expect(!actions.offers("other"))
    }

    @Test func onlyDefaultNeedsNoCategory() {
        let actions = FreedesktopActions(reading: ["default", ""])
        #expect(actions.defaultActionLabel == "")
        #expect(actions.category(identifier: "freedesktop.1") == nil)
    }

    @Test func inlineReplyIsATextInputAction() {
        let actions = FreedesktopActions(
            reading: ["inline-reply", "", "mark", "Mark read"], reply: ReplyPrompt(buttonTitle: "Go", placeholder: "Say it"))
        let reply = actions.buttons[0].notificationAction
        #expect(reply.identifier == "inline-reply")
        #expect(reply.title == "Reply")
        #expect(reply.textInput == UNNotificationAction.TextInput(buttonTitle: "Go", placeholder: "Say it"))
        #expect(!actions.buttons[1].notificationAction.isTextInput)
    }

    @Test func oddArrayIgnoresTheDanglingKey() {
        let actions = FreedesktopActions(reading: ["yes", "Yes", "orphan"])
        #expect(actions.buttons.map(\.key) == ["yes"])
        #expect(actions.warnings.count == 1)
        #expect(actions.warnings[0].key == "actions")
        #expect(actions.warnings[0].message.contains("orphan"))
        #expect(FreedesktopActions(reading: ["alone"]).buttons.isEmpty)
    }

    @Test func emptyKeysAreIgnored() {
        let actions = FreedesktopActions(reading: ["", "Nothing", "ok", "OK"])
        #expect(actions.buttons.map(\.key) == ["ok"])
        #expect(actions.warnings.map(\.key) == ["actions[0]"])
    }

    @Test func duplicatesKeepTheFirst() {
        let actions = FreedesktopActions(reading: ["a", "First", "b", "B", "a", "Second", "default", "D1", "default", "D2"])
        #expect(actions.buttons.map(\.label) == ["First", "B"])
        #expect(actions.defaultActionLabel == "D1")
        #expect(actions.warnings.map(\.key) == ["actions[4]", "actions[8]"])
    }

    @Test func emptyLabelShowsTheKeyAndLabelsAreCleaned() {
        let actions = FreedesktopActions(reading: ["archive", "", "x", "  two\nlines\u{1B}[1m  "])
        #expect(actions.buttons.map(\.label) == ["archive", "two lines"])
    }

    @Test func reservedResponseIdentifiersAreRefused() {
        let actions = FreedesktopActions(reading: [UNNotificationDefaultActionIdentifier, "Sneaky", "ok", "OK"])
        #expect(actions.buttons.map(\.key) == ["ok"])
        #expect(actions.warnings.count == 1)
    }

    @Test func buttonsPastTenAreDropped() {
        let flat = (0..<12).flatMap { ["k\($0)", "L\($0)"] }
        let actions = FreedesktopActions(reading: flat)
        #expect(actions.buttons.count == 10)
        #expect(actions.warnings.count == 1)
        #expect(actions.warnings[0].message.contains("the last 2"))
    }

    @Test func responsesBecomeSignals() {
        var extras = FreedesktopExtras(id: 9, app: "mail")
        extras.actions = FreedesktopActions(reading: ["default", "Open", "yes", "Yes", "inline-reply", "Reply"])
        let closed = FreedesktopSignal.notificationClosed(id: 9, reason: .dismissed)
        #expect(
            FreedesktopResponse.signals(forAction: UNNotificationDefaultActionIdentifier, extras: extras)
                == [.actionInvoked(id: 9, actionKey: "default"), closed])
        #expect(FreedesktopResponse.signals(forAction: "yes", extras: extras) == [.actionInvoked(id: 9, actionKey: "yes"), closed])
        #expect(
            FreedesktopResponse.signals(forAction: "inline-reply", userText: "on my way", extras: extras)
                == [.notificationReplied(id: 9, text: "on my way"), closed])
        #expect(FreedesktopResponse.signals(forAction: UNNotificationDismissActionIdentifier, extras: extras) == [closed])
        #expect(FreedesktopResponse.signals(forAction: "never-offered", extras: extras).isEmpty)

        extras.resident = true
        #expect(FreedesktopResponse.signals(forAction: "yes", extras: extras) == [.actionInvoked(id: 9, actionKey: "yes")])
        extras.actions = FreedesktopActions()
        #expect(FreedesktopResponse.signals(forAction: UNNotificationDefaultActionIdentifier, extras: extras) == [closed])
    }
}
