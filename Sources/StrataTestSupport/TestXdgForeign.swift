import CStrataClientGlue
import CWaylandClient

/// A test client's xdg-foreign exporter and importer, of version 2 (zxdg_*_v2) or 1 (zxdg_*_v1).
public final class TestXdgForeign {
    public let client: TestClient
    public let isVersion1: Bool
    public let exporter: OpaquePointer
    public let importer: OpaquePointer

    public init(client: TestClient, version1: Bool = false) throws {
        self.client = client
        isVersion1 = version1
        if version1 {
            exporter = try client.bind(zxdg_exporter_v1_interface_ptr())
            importer = try client.bind(zxdg_importer_v1_interface_ptr())
        } else {
            exporter = try client.bind(zxdg_exporter_v2_interface_ptr())
            importer = try client.bind(zxdg_importer_v2_interface_ptr())
        }
    }

    /// Exports `surface`; its handle arrives with the next roundtrip.
    public func export(_ surface: OpaquePointer) -> TestExported? {
        let object =
            isVersion1
            ? zxdg_exporter_v1_export(exporter, surface) : zxdg_exporter_v2_export_toplevel(exporter, surface)
        return object.map { TestExported(object: $0, isVersion1: isVersion1) }
    }

    /// Imports the toplevel exported as `handle`.
    public func importToplevel(_ handle: String) -> TestImported? {
        let object = handle.withCString { text in
            isVersion1 ? zxdg_importer_v1_import(importer, text) : zxdg_importer_v2_import_toplevel(importer, text)
        }
        return object.map { TestImported(object: $0, isVersion1: isVersion1) }
    }
}
