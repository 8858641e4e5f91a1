import CStrataServerGlue
import CWaylandServer

/// Which xdg-foreign protocol an object speaks: zxdg_*_v2 (GTK 4, Qt 6, Firefox, Chromium) or
/// the older zxdg_*_v1 (GTK 3). They differ in names (`export`/`import` became
/// `export_toplevel`/`import_toplevel`) and in errors: v2 names invalid_surface on the exporter
/// and the imported object; v1 names none, so the same violation is `wl_display.invalid_object`.
/// Handles are shared: a v1 importer can import what a v2 exporter exported, and back.
enum XdgForeignFlavor {
    case v1, v2

    var exporterInterface: UnsafePointer<wl_interface> {
        switch self {
        case .v1: strata_zxdg_exporter_v1_interface()
        case .v2: strata_zxdg_exporter_v2_interface()
        }
    }

    var importerInterface: UnsafePointer<wl_interface> {
        switch self {
        case .v1: strata_zxdg_importer_v1_interface()
        case .v2: strata_zxdg_importer_v2_interface()
        }
    }

    var exportedInterface: UnsafePointer<wl_interface> {
        switch self {
        case .v1: strata_zxdg_exported_v1_interface()
        case .v2: strata_zxdg_exported_v2_interface()
        }
    }

    var importedInterface: UnsafePointer<wl_interface> {
        switch self {
        case .v1: strata_zxdg_imported_v1_interface()
        case .v2: strata_zxdg_imported_v2_interface()
        }
    }

    /// "surface is not an xdg_toplevel", raised on `resource` (the exporter or the imported
    /// object) in v2, on the client's wl_display in v1.
    func invalidSurface(_ message: String, on resource: OpaquePointer, client: OpaquePointer) -> ProtocolError {
        switch self {
        case .v2:
            // Both v2 enums give invalid_surface the value 0.
            return ProtocolError(on: resource, code: ZXDG_EXPORTER_V2_ERROR_INVALID_SURFACE.rawValue, message)
        case .v1:
            return ProtocolError(
                on: wl_client_get_object(client, 1), code: WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue, message)
        }
    }
}
