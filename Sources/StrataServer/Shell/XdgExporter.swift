import CStrataServerGlue
import CWaylandServer

/// zxdg_exporter_v2 (export_toplevel) or zxdg_exporter_v1 (export): exports a toplevel's
/// surface. Only a surface whose role object is a live xdg_toplevel (or zxdg_toplevel_v6) may be
/// exported (`XdgForeignFlavor.invalidSurface` otherwise); past the client's export budget,
/// no_memory.
final class XdgExporter: ResourceObject {
    unowned let foreign: XdgForeign
    let flavor: XdgForeignFlavor

    init?(foreign: XdgForeign, flavor: XdgForeignFlavor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.foreign = foreign
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.exporterInterface, version: version, id: id,
            implementation: flavor == .v2 ? Self.implementationV2 : Self.implementationV1)
    }

    /// The toplevel whose surface this is, if it is one.
    static func toplevel(of surfaceResource: OpaquePointer?) -> XdgToplevel? {
        guard let surface = ResourceObject.from(surfaceResource, as: Surface.self),
            let xdgSurface = surface.role as? XdgSurface,
            let toplevel = xdgSurface.roleObject as? XdgToplevel, !toplevel.isDestroyed
        else { return nil }
        return toplevel
    }

    func handleExportRequest(id: UInt32, surface surfaceResource: OpaquePointer?) throws(ProtocolError) {
        guard let toplevel = Self.toplevel(of: surfaceResource) else {
            throw flavor.invalidSurface(
                "only a surface with a live xdg_toplevel may be exported", on: resource, client: client)
        }
        guard foreign.exportCount(of: client) < ClientBudget.maxExportsPerClient else {
            throw .noMemory("more than \(ClientBudget.maxExportsPerClient) xdg-foreign exports", client: client)
        }
        guard
            let exported = XdgExported(
                foreign: foreign, flavor: flavor, toplevel: toplevel, handle: foreign.makeHandle(),
                client: client, version: version, id: id)
        else { return }
        foreign.register(exported)
        toplevel.exports[ObjectIdentifier(exported)] = Weak(exported)
        exported.sendHandle()
    }

    static let implementationV2 = makeImplementation(
        zxdg_exporter_v2_interface(
            destroy: destroyRequest,
            export_toplevel: { _, resource, id, surface in
                handle(resource, as: XdgExporter.self) { try $0.handleExportRequest(id: id, surface: surface) }
            }))

    static let implementationV1 = makeImplementation(
        zxdg_exporter_v1_interface(
            destroy: destroyRequest,
            export: { _, resource, id, surface in
                handle(resource, as: XdgExporter.self) { try $0.handleExportRequest(id: id, surface: surface) }
            }))
}
