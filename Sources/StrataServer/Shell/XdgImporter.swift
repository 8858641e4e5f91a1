import CStrataServerGlue
import CWaylandServer

/// zxdg_importer_v2 (import_toplevel) or zxdg_importer_v1 (import): imports a toplevel by the
/// handle another client (or this one) was given. An unknown handle, of any length or content
/// (libwayland bounds a string to its 4 KiB message), gives an imported object that is told
/// `destroyed` at once and does nothing.
final class XdgImporter: ResourceObject {
    unowned let foreign: XdgForeign
    let flavor: XdgForeignFlavor

    init?(foreign: XdgForeign, flavor: XdgForeignFlavor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.foreign = foreign
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.importerInterface, version: version, id: id,
            implementation: flavor == .v2 ? Self.implementationV2 : Self.implementationV1)
    }

    func handleImportRequest(id: UInt32, handle text: UnsafePointer<CChar>?) {
        let exported = text.flatMap { foreign.exported(withHandle: String(cString: $0)) }
        guard let imported = XdgImported(flavor: flavor, exported: exported, client: client, version: version, id: id)
        else { return }
        if let exported, exported.liveToplevel != nil {
            exported.add(imported)
        } else {
            imported.exportDidEnd()
        }
    }

    static let implementationV2 = makeImplementation(
        zxdg_importer_v2_interface(
            destroy: destroyRequest,
            import_toplevel: { _, resource, id, text in
                handle(resource, as: XdgImporter.self) { $0.handleImportRequest(id: id, handle: text) }
            }))

    static let implementationV1 = makeImplementation(
        zxdg_importer_v1_interface(
            destroy: destroyRequest,
            import: { _, resource, id, text in
                handle(resource, as: XdgImporter.self) { $0.handleImportRequest(id: id, handle: text) }
            }))
}
