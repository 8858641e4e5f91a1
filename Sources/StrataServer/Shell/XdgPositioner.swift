import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_positioner (or zxdg_positioner_v6, by `flavor`): a mutable set of placement rules; popups
/// copy them when they are made or repositioned.
final class XdgPositioner: ResourceObject {
    let flavor: XdgShellFlavor
    private(set) var rules = XdgPositionerRules()

    init?(flavor: XdgShellFlavor = .stable, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.positionerInterface, version: version, id: id,
            implementation: Self.implementation)
    }

    private static func invalidInput(_ message: String) -> ProtocolError {
        ProtocolError(code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, message)
    }

    static let implementation = makeImplementation(
        xdg_positioner_interface(
            destroy: destroyRequest,
            set_size: { _, resource, width, height in
                handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                    guard width > 0, height > 0 else {
                        throw invalidInput("set_size \(width)x\(height): the size must be positive")
                    }
                    positioner.rules.width = width
                    positioner.rules.height = height
                }
            },
            set_anchor_rect: { _, resource, x, y, width, height in
                handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                    // v6: "The rectangle must be at least 1x1 large"; stable allows an empty one.
                    let minimum: Int32 = positioner.flavor == .stable ? 0 : 1
                    guard width >= minimum, height >= minimum else {
                        throw invalidInput(
                            "set_anchor_rect \(width)x\(height): the size must be at least \(minimum)x\(minimum)")
                    }
                    positioner.rules.anchorRect = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
                }
            },
            set_anchor: { _, resource, anchor in
                handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                    guard let value = positioner.flavor.edgeValue(anchor) else {
                        throw invalidInput("anchor \(anchor) is not an xdg_positioner.anchor")
                    }
                    positioner.rules.anchor = value
                }
            },
            set_gravity: { _, resource, gravity in
                handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                    guard let value = positioner.flavor.edgeValue(gravity) else {
                        throw invalidInput("gravity \(gravity) is not an xdg_positioner.gravity")
                    }
                    positioner.rules.gravity = value
                }
            },
            set_constraint_adjustment: { _, resource, adjustment in
                handle(resource, as: XdgPositioner.self) { positioner throws(ProtocolError) in
                    guard adjustment & ~UInt32(0x3f) == 0 else {
                        throw invalidInput(
                            "constraint adjustment \(adjustment) has bits outside xdg_positioner.constraint_adjustment")
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
                handle(resource, as: XdgPositioner.self) {
                    $0.rules.parentSize = Size(width: Int(width), height: Int(height))
                }
            },
            set_parent_configure: { _, resource, serial in
                handle(resource, as: XdgPositioner.self) { $0.rules.parentConfigureSerial = serial }
            }))
}
