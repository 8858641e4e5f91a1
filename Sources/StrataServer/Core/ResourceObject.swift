import CStrataServerGlue
import CWaylandServer
import Glibc
import Synchronization

/// The Swift object behind one `wl_resource`.
///
/// The resource's user data holds a retained reference to the object; the resource's destroy
/// callback releases it (and calls `resourceDidDestroy()`), so the object lives exactly as long
/// as the resource, whichever end (client request, client disconnect, display teardown) kills it.
/// Subclasses that back onto another object (a surface, a screen) must turn inert when that object
/// dies first: check and ignore requests, never crash.
open class ResourceObject {
    public let resource: OpaquePointer
    public let client: OpaquePointer
    public let version: UInt32
    public private(set) var isDestroyed = false
    /// The live counts of the display the resource belongs to.
    private let counter: LiveCounter

    /// Creates the wl_resource and installs `implementation`. Returns nil (having posted
    /// no_memory to the client) when libwayland cannot allocate.
    /// `dispatcher`, when given, calls the implementation's functions itself (no libffi call per
    /// request: see `strata_wl_surface_dispatch`). `sibling`, an object of the same client, lends
    /// its live counts: objects made every frame (frame callbacks, presentation feedback) then
    /// skip the lookup of their display's counts, a lock and a hash.
    public init?(
        client: OpaquePointer, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32,
        implementation: UnsafeRawPointer?, dispatcher: wl_dispatcher_func_t? = nil,
        countedWith sibling: ResourceObject? = nil
    ) {
        guard let resource = wl_resource_create(client, interface, Int32(version), id) else {
            wl_client_post_no_memory(client)
            return nil
        }
        self.resource = resource
        self.client = client
        self.version = version
        if let sibling, sibling.client == client {
            counter = sibling.counter
        } else {
            counter = LiveCounter.of(display: wl_client_get_display(client))
        }
        counter.objectDidInit(Swift.type(of: self))
        let me = Unmanaged.passRetained(self).toOpaque()
        let destroy: wl_resource_destroy_func_t = { resource in
            guard let resource, let data = wl_resource_get_user_data(resource) else { return }
            let object = Unmanaged<ResourceObject>.fromOpaque(data).takeRetainedValue()
            wl_resource_set_user_data(resource, nil)
            object.counter.resourceDidDestroy()
            object.isDestroyed = true
            object.resourceDidDestroy()
        }
        if let dispatcher {
            wl_resource_set_dispatcher(resource, dispatcher, implementation, me, destroy)
        } else {
            wl_resource_set_implementation(resource, implementation, me, destroy)
        }
    }

    deinit { counter.objectDidDeinit(Swift.type(of: self)) }

    /// Called once, from the resource's destroy path. Release links to other objects here.
    open func resourceDidDestroy() {}

    /// The object behind a resource, if it is alive and of type `T`.
    public static func from<T: ResourceObject>(_ resource: OpaquePointer?, as type: T.Type = T.self) -> T? {
        guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<ResourceObject>.fromOpaque(data).takeUnretainedValue() as? T
    }

    /// Destroys the resource (the client's destructor request, or the compositor's decision).
    public func destroyResource() {
        guard !isDestroyed else { return }
        wl_resource_destroy(resource)
    }

    public func post(_ error: ProtocolError) {
        guard !isDestroyed else { return }
        strata_resource_post_error(error.resource ?? resource, error.code, error.message)
    }

    /// The client's process (for a connection Strata made for a process it started, that
    /// process, not the socket pair's creator: `StartedProcessIDs`).
    public var clientPid: Int32 { StartedProcessIDs.processID(of: client) }
}

// MARK: Live counts (the leak check)

extension ResourceObject {
    /// What is alive of one display's ResourceObjects: `resources` whose wl_resource has not been
    /// through its destroy path, and `objects`, the Swift objects not yet deinitialised (more
    /// objects than resources means something still holds dead ones: a retain cycle or a list
    /// that forgot them). The hostile-client tests and the fuzzer expect both back at their
    /// baseline once a client is gone.
    public struct LiveCounts: Equatable, Sendable, CustomStringConvertible {
        public var resources = 0
        public var objects = 0
        /// Live Swift objects per class name (what leaked, when a count is off).
        var byType: [String: Int] = [:]
        public init(resources: Int = 0, objects: Int = 0) { self.resources = resources; self.objects = objects }
        public static func == (a: LiveCounts, b: LiveCounts) -> Bool {
            a.resources == b.resources && a.objects == b.objects
        }
        public var description: String {
            let types = byType.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            return "\(resources) resources, \(objects) objects (\(types))"
        }
    }

    /// The live counts of `display`'s resources (tests run several displays on several threads).
    public static func liveCounts(on display: OpaquePointer) -> LiveCounts {
        LiveCounter.of(display: display).snapshot()
    }
}

/// One display's live counts, shared by its objects (each holds it from its init).
///
/// A display and its objects live on one thread (`Display.assertOnLoop`), so the counts change
/// without a lock; only the table of displays, shared by the displays of all threads (tests run
/// several at once), is behind one. A frame callback is created and destroyed every frame: that
/// costs one table lookup at its creation, nothing allocated, and no hashing while the same
/// class comes and goes (the per-class count it last touched is remembered).
final class LiveCounter: @unchecked Sendable {
    private let display: OpaquePointer
    private var resources = 0
    private var objects = 0
    /// Live objects per class, in first-seen order; classes whose count fell to 0 keep their slot.
    private var types: [(id: ObjectIdentifier, type: ResourceObject.Type, count: Int)] = []
    private var slots: [ObjectIdentifier: Int] = [:]
    /// The slot of the class counted last (a frame callback's, in steady state).
    private var lastSlot = -1

    /// Counters of displays with live objects (and of displays asked about).
    private static let table = Mutex<[OpaquePointer: LiveCounter]>([:])

    static func of(display: OpaquePointer) -> LiveCounter {
        table.withLock { counters in
            if let counter = counters[display] { return counter }
            let counter = LiveCounter(display: display)
            counters[display] = counter
            return counter
        }
    }

    private init(display: OpaquePointer) { self.display = display }

    func objectDidInit(_ type: ResourceObject.Type) {
        resources += 1
        objects += 1
        types[slot(of: type)].count += 1
    }

    func resourceDidDestroy() {
        resources -= 1
        forgetIfIdle()
    }

    func objectDidDeinit(_ type: ResourceObject.Type) {
        objects -= 1
        types[slot(of: type)].count -= 1
        forgetIfIdle()
    }

    private func slot(of type: ResourceObject.Type) -> Int {
        let id = ObjectIdentifier(type)
        if lastSlot >= 0, types[lastSlot].id == id { return lastSlot }
        if let slot = slots[id] {
            lastSlot = slot
            return slot
        }
        types.append((id, type, 0))
        lastSlot = types.count - 1
        slots[id] = lastSlot
        return lastSlot
    }

    /// A display with nothing alive leaves the table (a later display at the same address starts
    /// afresh; objects still holding this counter have none alive, so nothing changes it again
    /// but a new object, which asks the table).
    private func forgetIfIdle() {
        guard resources == 0, objects == 0 else { return }
        Self.table.withLock { counters in
            if counters[display] === self { counters[display] = nil }
        }
    }

    func snapshot() -> ResourceObject.LiveCounts {
        var counts = ResourceObject.LiveCounts(resources: resources, objects: objects)
        for entry in types where entry.count != 0 {
            counts.byType[String(describing: entry.type), default: 0] += entry.count
        }
        return counts
    }
}

/// Runs a request handler on the object behind `resource`; a `ProtocolError` it throws is posted
/// to the client at this one conversion point. Requests on a dead object are ignored.
@inline(__always)
public func handle<T: ResourceObject>(_ resource: OpaquePointer?, as type: T.Type, _ body: (T) throws -> Void) {
    guard let object = ResourceObject.from(resource, as: T.self) else { return }
    do {
        try body(object)
    } catch let error as ProtocolError {
        object.post(error)
    } catch {
        strata_client_post_implementation_error(object.client, "\(error)")
    }
}

/// The destructor request shared by every interface whose `destroy` only ends the resource.
public let destroyRequest: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, resource in
    if let resource { wl_resource_destroy(resource) }
}

/// A pointer to one implementation struct, allocated once and kept for the process' lifetime.
public func makeImplementation<T>(_ value: T) -> UnsafeRawPointer {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return UnsafeRawPointer(pointer)
}
