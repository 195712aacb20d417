/// Why a context could not fetch.
public struct CoreDataError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Where a container's saved objects live (Apple: `NSPersistentStoreCoordinator`): in memory,
/// for the process's life. Every context of the container reads and saves here.
@MainActor
public final class NSPersistentStoreCoordinator {
    /// Saved objects by entity, in the order they were first saved.
    private var rows: [String: [(id: NSManagedObjectID, values: [String: AttributeValue])]] = [:]

    nonisolated init() {}

    func rows(of entityName: String) -> [(id: NSManagedObjectID, values: [String: AttributeValue])] {
        rows[entityName] ?? []
    }

    func save(_ object: NSManagedObject) {
        let entity = object.objectID.entityName
        if let index = rows[entity, default: []].firstIndex(where: { $0.id == object.objectID }) {
            rows[entity]?[index].values = object.values
        } else {
            rows[entity, default: []].append((object.objectID, object.values))
        }
    }
}

/// How a context runs the blocks given to `perform(_:)` (Apple:
/// `NSManagedObjectContextConcurrencyType`); this stand-in has the main queue's kind only.
public enum NSManagedObjectContextConcurrencyType: Sendable {
    /// On the main actor, as a container's `viewContext`.
    case mainQueueConcurrencyType
}

/// A scratch pad of managed objects (Apple: `NSManagedObjectContext`), on the main actor as a
/// container's view context is on iOS. Fetched objects are unique per context: fetching one
/// twice gives the same instance.
@MainActor
public final class NSManagedObjectContext {
    /// The store the context reads and saves.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// The objects the context holds: inserted, or fetched.
    private var registered: [NSManagedObjectID: NSManagedObject] = [:]
    private var insertedOrder: [NSManagedObjectID] = []

    /// A context of `concurrencyType` (the main queue's); give it a store coordinator before use.
    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {}

    /// Whether an object was inserted or changed and not saved yet.
    public var hasChanges: Bool { registered.values.contains { $0.hasChanges } }

    /// Adds a new object, saved with the next `save()`.
    public func insert(_ object: NSManagedObject) {
        guard registered[object.objectID] == nil else { return }
        object.managedObjectContext = self
        registered[object.objectID] = object
        insertedOrder.append(object.objectID)
    }

    /// The objects of the request's entity that meet its predicate: the saved ones and those
    /// inserted here and not saved yet (Core Data's `includesPendingChanges`). An object changed
    /// here and not saved keeps its changes.
    /// - Throws: ``CoreDataError`` for a request without an entity or with a predicate format
    ///   the stand-in does not understand, or a context without a store.
    public func fetch<T: NSFetchRequestResult>(_ request: NSFetchRequest<T>) throws -> [T] {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(description: "the context has no persistent store coordinator")
        }
        guard let entity = request.entityName else { throw CoreDataError(description: "the fetch request names no entity") }
        if let predicate = request.predicate, !predicate.isSupported {
            throw CoreDataError(description: "unsupported predicate format \"\(predicate.predicateFormat)\" (the stand-in knows KEY == %@)")
        }
        guard let type = T.self as? NSManagedObject.Type else {
            throw CoreDataError(description: "\(T.self) is not a managed object class")
        }
        var found: [NSManagedObject] = []
        for row in coordinator.rows(of: entity) {
            if let object = registered[row.id] {
                if !object.hasChanges {
                    object.values = row.values
                    object.committed = row.values
                }
                found.append(object)
            } else {
                let object = type.init()
                object.objectID = row.id
                object.values = row.values
                object.committed = row.values
                object.managedObjectContext = self
                registered[row.id] = object
                found.append(object)
            }
        }
        let saved = Set(found.map(\.objectID))
        found += insertedOrder.compactMap { registered[$0] }.filter { $0.objectID.entityName == entity && !saved.contains($0.objectID) }
        return found.filter { request.predicate?.evaluate(with: $0) ?? true }.compactMap { $0 as? T }
    }

    /// Runs `block` on the main actor, later (Apple: asynchronously on the context's queue).
    public func perform(_ block: @escaping @MainActor () -> Void) {
        Task { @MainActor in block() }
    }

    /// Saves every inserted or changed object to the store.
    public func save() throws {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(description: "the context has no persistent store coordinator")
        }
        for object in registered.values where object.hasChanges {
            coordinator.save(object)
            object.committed = object.values
        }
    }
}

/// Describes a container's store (Apple: `NSPersistentStoreDescription`).
public struct NSPersistentStoreDescription: Sendable {
    /// The store's kind: always in memory here (Apple: `NSInMemoryStoreType`).
    public var type = "InMemory"
}

/// The model, its store and its view context (Apple: `NSPersistentContainer`).
@MainActor
open class NSPersistentContainer {
    /// The model's name.
    public let name: String
    /// The store every context of the container uses.
    public let persistentStoreCoordinator = NSPersistentStoreCoordinator()
    /// The context on the main actor.
    public let viewContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    /// The stores `loadPersistentStores(completionHandler:)` loads: one, in memory.
    public var persistentStoreDescriptions = [NSPersistentStoreDescription()]

    /// A container for the model named `name`.
    public init(name: String) {
        self.name = name
        viewContext.persistentStoreCoordinator = persistentStoreCoordinator
    }

    /// Loads the stores, calling `completionHandler` for each (an in-memory store always loads).
    public func loadPersistentStores(completionHandler: (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions { completionHandler(description, nil) }
    }
}
