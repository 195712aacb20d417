// A stand-in for Apple's Core Data, which does not exist on Linux: what seed 000's content
// extension uses of it, with Apple's names, so that its `import CoreData` and every line of its
// code compile unchanged. It is the app's model layer, not notiplay's, and not part of the
// seed's diff. Objects live in an in-memory store (Core Data's `NSInMemoryStoreType`) for the
// process's life: an app, or a test, puts reminders in it with `Reminder(context:)` and `save()`.
//
// Like Apple's framework, the module exports Foundation, so that its own `NSPredicate` — a
// declaration of a module that imports Foundation — shadows Foundation's where both are visible
// (swift-corelibs-foundation's `NSPredicate(format:)` is not implemented and traps).
@_exported import Foundation

/// What a fetch request can return (Apple: `NSFetchRequestResult`); managed objects are.
public protocol NSFetchRequestResult: AnyObject {}

/// The identity of a managed object in its store (Apple: `NSManagedObjectID`).
public struct NSManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    let entityName: String
    let uuid: UUID

    public var description: String { "\(entityName)/\(uuid.uuidString)" }
}

/// An attribute value a store can keep: what the seed's model has (strings, dates, Booleans)
/// and numbers.
enum AttributeValue: Equatable, Sendable {
    case string(String)
    case date(Date)
    case bool(Bool)
    case int(Int)
    case double(Double)

    init?(_ value: Any) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Date: self = .date(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        default: return nil
        }
    }

    var any: Any {
        switch self {
        case .string(let value): value
        case .date(let value): value
        case .bool(let value): value
        case .int(let value): value
        case .double(let value): value
        }
    }
}

/// A record of the model (Apple: `NSManagedObject`). A model class subclasses it and declares
/// its attributes as properties over `value(forKey:)` and `setValue(_:forKey:)`, as Xcode's
/// generated `@NSManaged` properties are; the entity's name is the class's name.
open class NSManagedObject: NSFetchRequestResult {
    /// The object's identity.
    public internal(set) var objectID: NSManagedObjectID
    /// The context the object lives in; `nil` once that context is gone.
    public internal(set) weak var managedObjectContext: NSManagedObjectContext?

    var values: [String: AttributeValue] = [:]
    /// The values as last saved or fetched: what `hasChanges` compares with.
    var committed: [String: AttributeValue]?

    /// The entity's name: the class's name, as Xcode's code generation names it.
    public class var entityName: String { String(describing: self) }

    /// An object not in any context yet.
    public required init() {
        objectID = NSManagedObjectID(entityName: Self.entityName, uuid: UUID())
    }

    /// A new object inserted into `context` (saved with the context's next `save()`).
    @MainActor
    public convenience init(context: NSManagedObjectContext) {
        self.init()
        context.insert(self)
    }

    /// Whether the object was inserted or changed since it was last saved or fetched.
    public var hasChanges: Bool { committed != values }

    /// The attribute `key`'s value, `nil` when it has none.
    public func value(forKey key: String) -> Any? {
        values[key]?.any
    }

    /// Sets the attribute `key`: `nil` removes its value. A value the store cannot keep (not a
    /// string, date, Boolean or number) is a programming error, as an attribute of the wrong
    /// type is in Core Data.
    public func setValue(_ value: Any?, forKey key: String) {
        guard let value else {
            values[key] = nil
            return
        }
        guard let attribute = AttributeValue(value) else {
            preconditionFailure("\(Self.entityName).\(key): \(type(of: value)) is not an attribute type")
        }
        values[key] = attribute
    }
}

/// A query for the objects of one entity (Apple: `NSFetchRequest`).
public final class NSFetchRequest<ResultType: NSFetchRequestResult> {
    /// The entity fetched.
    public let entityName: String?
    /// The condition the objects must meet; `nil` for every object of the entity.
    public var predicate: NSPredicate?

    /// A request for the objects of `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
    }
}

/// A condition on an object's attributes (Apple: `NSPredicate`). This stand-in understands what
/// seed 000 writes, a key compared for equality with an argument — `"identifier == %@"` — and
/// `"KEY == %@"` for any key; any other format is kept, matches nothing, and makes a fetch
/// throw, as Core Data rejects a request it cannot run.
public final class NSPredicate: CustomStringConvertible {
    /// The format as given.
    public let predicateFormat: String
    private let condition: (key: String, value: AttributeValue)?

    /// A predicate from `predicateFormat` and its arguments (`%@` takes the next one).
    public init(format predicateFormat: String, _ arguments: Any...) {
        self.predicateFormat = predicateFormat
        condition = Self.parse(predicateFormat, arguments)
    }

    /// Whether the stand-in understands the format.
    public var isSupported: Bool { condition != nil }

    public var description: String { predicateFormat }

    /// Whether `object` meets the condition (`false` for a format the stand-in does not know).
    public func evaluate(with object: Any?) -> Bool {
        guard let condition, let object = object as? NSManagedObject else { return false }
        return object.values[condition.key] == condition.value
    }

    private static func parse(_ format: String, _ arguments: [Any]) -> (key: String, value: AttributeValue)? {
        let parts = format.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[1] == "==", parts[2] == "%@", arguments.count == 1,
              let key = parts.first, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
              let value = AttributeValue(arguments[0])
        else { return nil }
        return (String(key), value)
    }
}
