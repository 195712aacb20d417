import NotiplayCore
import Testing

@testable import NotiplayCommandLine

/// An author's tool: its own name in messages, the warning about its unused types, and what
/// becomes of what its extensions print (the parts that need no process of their own; the
/// end-to-end tests run `Tests/PrintProbe`).
@Suite struct AuthorToolTests {
    @Test("The tool's name is argv[0]'s last component, made printable; notiplay when there is none")
    func toolName() {
        #expect(NotiplayCLI.toolName(argument0: "/home/me/NagMe/.build/debug/nagme") == "nagme")
        #expect(NotiplayCLI.toolName(argument0: "nagme") == "nagme")
        #expect(NotiplayCLI.toolName(argument0: "./bad\u{1B}[2Jname") == "badname")
        #expect(NotiplayCLI.toolName(argument0: nil) == "notiplay")
        #expect(NotiplayCLI.toolName(argument0: "") == "notiplay")
        #expect(NotiplayCLI.toolName(argument0: "/") == "notiplay")
    }

    @Test("Messages start with the tool's name, and name its commands, not notiplay's")
    func messages() {
        let message = "/run/center.sock: no notification center is running here; start one with `notiplay serve`"
        #expect(
            Diagnostics.forTool(message, named: "nagme")
                == "nagme: /run/center.sock: no notification center is running here; start one with `nagme serve`")
        #expect(Diagnostics.forTool(message, named: "notiplay") == "notiplay: \(message)")
        #expect(Diagnostics.forTool("notiplay plays local files only", named: "nagme") == "nagme: notiplay plays local files only")
    }

    @MainActor
    final class Custom: TerminalViewController, UNNotificationContentExtension {
        func didReceive(_ notification: UNNotification) {}
    }

    @Test("Without an extension folder, deliver warns of the tool's own types: not of the built-in ones nor of notiplay's samples")
    func unusedTypes() {
        #expect(DeliverCommand.unusedTypesWarning(ExtensionTypes(), samples: [], category: "reminder") == nil)
        var samples = ExtensionTypes()
        samples.register(Custom.self, as: "Reminder.ReminderViewController")
        #expect(DeliverCommand.unusedTypesWarning(samples, samples: ["Reminder.ReminderViewController"], category: "reminder") == nil)
        var own = samples
        own.register(Custom.self, as: "NagMe.NotificationViewController")
        let warning = DeliverCommand.unusedTypesWarning(own, samples: ["Reminder.ReminderViewController"], category: "reminder")
        #expect(warning?.hasPrefix("warning: no extension folder was given (--extensions DIR, or an app file") == true, "\(warning ?? "")")
        #expect(
            warning?.contains(#"(category "reminder") and the registered type NagMe.NotificationViewController goes unused"#) == true,
            "\(warning ?? "")")
        let two = DeliverCommand.unusedTypesWarning(own, samples: [], category: "")
        #expect(
            two?.contains("(no category) and the registered types NagMe.NotificationViewController, Reminder.ReminderViewController go unused")
                == true, "\(two ?? "")")
    }

    @Test("The audio stack's lines on descriptor 2 are told from an extension's")
    func audioStackLines() {
        #expect(OutputCapture.isAudioStack("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'"))
        #expect(OutputCapture.isAudioStack("[W][50941.942601] pw.conf      | [          conf.c:  939 try_load_conf()] can't load"))
        #expect(OutputCapture.isAudioStack("[E][50941.942617] pw.conf | can't load default config client.conf"))
        #expect(!OutputCapture.isAudioStack("ALSA is what the extension mentions"))
        #expect(!OutputCapture.isAudioStack("[W] a warning of the extension's own"))
        #expect(!OutputCapture.isAudioStack("didReceive on stderr"))
    }

    @Test("test shows what the extensions printed as TAP comments, or indented after the summary")
    func printedInReports() {
        let printed = OutputCapture.Collected(
            lines: [.init(stream: .stdout, text: "hello"), .init(stream: .stderr, text: "oops")], dropped: 2)
        #expect(
            TestCommand.tapComments(printed)
                == "# what the extensions printed (standard output and error, cleaned):\n# (2 earlier lines not shown)\n"
                + "# stdout: hello\n# stderr: oops\n")
        #expect(TestCommand.summaryLines(printed) == "what the extensions printed:\n  (2 earlier lines not shown)\n  stdout: hello\n  stderr: oops\n")
        #expect(TestCommand.tapComments(OutputCapture.Collected()).isEmpty && TestCommand.summaryLines(OutputCapture.Collected()).isEmpty)
    }
}
