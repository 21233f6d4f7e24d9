import IsobarCore

/// What every part of `EngineStorage` can say of itself without a dynamic cast: which backend object it is, and whether that
/// backend also reads provider health in one step, takes leases with a cache read, or queues its writes.
///
/// A command composes its pipelines once per provider, and each question used to be a cast (`as? any LeaseLookup`,
/// `as AnyObject`): on Linux each first cast scans every protocol conformance record of the binary, and bridging to
/// `AnyObject` goes through Foundation. Here every answer is a witness, chosen when the backend's conformance is compiled.
public protocol StoragePart: Sendable {
    /// The backend object this part is, for telling when two parts are one backend; nil for a value type.
    var backendIdentity: ObjectIdentifier? { get }
    /// This part as a backend that reads cooldown and breaker together, when it is one.
    var asHealthStore: (any ProviderHealthStore)? { get }
    /// This part as a backend whose lease step also reads the cache, when it is one.
    var asLeaseLookup: (any LeaseLookup)? { get }
    /// This part as a backend that queues writes, when it is one.
    var asQueuedWriting: (any QueuedWriting)? { get }
}

extension StoragePart {
    /// A value type is never the same backend as another part.
    public var backendIdentity: ObjectIdentifier? { nil }
    /// Not a backend that reads health in one step.
    public var asHealthStore: (any ProviderHealthStore)? { nil }
    /// Not a backend whose leases read the cache.
    public var asLeaseLookup: (any LeaseLookup)? { nil }
    /// Not a backend that queues writes.
    public var asQueuedWriting: (any QueuedWriting)? { nil }
}

extension StoragePart where Self: AnyObject {
    /// The object itself.
    public var backendIdentity: ObjectIdentifier? { ObjectIdentifier(self) }
}

extension StoragePart where Self: ProviderHealthStore {
    /// Itself.
    public var asHealthStore: (any ProviderHealthStore)? { self }
}

extension StoragePart where Self: LeaseLookup {
    /// Itself.
    public var asLeaseLookup: (any LeaseLookup)? { self }
}

extension StoragePart where Self: QueuedWriting {
    /// Itself.
    public var asQueuedWriting: (any QueuedWriting)? { self }
}
