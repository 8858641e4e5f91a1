import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_positioner: a mutable set of placement rules; popups copy them when they are made or
/// repositioned.
final class XdgPositioner: ResourceObject {
    private(set) var rules = XdgPositionerRules()

    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(client: client, interface: strata_xdg_positioner_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    private static func invalidInput(_ message: String) -> ProtocolError {
        ProtocolError(code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, message)
    }

    static let implementation = makeImplementation(xdg_positioner_interface(
        destroy: destroyRequest,
        set_size: { _, resource, width, height in
            handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                guard width > 0, height > 0 else { throw invalidInput("set_size \(width)x\(height): the size must be positive") }
                positioner.rules.width = width
                positioner.rules.height = height
            }
        },
        set_anchor_rect: { _, resource, x, y, width, height in
            handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                guard width >= 0, height >= 0 else {
                    throw invalidInput("set_anchor_rect \(width)x\(height): the size must not be negative")
                }
                positioner.rules.anchorRect = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
            }
        },
        set_anchor: { _, resource, anchor in
            handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                guard anchor <= XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT.rawValue else { throw invalidInput("anchor \(anchor) is not an xdg_positioner.anchor") }
                positioner.rules.anchor = anchor
            }
        },
        set_gravity: { _, resource, gravity in
            handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                guard gravity <= XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue else { throw invalidInput("gravity \(gravity) is not an xdg_positioner.gravity") }
                positioner.rules.gravity = gravity
            }
        },
        set_constraint_adjustment: { _, resource, adjustment in
            handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                guard adjustment & ~UInt32(0x3f) == 0 else {
                    throw invalidInput("constraint adjustment \(adjustment) has bits outside xdg_positioner.constraint_adjustment")
                }
                positioner.rules.constraintAdjustment = adjustment
            }
        },
        set_offset: { _, resource, x, y in
            handle(resource, as: XdgPositioner.self) { positioner in
                positioner.rules.offsetX = x
                positioner.rules.offsetY = y
            }
        },
        set_reactive: { _, resource in
            handle(resource, as: XdgPositioner.self) { $0.rules.isReactive = true }
        },
        set_parent_size: { _, resource, width, height in
            handle(resource, as: XdgPositioner.self) { $0.rules.parentSize = Size(width: Int(width), height: Int(height)) }
        },
        set_parent_configure: { _, resource, serial in
            handle(resource, as: XdgPositioner.self) { $0.rules.parentConfigureSerial = serial }
        }))
}
