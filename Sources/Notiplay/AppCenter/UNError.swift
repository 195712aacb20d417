/// A request the notification center refused, with Apple's code (Apple: `UNError`).
///
/// ```swift
/// do {
///     try await center.add(request)
/// } catch UNError.notificationsNotAllowed {
///     print("turned off for this app")
/// }
/// ```
/// Failures Apple has no code for (no server running, an app the server does not know) are
/// ``NotificationCenterError``s.
public struct UNError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's error codes, with Apple's numbers (domain `UNErrorDomain`).
    public enum Code: Int, Sendable, Hashable {
        /// The app may not send notifications (`notiplay serve --deny APP`).
        case notificationsNotAllowed = 1
        /// An attachment's URL is not usable.
        case attachmentInvalidURL = 100
        /// An attachment's type is not one notiplay knows.
        case attachmentUnrecognizedType = 101
        /// An attachment is too large for its type.
        case attachmentInvalidFileSize = 102
        /// An attachment is not in the center's store.
        case attachmentNotInDataStore = 103
        /// An attachment's file could not be read to be sent to the center.
        case attachmentMoveIntoDataStoreFailed = 104
        /// An attachment's file is corrupt.
        case attachmentCorrupt = 105
        /// The trigger never fires: a time interval Apple refuses, or a date that has passed.
        case notificationInvalidNoDate = 1400
        /// The content cannot be shown (the center refused the payload made of it).
        case notificationInvalidNoContent = 1401
        /// A content-providing object is not allowed.
        case contentProvidingObjectNotAllowed = 1500
        /// A content-providing object is not valid.
        case contentProvidingInvalid = 1501
        /// The badge number is not valid.
        case badgeInputInvalid = 1600

        /// Whether `error` is a ``UNError`` with this code: `catch UNError.notificationsNotAllowed`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? UNError)?.code == code
        }
    }

    /// Apple's error domain, `UNErrorDomain`.
    public static let errorDomain = "UNErrorDomain"

    /// Which error.
    public let code: Code
    /// What the center said, for a person.
    public let message: String

    /// An error.
    /// - Parameters:
    ///   - code: Apple's code.
    ///   - message: What went wrong, for a person.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message, then the domain and code: `… (UNErrorDomain 1)`.
    public var description: String { "\(message) (\(Self.errorDomain) \(code.rawValue))" }

    /// ``Code-swift.enum/notificationsNotAllowed``, as Apple spells it on `UNError`.
    public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
    /// ``Code-swift.enum/attachmentInvalidURL``.
    public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
    /// ``Code-swift.enum/attachmentUnrecognizedType``.
    public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
    /// ``Code-swift.enum/attachmentInvalidFileSize``.
    public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
    /// ``Code-swift.enum/attachmentNotInDataStore``.
    public static var attachmentNotInDataStore: Code { .attachmentNotInDataStore }
    /// ``Code-swift.enum/attachmentMoveIntoDataStoreFailed``.
    public static var attachmentMoveIntoDataStoreFailed: Code { .attachmentMoveIntoDataStoreFailed }
    /// ``Code-swift.enum/attachmentCorrupt``.
    public static var attachmentCorrupt: Code { .attachmentCorrupt }
    /// ``Code-swift.enum/notificationInvalidNoDate``.
    public static var notificationInvalidNoDate: Code { .notificationInvalidNoDate }
    /// ``Code-swift.enum/notificationInvalidNoContent``.
    public static var notificationInvalidNoContent: Code { .notificationInvalidNoContent }
    /// ``Code-swift.enum/contentProvidingObjectNotAllowed``.
    public static var contentProvidingObjectNotAllowed: Code { .contentProvidingObjectNotAllowed }
    /// ``Code-swift.enum/contentProvidingInvalid``.
    public static var contentProvidingInvalid: Code { .contentProvidingInvalid }
    /// ``Code-swift.enum/badgeInputInvalid``.
    public static var badgeInputInvalid: Code { .badgeInputInvalid }
}
