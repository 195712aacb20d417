/// An object a ``DBusServiceConnection`` serves at a path: its methods, and the introspection
/// XML that `org.freedesktop.DBus.Introspectable.Introspect` on the path answers.
package struct DBusObject: Sendable {
    /// The object path, as in `/org/freedesktop/Notifications`.
    package var path: String
    /// The XML document `Introspect` returns, as the caller wrote it (the D-Bus introspection
    /// format, `<node>` with its `<interface>`s).
    package var introspection: String
    /// The methods, each named by its interface and member.
    package var methods: [DBusMethod]

    /// An object at `path`, introspected as `introspection`, with `methods`.
    package init(path: String, introspection: String, methods: [DBusMethod]) {
        self.path = path
        self.introspection = introspection
        self.methods = methods
    }
}

/// A method of a ``DBusObject``: what it is called, the signature of the arguments it takes, and
/// the handler that answers it.
///
/// A call whose arguments have another signature gets `org.freedesktop.DBus.Error.InvalidArgs`
/// without reaching the handler, and so does one holding a string or an array over
/// ``DBusLimits``.
package struct DBusMethod: Sendable {
    /// The interface, as in `org.freedesktop.Notifications`.
    package var interface: String
    /// The member, as in `Notify`.
    package var member: String
    /// The signature of the arguments, as in `"susssasa{sv}i"` (`""` for none).
    package var signature: String
    /// Answers a call, on the connection's loop thread (see ``DBusServiceConnection``): it must
    /// return at once, and reply through the responder then or later, from any thread.
    package var handler: @Sendable (DBusMethodCall, DBusResponder) -> Void

    /// A method answered by `handler`.
    package init(
        interface: String, member: String, signature: String,
        handler: @escaping @Sendable (DBusMethodCall, DBusResponder) -> Void
    ) {
        self.interface = interface
        self.member = member
        self.signature = signature
        self.handler = handler
    }

    /// A method answered at once by `answer`'s reply.
    package static func immediate(
        interface: String, member: String, signature: String,
        _ answer: @escaping @Sendable (DBusMethodCall) -> DBusReply
    ) -> DBusMethod {
        DBusMethod(interface: interface, member: member, signature: signature) { call, responder in
            responder.reply(answer(call))
        }
    }
}

/// A method call received, its arguments read (and checked against the method's signature).
package struct DBusMethodCall: Sendable, Hashable {
    /// The caller's unique name on the bus (`:1.42`), as the bus vouches for it.
    package var sender: String?
    /// The object path called.
    package var path: String
    /// The interface named by the caller (calls may leave it out).
    package var interface: String?
    /// The method.
    package var member: String
    /// The arguments, in order.
    package var arguments: [DBusValue]
    /// The strings of ``arguments`` that were cut to ``DBusLimits/maximumStringBytes``.
    package var cutStrings: [DBusStringCut]

    /// A call with these header fields and arguments.
    package init(
        sender: String?, path: String, interface: String?, member: String, arguments: [DBusValue],
        cutStrings: [DBusStringCut] = []
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.cutStrings = cutStrings
    }
}

/// What a method call gets back.
package enum DBusReply: Sendable, Hashable {
    /// A method return, with these values (their signature is the method's output signature).
    case values([DBusValue])
    /// An error reply. A reply whose values cannot be written (see ``DBusValue/encodingProblem``)
    /// is sent as an `org.freedesktop.DBus.Error.Failed` instead.
    case error(DBusFailure)
}

/// A signal to emit: from an object path, on an interface, with arguments.
package struct DBusSignal: Sendable, Hashable {
    /// The object emitting it, as in `/org/freedesktop/Notifications`.
    package var path: String
    /// The interface, as in `org.freedesktop.Notifications`.
    package var interface: String
    /// The signal's name, as in `NotificationClosed`.
    package var member: String
    /// The arguments, in order.
    package var arguments: [DBusValue]
    /// The unique name of the one connection it is for; `nil` broadcasts it to every connection
    /// whose match rules select it.
    package var destination: String?

    /// A signal, broadcast unless `destination` names a connection.
    package init(path: String, interface: String, member: String, arguments: [DBusValue], destination: String? = nil) {
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.destination = destination
    }

    /// Why the signal cannot be sent (a malformed name, a value that cannot be written), or `nil`.
    package var problem: String? {
        if !DBusNames.isObjectPath(path) { return "“\(path)” is not an object path" }
        if !DBusNames.isInterface(interface) { return "“\(interface)” is not an interface name" }
        if !DBusNames.isMember(member) { return "“\(member)” is not a member name" }
        if let destination, !DBusNames.isBusName(destination) { return "“\(destination)” is not a bus name" }
        return arguments.lazy.compactMap(\.encodingProblem).first
    }
}

/// What happens to a ``DBusServiceConnection`` besides calls, told on its loop thread.
package enum DBusConnectionEvent: Sendable, Hashable {
    /// The connection no longer owns this well-known name: another connection took it over
    /// (requested it with replacement, which this connection's request allowed).
    case nameLost(String)
    /// The bus went away; the connection is closed and its loop has ended.
    case disconnected
}
