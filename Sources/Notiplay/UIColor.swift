public import Foundation
import NotiplayViews

/// A colour as UIKit names it, for the media button's tint (Apple: `UIColor`): each maps to a
/// terminal colour.
///
/// The named colours map to the terminal's own palette, so they follow its theme: `.red` and
/// `.systemRed` are ANSI red, `.systemBlue`, `.tintColor` and `.link` the bright blue the card
/// uses for its tint, `.label` the terminal's foreground, `.gray`/`.systemGray` and
/// `.secondaryLabel` ANSI bright black. `UIColor(red:green:blue:alpha:)` and `UIColor(white:alpha:)`
/// are drawn in 24-bit colour (the card falls back to the nearest of 256 or 16 colours where the
/// terminal has fewer); alpha is ignored, a terminal cell having no transparency.
public final class UIColor: Sendable, Hashable, CustomStringConvertible {
    /// The terminal colour it is drawn with.
    public let terminalColor: TerminalColor

    /// The colour drawn as `color`.
    public init(_ color: TerminalColor) {
        terminalColor = color
    }

    /// A colour from components from 0 to 1 (out-of-range values are clamped).
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(.rgb(Self.byte(red), Self.byte(green), Self.byte(blue)))
    }

    /// A grey from 0 (black) to 1 (white).
    public convenience init(white: CGFloat, alpha: CGFloat) {
        let level = Self.byte(white)
        self.init(.rgb(level, level, level))
    }

    private static func byte(_ component: CGFloat) -> UInt8 {
        guard component.isFinite else { return 0 }
        return UInt8((min(max(component, 0), 1) * 255).rounded())
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs.terminalColor == rhs.terminalColor }
    public func hash(into hasher: inout Hasher) { hasher.combine(terminalColor) }
    public var description: String { "UIColor(\(terminalColor))" }

    /// Black.
    public static let black = UIColor(.black)
    /// Red.
    public static let red = UIColor(.red)
    /// Green.
    public static let green = UIColor(.green)
    /// Yellow.
    public static let yellow = UIColor(.yellow)
    /// Blue.
    public static let blue = UIColor(.blue)
    /// Magenta.
    public static let magenta = UIColor(.magenta)
    /// Cyan.
    public static let cyan = UIColor(.cyan)
    /// White.
    public static let white = UIColor(.white)
    /// Grey (ANSI bright black).
    public static let gray = UIColor(.gray)
    /// Dark grey (ANSI bright black).
    public static let darkGray = UIColor(.gray)
    /// Light grey (ANSI white).
    public static let lightGray = UIColor(.white)
    /// Orange (256-colour 208).
    public static let orange = UIColor(.palette(208))
    /// Purple (ANSI magenta).
    public static let purple = UIColor(.magenta)
    /// Brown (256-colour 130).
    public static let brown = UIColor(.palette(130))
    /// No colour of its own: the terminal's foreground.
    public static let clear = UIColor(.standard)

    /// The system's red.
    public static let systemRed = UIColor(.red)
    /// The system's green.
    public static let systemGreen = UIColor(.green)
    /// The system's yellow.
    public static let systemYellow = UIColor(.yellow)
    /// The system's blue: the card's tint.
    public static let systemBlue = UIColor(.systemTint)
    /// The system's orange.
    public static let systemOrange = UIColor(.palette(208))
    /// The system's pink.
    public static let systemPink = UIColor(.palette(205))
    /// The system's purple.
    public static let systemPurple = UIColor(.magenta)
    /// The system's teal.
    public static let systemTeal = UIColor(.cyan)
    /// The system's indigo.
    public static let systemIndigo = UIColor(.palette(63))
    /// The system's grey.
    public static let systemGray = UIColor(.gray)
    /// The tint the card uses for its own controls (bright blue).
    public static let tintColor = UIColor(.systemTint)
    /// The colour of links: the tint.
    public static let link = UIColor(.systemTint)
    /// The primary text colour: the terminal's foreground.
    public static let label = UIColor(.standard)
    /// Secondary text: grey.
    public static let secondaryLabel = UIColor(.gray)
}
