import CStrataServerGlue
import CWaylandServer

/// zxdg_imported_v2/v1: another client's exported toplevel, as seen by the importer.
/// set_parent_of makes it the parent of one of the importer's toplevels, with xdg_toplevel
/// set_parent's stacking (`XdgToplevel.adoptForeignParent`; the model's `Window.parent`). A
/// parent that would close a cycle through the other client's tree, or make a chain deeper than
/// `TreeLimits.maxTransientDepth`, is refused without an error: the importer cannot see that tree.
///
/// When the export ends (its zxdg_exported or its toplevel destroyed) or the handle was unknown,
/// `destroyed` is sent once, the relations set through this object end, and it turns inert
/// (set_parent_of still checks its argument, then does nothing). Destroying it ends its
/// relations too.
final class XdgImported: ResourceObject {
    let flavor: XdgForeignFlavor
    private(set) weak var exported: XdgExported?
    private var sentDestroyed = false
    /// The importer's toplevels given a parent through this object. An entry whose toplevel died
    /// or took another parent since is stale; stale entries are dropped when the table has grown
    /// to twice its size at the last sweep, so a client repeating set_parent_of keeps it small.
    private var children: [ObjectIdentifier: Weak<XdgToplevel>] = [:]
    private var sweepAt = 16

    init?(flavor: XdgForeignFlavor, exported: XdgExported?, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.flavor = flavor
        self.exported = exported
        super.init(
            client: client, interface: flavor.importedInterface, version: version, id: id,
            implementation: flavor == .v2 ? Self.implementationV2 : Self.implementationV1)
    }

    /// The export ended (or never was): `destroyed`, once, and the relations end.
    func exportDidEnd() {
        exported = nil
        endRelations()
        guard !sentDestroyed, !isDestroyed else { return }
        sentDestroyed = true
        switch flavor {
        case .v1: zxdg_imported_v1_send_destroyed(resource)
        case .v2: zxdg_imported_v2_send_destroyed(resource)
        }
    }

    private func endRelations() {
        let ended = children.values.compactMap(\.value)
        children.removeAll()
        for child in ended { child.foreignImportDidEnd(self) }
    }

    override func resourceDidDestroy() {
        exported?.remove(self)
        exported = nil
        endRelations()
    }

    func handleSetParentOfRequest(_ surfaceResource: OpaquePointer?) throws(ProtocolError) {
        guard let child = XdgExporter.toplevel(of: surfaceResource) else {
            throw flavor.invalidSurface(
                "set_parent_of: the surface has no live xdg_toplevel", on: resource, client: client)
        }
        guard let parent = exported?.liveToplevel else { return }
        guard child.adoptForeignParent(parent, by: self) else { return }
        children[ObjectIdentifier(child)] = Weak(child)
        if children.count >= sweepAt {
            children = children.filter { entry in
                entry.value.value.map { $0.foreignImport === self && !$0.isDestroyed } ?? false
            }
            sweepAt = max(16, children.count * 2)
        }
    }

    static let implementationV2 = makeImplementation(
        zxdg_imported_v2_interface(
            destroy: destroyRequest,
            set_parent_of: { _, resource, surface in
                handle(resource, as: XdgImported.self) { try $0.handleSetParentOfRequest(surface) }
            }))

    static let implementationV1 = makeImplementation(
        zxdg_imported_v1_interface(
            destroy: destroyRequest,
            set_parent_of: { _, resource, surface in
                handle(resource, as: XdgImported.self) { try $0.handleSetParentOfRequest(surface) }
            }))
}
