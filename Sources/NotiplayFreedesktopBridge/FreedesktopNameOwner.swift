import NotiplayDBus

/// The server that keeps `org.freedesktop.Notifications` when `serve --freedesktop` could not
/// take it: what it says of itself (`GetServerInformation`) and its process (the bus's
/// `GetConnectionUnixProcessID`), for a message that names it. Each part is `nil` when its
/// question got no answer.
package struct FreedesktopNameOwner: Sendable, Hashable {
    /// The server's name, as in `dunst`.
    package var name: String?
    /// Its vendor, as in `knopwob`.
    package var vendor: String?
    /// Its version, as in `1.9.0 (2022-06-27)`.
    package var version: String?
    /// Its process on this machine, as the bus knows it.
    package var processID: UInt32?
    /// The user its process runs as, as the bus knows it.
    package var userID: UInt32?

    /// A description made of the answers.
    package init(
        name: String? = nil, vendor: String? = nil, version: String? = nil, processID: UInt32? = nil, userID: UInt32? = nil
    ) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.processID = processID
        self.userID = userID
    }

    /// Whether the owner is a notiplay server, which hands the name over to `--replace`.
    package var isNotiplay: Bool { name == FreedesktopNameOwner.notiplayName }

    static let notiplayName = "notiplay"

    /// Asks the bus at `address` who owns the name and what it is; `nil` when nobody owns it any
    /// more or the bus cannot be reached. Blocks the calling thread, at most `timeout` a question.
    package static func find(address: String, timeout: Duration = .seconds(5)) -> FreedesktopNameOwner? {
        guard let client = try? DBusClient(address: address) else { return nil }
        defer { client.close() }
        let bus = "org.freedesktop.DBus"
        var owner = FreedesktopNameOwner()
        if case .uint32(let pid)? = try? client.call(
            DBusCall(
                destination: bus, path: "/org/freedesktop/DBus", interface: bus, member: "GetConnectionUnixProcessID",
                arguments: [.string(FreedesktopBridge.busName)]), timeout: timeout
        ).first {
            owner.processID = pid
        } else if (try? client.call(
            DBusCall(
                destination: bus, path: "/org/freedesktop/DBus", interface: bus, member: "NameHasOwner",
                arguments: [.string(FreedesktopBridge.busName)]), timeout: timeout)) == [.bool(false)]
        {
            return nil
        }
        if case .uint32(let uid)? = try? client.call(
            DBusCall(
                destination: bus, path: "/org/freedesktop/DBus", interface: bus, member: "GetConnectionUnixUser",
                arguments: [.string(FreedesktopBridge.busName)]), timeout: timeout
        ).first {
            owner.userID = uid
        }
        let information = try? client.call(
            DBusCall(
                destination: FreedesktopBridge.busName, path: FreedesktopBridge.path, interface: FreedesktopBridge.interface,
                member: "GetServerInformation"), timeout: timeout)
        if let information, information.count >= 3 {
            owner.name = information[0].string.flatMap { $0.isEmpty ? nil : $0 }
            owner.vendor = information[1].string.flatMap { $0.isEmpty ? nil : $0 }
            owner.version = information[2].string.flatMap { $0.isEmpty ? nil : $0 }
        }
        return owner
    }
}

/// `serve --freedesktop` did not get `org.freedesktop.Notifications`: another server keeps it,
/// because the name was asked for without replacement, or its owner does not hand it over.
package struct FreedesktopNameTaken: Error, Sendable, CustomStringConvertible {
    /// Who keeps the name, when the bus said.
    package var owner: FreedesktopNameOwner?
    /// Whether the name was asked for with replacement (`--replace`).
    package var replaceAsked: Bool
    /// Whether the owner, which did not hand the name over, was asked to end (`SIGTERM`) and
    /// still kept it.
    package var stopAsked: Bool

    /// The name kept by `owner` (`nil`: not known), after asking with or without replacement,
    /// and after asking the owner to end or not.
    package init(owner: FreedesktopNameOwner?, replaceAsked: Bool, stopAsked: Bool = false) {
        self.owner = owner
        self.replaceAsked = replaceAsked
        self.stopAsked = stopAsked
    }

    /// The bare fact, as the bus gives it.
    package var description: String {
        "\(FreedesktopBridge.busName) is owned by another connection on the bus"
    }
}
