/// `reload`: the server reads its configuration file again. A valid file is in force for the
/// notifications that arrive from then on (live cards keep what they had); an invalid one is
/// refused with `invalid-config`, whose message has one `FILE:LINE:COLUMN: …` line per problem,
/// and the configuration in force stays.
public struct ReloadOperation: CenterOperation {
    /// The reply: how many rules are in force.
    public typealias Reply = ReloadReply
    /// `"reload"`.
    public static let name = "reload"

    /// A `reload` request.
    public init() {}

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .reload(self) }
}

/// The reply to `reload`: the new configuration is in force.
public struct ReloadReply: Codable, Sendable, Equatable {
    /// How many rules it has.
    public var rules: Int

    /// A `reload` reply.
    public init(rules: Int) {
        self.rules = rules
    }
}
