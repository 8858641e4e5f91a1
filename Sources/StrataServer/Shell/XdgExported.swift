import CStrataServerGlue
import CWaylandServer

/// zxdg_exported_v2/v1: one export of a toplevel and its handle. Destroying it revokes the
/// handle and ends every relation set through it: each import of it gets `destroyed`. When the
/// toplevel goes first the same happens and this object turns inert (its handle imports
/// nothing any more); it still counts against the client's exports until destroyed.
final class XdgExported: ResourceObject {
    unowned let foreign: XdgForeign
    let flavor: XdgForeignFlavor
    let handle: String
    private(set) weak var toplevel: XdgToplevel?
    /// The live imports of this export, told when it ends.
    private var importers: [ObjectIdentifier: Weak<XdgImported>] = [:]

    init?(
        foreign: XdgForeign, flavor: XdgForeignFlavor, toplevel: XdgToplevel, handle: String,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.foreign = foreign
        self.flavor = flavor
        self.toplevel = toplevel
        self.handle = handle
        super.init(
            client: client, interface: flavor.exportedInterface, version: version, id: id,
            implementation: flavor == .v2 ? Self.implementationV2 : Self.implementationV1)
    }

    func sendHandle() {
        guard !isDestroyed else { return }
        handle.withCString { text in
            switch flavor {
            case .v1: zxdg_exported_v1_send_handle(resource, text)
            case .v2: zxdg_exported_v2_send_handle(resource, text)
            }
        }
    }

    /// The toplevel of a live export (nil once it went or the export was revoked).
    var liveToplevel: XdgToplevel? {
        guard !isDestroyed, let toplevel, !toplevel.isDestroyed else { return nil }
        return toplevel
    }

    func add(_ imported: XdgImported) {
        importers[ObjectIdentifier(imported)] = Weak(imported)
    }

    func remove(_ imported: XdgImported) {
        if importers[ObjectIdentifier(imported)]?.value === imported { importers[ObjectIdentifier(imported)] = nil }
    }

    /// The handle stops working and every import of it ends.
    private func end() {
        foreign.revoke(self)
        toplevel = nil
        let ended = importers.values.compactMap(\.value)
        importers.removeAll()
        for imported in ended { imported.exportDidEnd() }
    }

    func toplevelDidGoAway() {
        end()
    }

    override func resourceDidDestroy() {
        if let toplevel { toplevel.exports[ObjectIdentifier(self)] = nil }
        end()
        foreign.exportedDidDestroy(self)
    }

    static let implementationV2 = makeImplementation(zxdg_exported_v2_interface(destroy: destroyRequest))
    static let implementationV1 = makeImplementation(zxdg_exported_v1_interface(destroy: destroyRequest))
}
