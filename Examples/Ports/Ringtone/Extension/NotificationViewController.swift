// Ringtone's content extension, ported: the original (Seed.swift.txt, written for iOS) is the
// region between the seed-diff markers, compared line by line by Scripts/seed-diff (README.md holds
// the diff). Outside it: what the storyboard's labels become, and the one line that points
// `Bundle.main` at this module's resources.
// seed-diff: begin NotificationViewController.swift
import Foundation
import Notiplay
import NotiplayAVFoundation

class NotificationViewController: TerminalViewController, UNNotificationContentExtension { // view

    lazy var titleLabel = StoryboardLabel(view, line: 0, style: .bold) // view
    lazy var statusLabel = StoryboardLabel(view, line: 1) // view

    var player: AVAudioPlayer?

    override func viewDidLoad() {
        super.viewDidLoad()
        // Do any required interface initialization here.
        preferredContentSize = CGSize(width: view.frame.size.width, height: view.frame.size.width * 0.4)
    }

    func didReceive(_ notification: UNNotification) {
        titleLabel.text = notification.request.content.title
        statusLabel.text = notification.request.content.body

        let setAction = UNNotificationAction(identifier: "SET_RINGTONE", title: "Set as Ringtone", options: [.foreground])
        let sendAction = UNTextInputNotificationAction(identifier: "SEND_TO_FRIEND", title: "Send to a Friend", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Friend's name")
        let notNowAction = UNNotificationAction(identifier: "NOT_NOW", title: "Not Now", options: [.destructive])
        extensionContext?.notificationActions = [setAction, sendAction, notNowAction]
    }

    // MARK: - Media

    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        return .default
    }

    var mediaPlayPauseButtonFrame: CGRect {
        return CGRect(x: view.frame.width - 60, y: view.frame.height / 2 - 22, width: 44, height: 44)
    }

    var mediaPlayPauseButtonTintColor: UIColor {
        return .orange
    }

    func mediaPlay() {
        if player == nil {
            let path = Bundle.main.path(forResource: "ringtone", ofType: "wav")!
            player = try? AVAudioPlayer(contentsOf: URL(fileURLWithPath: path))
        }
        player?.play()
        extensionContext?.mediaPlayingStarted()

        // Only a short preview of the ringtone
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) { [unowned self] in
            self.player?.stop()
            self.extensionContext?.mediaPlayingPaused()
        }
    }

    func mediaPause() {
        player?.pause()
        extensionContext?.mediaPlayingPaused()
    }

    // MARK: - Actions

    func didReceive(_ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        player?.stop()
        switch response.actionIdentifier {
        case "SET_RINGTONE":
            completion(.dismissAndForwardAction)
        case "SEND_TO_FRIEND":
            if let textResponse = response as? UNTextInputNotificationResponse {
                statusLabel.text = "Sent to \(textResponse.userText) ✓"
            }
            completion(.doNotDismiss)
        default:
            completion(.dismiss)
        }
    }
}
// seed-diff: end

// On iOS the sound is in the extension's bundle, `Bundle.main`; here `Bundle.main` is the folder of
// the executable that hosts the extension, and the sound is this module's SwiftPM resource
// (Package.swift: `resources: [.copy("ringtone.wav")]`). In this file, `Bundle.main` is that bundle.
fileprivate extension Bundle { static var main: Bundle { .module } }
