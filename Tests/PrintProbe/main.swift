// An author's tool for the end-to-end tests: the command line (`NotiplayCLI.main(types:)`) with one
// content extension that prints — to standard output with `print`, to standard error with
// `fputs` — in `didReceive`, `mediaPlay` and `mediaPause`, escape sequences and an unfinished line
// included. Registered as `Printing.PrintingViewController` (a `Printing.appex` whose Info.plist
// names `$(PRODUCT_MODULE_NAME).PrintingViewController`), it checks that what an extension prints
// never breaks `--events jsonl` or TAP; its name checks that a tool's help and messages use it.
import NotiplayCommandLine

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Prints at every call, shows one line and plays the first audio attachment.
final class PrintingViewController: TerminalViewController, UNNotificationContentExtension {
    private var player: MediaPlayer?

    required init() {}

    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }
    var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1)) }

    func didReceive(_ notification: UNNotification) {
        print("didReceive: \(notification.request.content.title)")
        print(#"{"event":"forged","t":0}"#)
        fputs("didReceive on stderr \u{1B}[31mred\u{1B}[0m\u{1B}]0;title\u{07}\n", stderr)
        print("unfinished", terminator: "")
        view.setText("   printing")
        if let attachment = notification.request.content.attachments.first, let player = MediaPlayer(attachment: attachment) {
            player.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
            player.onPause = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
            player.onFinish = { [weak self] in
                print("finished playing")
                self?.extensionContext?.mediaPlayingPaused()
            }
            self.player = player
        }
    }

    func mediaPlay() {
        print(" line, finished in mediaPlay")
        print("mediaPlay")
        fputs("mediaPlay on stderr\n", stderr)
        player?.play()
    }

    func mediaPause() {
        print("mediaPause")
        player?.pause()
    }
}

/// Crashes as extensions ported from iOS do (registered as `Crashing.CrashingViewController`, for
/// the tests of presenter processes): a notification titled "trap" traps in `didReceive` (a
/// force-unwrap of nothing); one titled "later" leaves work behind that traps once its card has
/// gone, as a pending `asyncAfter { [unowned self] … }` does once its controller was freed — run
/// when the next card this type presents in the same process arrives; one titled "hang" never
/// returns from `didReceive`.
final class CrashingViewController: TerminalViewController, UNNotificationContentExtension {
    /// Work left behind by earlier cards, run when the next card is presented.
    @MainActor private static var leftBehind: [@MainActor () -> Void] = []

    required init() {}

    func didReceive(_ notification: UNNotification) {
        let work = Self.leftBehind
        Self.leftBehind = []
        for step in work { step() }
        let title = notification.request.content.title
        view.setText("crashing: " + title)
        if title == "trap" {
            let missing: String? = title.isEmpty ? "never" : nil
            view.setText(missing!)
        }
        if title == "hang" {
            // An extension that never returns (blocked, not spinning: no CPU).
            while true { sleep(600) }
        }
        if title == "later" {
            Self.leftBehind.append { fatalError("work left behind by a card that has gone") }
        }
    }
}

var types = ExtensionTypes()
types.register(PrintingViewController.self, as: "Printing.PrintingViewController")
types.register(CrashingViewController.self, as: "Crashing.CrashingViewController")
await NotiplayCLI.main(types: types)
