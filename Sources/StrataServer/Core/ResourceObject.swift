import CStrataServerGlue
import CWaylandServer
import Foundation

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
    /// The display the resource belongs to: the key of the live counts.
    private let displayKey: OpaquePointer

    /// Creates the wl_resource and installs `implementation`. Returns nil (having posted
    /// no_memory to the client) when libwayland cannot allocate.
    public init?(client: OpaquePointer, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32,
                 implementation: UnsafeRawPointer?) {
        guard let resource = wl_resource_create(client, interface, Int32(version), id) else {
            wl_client_post_no_memory(client)
            return nil
        }
        self.resource = resource
        self.client = client
        self.version = version
        self.displayKey = wl_client_get_display(client)
        let type = ObjectIdentifier(Swift.type(of: self))
        ResourceObject.count(displayKey, naming: Swift.type(of: self)) {
            $0.resources += 1
            $0.objects += 1
            $0.byType[type, default: 0] += 1
        }
        let me = Unmanaged.passRetained(self).toOpaque()
        wl_resource_set_implementation(resource, implementation, me) { resource in
            guard let resource, let data = wl_resource_get_user_data(resource) else { return }
            let object = Unmanaged<ResourceObject>.fromOpaque(data).takeRetainedValue()
            wl_resource_set_user_data(resource, nil)
            ResourceObject.count(object.displayKey) { $0.resources -= 1 }
            object.isDestroyed = true
            object.resourceDidDestroy()
        }
    }

    deinit {
        let type = ObjectIdentifier(Swift.type(of: self))
        ResourceObject.count(displayKey) {
            $0.objects -= 1
            $0.byType[type, default: 0] -= 1
            if $0.byType[type] == 0 { $0.byType[type] = nil }
        }
    }

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

    public var clientPid: Int32 {
        var pid: pid_t = 0
        wl_client_get_credentials(client, &pid, nil, nil)
        return pid
    }
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
        /// Live Swift objects per class (what leaked, when a count is off).
        var byType: [ObjectIdentifier: Int] = [:]
        public init(resources: Int = 0, objects: Int = 0) { self.resources = resources; self.objects = objects }
        public static func == (a: LiveCounts, b: LiveCounts) -> Bool { a.resources == b.resources && a.objects == b.objects }
        public var description: String {
            let names = ResourceObject.lockedTypeNames()
            let types = byType.map { (names[$0.key] ?? "?") + " \($0.value)" }.sorted().joined(separator: ", ")
            return "\(resources) resources, \(objects) objects (\(types))"
        }
    }

    /// The live counts of `display`'s resources (tests run several displays on several threads).
    public static func liveCounts(on display: OpaquePointer) -> LiveCounts {
        countsLock.lock()
        defer { countsLock.unlock() }
        return counts[display] ?? LiveCounts()
    }

    nonisolated(unsafe) private static var counts: [OpaquePointer: LiveCounts] = [:]
    nonisolated(unsafe) fileprivate static var typeNames: [ObjectIdentifier: String] = [:]
    private static let countsLock = NSLock()

    fileprivate static func lockedTypeNames() -> [ObjectIdentifier: String] {
        countsLock.lock()
        defer { countsLock.unlock() }
        return typeNames
    }

    fileprivate static func count(_ display: OpaquePointer, naming newType: ResourceObject.Type? = nil,
                                  _ change: (inout LiveCounts) -> Void) {
        countsLock.lock()
        defer { countsLock.unlock() }
        var value = counts[display] ?? LiveCounts()
        change(&value)
        if let newType, typeNames[ObjectIdentifier(newType)] == nil {
            typeNames[ObjectIdentifier(newType)] = String(describing: newType)
        }
        counts[display] = value.objects == 0 && value.resources == 0 ? nil : value
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
