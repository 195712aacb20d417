/// A request the server could not carry out: a code a program checks, and a message a person
/// reads. On the wire: `{"ok": false, "error": {"code": "…", "message": "…"}}`.
public struct CenterFailure: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, as a stable string (an open set: handlers may add their own).
    public var code: Code
    /// What went wrong, for a person.
    public var message: String
    /// For `unsupported-version`: the versions the server speaks.
    public var versions: [Int]?

    /// A failure.
    /// - Parameters:
    ///   - code: Its kind.
    ///   - message: What went wrong, for a person.
    ///   - versions: The versions the server speaks (for `unsupported-version`).
    public init(_ code: Code, _ message: String, versions: [Int]? = nil) {
        self.code = code
        self.message = message
        self.versions = versions
    }

    /// `message (code)`.
    public var description: String { "\(message) (\(code.rawValue))" }

    /// The kind of a failure, written as a kebab-case string.
    public struct Code: RawRepresentable, Codable, Sendable, Hashable {
        /// The string on the wire.
        public var rawValue: String

        /// A code.
        /// - Parameter rawValue: The string on the wire.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `"v"` is missing or names a version the server does not speak (the failure's
        /// ``CenterFailure/versions`` lists those it does). The connection stays open.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// `"op"` names no operation the server knows. The connection stays open.
        public static let unknownOperation = Code(rawValue: "unknown-op")
        /// The request is JSON but not a valid request (a member missing or of the wrong type, a
        /// `send` whose `identifier` is empty). The connection stays open.
        public static let badRequest = Code(rawValue: "bad-request")
        /// The frame is not UTF-8 JSON. The server closes the connection after this reply.
        public static let badFrame = Code(rawValue: "bad-frame")
        /// The frame's header announces more than 16 MiB. The server closes the connection
        /// after this reply.
        public static let frameTooLarge = Code(rawValue: "frame-too-large")
        /// Part of a frame came and then nothing for too long. The server closes the connection
        /// after this reply.
        public static let timedOut = Code(rawValue: "timed-out")
        /// The connecting process runs as another user. The server closes the connection after
        /// this reply.
        public static let permissionDenied = Code(rawValue: "permission-denied")
        /// The payload or an attachment is not acceptable (the message says why).
        public static let invalidPayload = Code(rawValue: "invalid-payload")
        /// The server failed in a way that is not the request's fault.
        public static let `internal` = Code(rawValue: "internal")
        /// The request (`send`, `categories`, `authorize`) names an app the server does not
        /// present for.
        public static let unknownApp = Code(rawValue: "unknown-app")
        /// The store could not create or write its files (the client exits 73).
        public static let storeCannotCreate = Code(rawValue: "store-cannot-create")
        /// The store could not read or write: a full disk, an I/O error (the client exits 74).
        public static let storeIOError = Code(rawValue: "store-io-error")
        /// The trigger is refused (Apple's messages), or never fires (a date in the past).
        public static let invalidTrigger = Code(rawValue: "invalid-trigger")
        /// The app may not send notifications (`serve --deny`).
        public static let notAllowed = Code(rawValue: "not-allowed")
        /// A virtual clock's operation on the system's clock.
        public static let notVirtual = Code(rawValue: "not-virtual")
        /// Categories that are not an app file's `categories`.
        public static let invalidCategories = Code(rawValue: "invalid-categories")
        /// `reload`: the configuration file is not valid (the message has one
        /// `FILE:LINE:COLUMN: …` line per problem); the configuration in force stays.
        public static let invalidConfig = Code(rawValue: "invalid-config")
    }
}
