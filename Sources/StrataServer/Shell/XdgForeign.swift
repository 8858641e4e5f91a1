import CStrataServerGlue
import CWaylandServer

/// xdg-foreign (zxdg_exporter/importer v1 and v2): one client exports a toplevel and gets an
/// unguessable handle; another imports it by that handle and makes it the parent of one of its
/// own toplevels (a portal's file chooser above a sandboxed application's window). This object
/// is the table of live handles, shared by both versions, and the per-client count of exports.
///
/// A handle is 128 random bits from the system's generator (getrandom) in hexadecimal: 32
/// characters. It lives until its zxdg_exported is destroyed or its toplevel goes; importers
/// then get `destroyed` and the relations they set end. Each client may hold
/// `ClientBudget.maxExportsPerClient` exports at a time (past it: no_memory).
final class XdgForeign {
    unowned let compositor: Compositor
    /// Live handles: the exports that may still be imported.
    private var handles: [String: XdgExported] = [:]
    /// Live zxdg_exported objects per client (whether or not their handle still works).
    private var exportCounts: [OpaquePointer: Int] = [:]

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    /// The exporter and importer globals of `flavor`.
    func install(_ flavor: XdgForeignFlavor) -> [Global?] {
        let display = compositor.display
        return [
            Global(display: display, interface: flavor.exporterInterface, version: 1) {
                [unowned self] client, version, id in
                _ = XdgExporter(foreign: self, flavor: flavor, client: client, version: version, id: id)
            },
            Global(display: display, interface: flavor.importerInterface, version: 1) {
                [unowned self] client, version, id in
                _ = XdgImporter(foreign: self, flavor: flavor, client: client, version: version, id: id)
            },
        ]
    }

    /// The export with this handle, if it is alive.
    func exported(withHandle handle: String) -> XdgExported? {
        handles[handle]
    }

    /// How many exports `client` holds now.
    func exportCount(of client: OpaquePointer) -> Int {
        exportCounts[client] ?? 0
    }

    /// A fresh handle, not in use.
    func makeHandle() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let high = generator.next() as UInt64, low = generator.next() as UInt64
            let handle = hex(high) + hex(low)
            if handles[handle] == nil { return handle }
        }
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    func register(_ exported: XdgExported) {
        handles[exported.handle] = exported
        exportCounts[exported.client, default: 0] += 1
    }

    /// The handle stops working (its toplevel went, or its object is being destroyed).
    func revoke(_ exported: XdgExported) {
        if handles[exported.handle] === exported { handles[exported.handle] = nil }
    }

    /// The zxdg_exported object is destroyed: its client's count goes down.
    func exportedDidDestroy(_ exported: XdgExported) {
        revoke(exported)
        let count = (exportCounts[exported.client] ?? 1) - 1
        exportCounts[exported.client] = count > 0 ? count : nil
    }
}
