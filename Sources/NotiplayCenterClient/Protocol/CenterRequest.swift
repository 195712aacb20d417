/// A request from a client: its id, and what it asks for.
///
/// On the wire it is one JSON object, `{"v": 1, "id": 7, "op": "send", …}`, with the
/// operation's own members beside `v`, `id` and `op`.
public struct CenterRequest: Sendable, Equatable {
    /// The client's number for the request; the reply carries it back. Clients count up from 1
    /// on each connection; the server does not check that they do.
    public var id: Int
    /// What the request asks for.
    public var operation: Operation

    /// A request.
    /// - Parameters:
    ///   - id: The client's number for it.
    ///   - operation: What it asks for.
    public init(id: Int, operation: Operation) {
        self.id = id
        self.operation = operation
    }

    /// What a request asks for: one case per `op`.
    public enum Operation: Sendable, Equatable {
        /// `send`: store a notification and deliver it (or schedule it).
        case send(SendOperation)
        /// `list`: the notifications the center holds.
        case list(ListOperation)
        /// `remove`: take notifications away.
        case remove(RemoveOperation)
        /// `history`: the latest notifications, those that ended included.
        case history(HistoryOperation)
        /// `ping`: is a server there, and which versions does it speak?
        case ping(PingOperation)
        /// `focus`: read Focus, or turn it on or off.
        case focus(FocusOperation)
        /// `clock`: the server's time; move a virtual clock on.
        case clock(ClockOperation)
        /// `categories`: an app declares its categories.
        case categories(CategoriesOperation)
        /// `authorize`: an app asks to send notifications.
        case authorize(AuthorizeOperation)
        /// `reload`: the server reads its configuration file again.
        case reload(ReloadOperation)

        /// The `op` it is written with.
        public var name: String {
            switch self {
            case .send: SendOperation.name
            case .list: ListOperation.name
            case .remove: RemoveOperation.name
            case .history: HistoryOperation.name
            case .ping: PingOperation.name
            case .focus: FocusOperation.name
            case .clock: ClockOperation.name
            case .categories: CategoriesOperation.name
            case .authorize: AuthorizeOperation.name
            case .reload: ReloadOperation.name
            }
        }

        /// Every `op` this build knows, in the order the documentation lists them.
        public static let names = [
            SendOperation.name, ListOperation.name, RemoveOperation.name, HistoryOperation.name, PingOperation.name,
            FocusOperation.name, ClockOperation.name, CategoriesOperation.name, AuthorizeOperation.name,
            ReloadOperation.name,
        ]
    }
}

/// One kind of request, with the type of its successful reply: what ``CenterClient`` sends
/// with its `perform(_:timeout:)`.
public protocol CenterOperation: Codable, Sendable, Equatable {
    /// What a successful reply to it holds.
    associatedtype Reply: Codable, Sendable, Equatable
    /// The `op` it is written with.
    static var name: String { get }
    /// The operation as a case of ``CenterRequest/Operation``.
    var operation: CenterRequest.Operation { get }
}
