/// Routes the messages a ``DBusServiceConnection`` receives, on its loop thread: method calls to
/// their object's method (or to an error reply), `Introspect` to the object's XML, `NameLost`
/// from the bus to the event handler. libdbus answers `org.freedesktop.DBus.Peer` itself.
final class Router: Sendable {
    private let objects: [String: DBusObject]
    /// The paths above the objects (`/`, `/org`…), each with the names of the nodes just below it,
    /// so that a client walking the tree with `Introspect` finds the objects.
    private let parents: [String: Set<String>]
    let onEvent: @Sendable (DBusConnectionEvent) -> Void

    private static let busName = "org.freedesktop.DBus"
    private static let introspectable = "org.freedesktop.DBus.Introspectable"

    init(objects: [DBusObject], onEvent: @escaping @Sendable (DBusConnectionEvent) -> Void) {
        self.objects = Dictionary(objects.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        var parents: [String: Set<String>] = [:]
        for path in self.objects.keys where path != "/" {
            let parts = path.split(separator: "/").map(String.init)
            for depth in parts.indices {
                let parent = "/" + parts[..<depth].joined(separator: "/")
                parents[parent, default: []].insert(parts[depth])
            }
        }
        self.parents = parents
        self.onEvent = onEvent
    }

    /// Why `objects` cannot be served (a malformed path, name or signature, a path given twice), or `nil`.
    static func problem(with objects: [DBusObject]) -> String? {
        var seen: Set<String> = []
        for object in objects {
            guard DBusNames.isObjectPath(object.path) else { return "“\(object.path)” is not an object path" }
            guard seen.insert(object.path).inserted else { return "two objects at \(object.path)" }
            for method in object.methods {
                guard DBusNames.isInterface(method.interface), DBusNames.isMember(method.member),
                    DBusNames.isSignature(method.signature)
                else { return "the method “\(method.interface).\(method.member)(\(method.signature))” is malformed" }
            }
        }
        return nil
    }

    /// Handles a message libdbus dispatched; `false` when it is not for this router (libdbus then
    /// answers a method call itself).
    func route(_ message: OpaquePointer, outbox: Outbox) -> Bool {
        let header = MessageHeader(message)
        switch header.type {
        case MessageHeader.methodCall:
            call(message, header, outbox)
            return true
        case MessageHeader.signal:
            if header.sender == Self.busName, header.interface == Self.busName, header.member == "NameLost",
                case .string(let name)? = try? MessageReader.arguments(of: message).first
            {
                onEvent(.nameLost(name))
                return true
            }
            return false
        default:
            return false
        }
    }

    private func call(_ message: OpaquePointer, _ header: MessageHeader, _ outbox: Outbox) {
        let responder = DBusResponder(
            outbox: outbox, replySerial: header.serial, destination: header.sender, wanted: !header.noReply)
        // libdbus has checked that a method call has a path and a member.
        let path = header.path ?? "/"
        let member = header.member ?? ""
        if member == "Introspect", header.interface == nil || header.interface == Self.introspectable {
            responder.reply(introspect(path, signature: header.signature))
            return
        }
        guard let object = objects[path] else {
            responder.reply(.error(DBusFailure(name: DBusFailure.unknownObjectName, message: "No object at \(path)")))
            return
        }
        let method = object.methods.first { $0.member == member && (header.interface ?? $0.interface) == $0.interface }
        guard let method else {
            let name = header.interface.map { "\($0).\(member)" } ?? member
            responder.reply(
                .error(DBusFailure(name: DBusFailure.unknownMethodName, message: "No method \(name) at \(path)")))
            return
        }
        guard header.signature == method.signature else {
            responder.reply(
                .error(
                    .invalidArgs(
                        "\(method.member) takes arguments of type “\(method.signature)”, not “\(header.signature)”")))
            return
        }
        let arguments: [DBusValue]
        var cuts: [DBusStringCut] = []
        do {
            arguments = try MessageReader.arguments(of: message, cuts: &cuts)
        } catch {
            responder.reply(.error(error))
            return
        }
        let call = DBusMethodCall(
            sender: header.sender, path: path, interface: header.interface, member: member, arguments: arguments,
            cutStrings: cuts)
        method.handler(call, responder)
    }

    private func introspect(_ path: String, signature: String) -> DBusReply {
        guard signature.isEmpty else { return .error(.invalidArgs("Introspect takes no arguments")) }
        if let object = objects[path] { return .values([.string(object.introspection)]) }
        guard let children = parents[path] else {
            return .error(DBusFailure(name: DBusFailure.unknownObjectName, message: "No object at \(path)"))
        }
        let nodes = children.sorted().map { "  <node name=\"\($0)\"/>\n" }.joined()
        return .values([.string(Self.doctype + "<node>\n" + nodes + "</node>\n")])
    }

    private static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """
}
