import CStrataServerGlue
import CWaylandServer

/// wp_cursor_shape_manager_v1 v1: a client names a cursor (`pointer`, `text`, `ew-resize`, …)
/// instead of drawing one; the cursor layer shows the Xcursor theme's image of that name
/// (`CursorTheme`, with the legacy X names as aliases). A device made for a zwp_tablet_tool_v2
/// checks its shapes and shows nothing: Strata does not draw tablet tool cursors (`TabletCursorRole`).
public enum CursorShapeManager {
    static let version: UInt32 = 1

    /// The CSS cursor name of each `wp_cursor_shape_device_v1.shape` value (1 is `default`).
    public static let shapeNames = [
        "default", "context-menu", "help", "pointer", "progress", "wait", "cell", "crosshair", "text",
        "vertical-text", "alias", "copy", "move", "no-drop", "not-allowed", "grab", "grabbing", "e-resize",
        "n-resize", "ne-resize", "nw-resize", "s-resize", "se-resize", "sw-resize", "w-resize", "ew-resize",
        "ns-resize", "nesw-resize", "nwse-resize", "col-resize", "row-resize", "all-scroll", "zoom-in", "zoom-out",
    ]

    public static func name(ofShape shape: UInt32) -> String? {
        guard shape >= 1, Int(shape) <= shapeNames.count else { return nil }
        return shapeNames[Int(shape) - 1]
    }

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wp_cursor_shape_manager_v1_interface(), version: version)
        { client, version, id in
            _ = CursorShapeManagerBinding(client: client, version: version, id: id)
        }
    }
}

final class CursorShapeManagerBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_cursor_shape_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_cursor_shape_manager_v1_interface(
            destroy: destroyRequest,
            get_pointer: { client, resource, id, pointerResource in
                handle(resource, as: CursorShapeManagerBinding.self) { manager in
                    guard let client else { return }
                    // A wl_pointer already released gets an inert device.
                    let binding = ResourceObject.from(pointerResource, as: PointerBinding.self)
                    _ = CursorShapeDevice(client: client, version: manager.version, id: id, binding: binding)
                }
            },
            get_tablet_tool_v2: { client, resource, id, _ in
                handle(resource, as: CursorShapeManagerBinding.self) { manager in
                    guard let client else { return }
                    _ = CursorShapeDevice(client: client, version: manager.version, id: id, binding: nil)
                }
            }))
}

/// wp_cursor_shape_device_v1: set_shape for one wl_pointer (inert when it has none).
final class CursorShapeDevice: ResourceObject {
    private weak var binding: PointerBinding?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, binding: PointerBinding?) {
        self.binding = binding
        super.init(
            client: client, interface: strata_wp_cursor_shape_device_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleSetShapeRequest(serial: UInt32, shape: UInt32) throws(ProtocolError) {
        guard let name = CursorShapeManager.name(ofShape: shape) else {
            throw ProtocolError(
                code: WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue,
                "shape \(shape) is not a wp_cursor_shape_device_v1.shape")
        }
        guard let binding, !binding.isDestroyed else { return }
        binding.pointer.setCursorShape(name, client: client, serial: serial)
    }

    static let implementation = makeImplementation(
        wp_cursor_shape_device_v1_interface(
            destroy: destroyRequest,
            set_shape: { _, resource, serial, shape in
                handle(resource, as: CursorShapeDevice.self) {
                    try $0.handleSetShapeRequest(serial: serial, shape: shape)
                }
            }))
}
