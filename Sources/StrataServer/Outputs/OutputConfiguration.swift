import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_output_configuration_v1: a client's proposed screen configuration against one serial.
/// `test` checks it, `apply` makes it so through the model; a serial older than the manager's is
/// `cancelled`, a configuration Strata cannot do (disabling a screen, a mode the screen does not
/// offer, a scale outside 1 ... 8) `failed`.
final class OutputConfiguration: ResourceObject {
    private weak var binding: OutputManagerBinding?
    let serial: UInt32
    private var enabled: [OutputConfigurationHead] = []
    private var disabled: [OutputHead] = []
    private var used = false

    init?(binding: OutputManagerBinding, client: OpaquePointer, version: UInt32, id: UInt32, serial: UInt32) {
        self.binding = binding
        self.serial = serial
        super.init(
            client: client, interface: strata_zwlr_output_configuration_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_output_configuration_v1_interface(
            enable_head: { client, resource, id, head in
                handle(resource, as: OutputConfiguration.self) { configuration in
                    guard let client else { return }
                    let head = try configuration.claim(head)
                    guard
                        let object = OutputConfigurationHead(
                            client: client, version: configuration.version, id: id, head: head)
                    else { return }
                    configuration.enabled.append(object)
                }
            },
            disable_head: { _, resource, head in
                handle(resource, as: OutputConfiguration.self) { configuration in
                    configuration.disabled.append(try configuration.claim(head))
                }
            },
            apply: { _, resource in
                handle(resource, as: OutputConfiguration.self) { configuration in try configuration.finish(apply: true)
                }
            },
            test: { _, resource in
                handle(resource, as: OutputConfiguration.self) { configuration in try configuration.finish(apply: false)
                }
            },
            destroy: destroyRequest))

    private func claim(_ resource: OpaquePointer?) throws -> OutputHead {
        try checkUnused()
        guard let head = ResourceObject.from(resource, as: OutputHead.self) else {
            throw ProtocolError.invalidMethod("not a zwlr_output_head_v1")
        }
        guard !enabled.contains(where: { $0.head === head }), !disabled.contains(where: { $0 === head }) else {
            throw ProtocolError(
                code: ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD.rawValue,
                "the head is already configured")
        }
        return head
    }

    private func checkUnused() throws {
        guard !used else {
            throw ProtocolError(
                code: ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue,
                "the configuration was already applied or tested")
        }
    }

    private func finish(apply: Bool) throws {
        try checkUnused()
        used = true
        guard let binding, let manager = Optional(binding.manager) else {
            zwlr_output_configuration_v1_send_cancelled(resource)
            return
        }
        for head in binding.heads where !head.isFinished {
            guard enabled.contains(where: { $0.head === head }) || disabled.contains(where: { $0 === head }) else {
                throw ProtocolError(
                    code: ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD.rawValue,
                    "head \(head.screen?.name ?? "?") is not configured")
            }
        }
        guard serial == manager.serial else {
            zwlr_output_configuration_v1_send_cancelled(resource)
            return
        }
        let disabledScreens = disabled.compactMap(\.screen)
        if manager.configure(enabled, disabled: disabledScreens, apply: apply) {
            zwlr_output_configuration_v1_send_succeeded(resource)
        } else {
            zwlr_output_configuration_v1_send_failed(resource)
        }
    }
}

/// zwlr_output_configuration_head_v1: what one head should become; each property once.
final class OutputConfigurationHead: ResourceObject {
    let head: OutputHead
    var screen: Screen? { head.screen }
    private(set) var mode: ScreenMode?
    private(set) var position: Point?
    private(set) var transform: ScreenTransform?
    private(set) var scale: Double?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, head: OutputHead) {
        self.head = head
        super.init(
            client: client, interface: strata_zwlr_output_configuration_head_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    private static func alreadySet(_ what: String) -> ProtocolError {
        ProtocolError(code: ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET.rawValue, "the \(what) is already set")
    }

    static let implementation = makeImplementation(
        zwlr_output_configuration_head_v1_interface(
            set_mode: { _, resource, mode in
                handle(resource, as: OutputConfigurationHead.self) { object in
                    guard object.mode == nil else { throw alreadySet("mode") }
                    guard let modeObject = ResourceObject.from(mode, as: OutputModeObject.self),
                        modeObject.head === object.head, let value = object.head.mode(of: modeObject)
                    else {
                        throw ProtocolError(
                            code: ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE.rawValue,
                            "the mode is not one of the head's")
                    }
                    object.mode = value
                }
            },
            set_custom_mode: { _, resource, width, height, refresh in
                handle(resource, as: OutputConfigurationHead.self) { object in
                    guard object.mode == nil else { throw alreadySet("mode") }
                    guard width > 0, height > 0, refresh >= 0 else {
                        throw ProtocolError(
                            code: ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE.rawValue,
                            "a custom mode needs a positive size")
                    }
                    // Only a mode the screen offers can be applied; refresh 0 takes the first of that size.
                    let offered = object.screen?.availableModes.first {
                        $0.size.width == Int(width) && $0.size.height == Int(height)
                            && (refresh == 0 || $0.refreshMilliHz == Int(refresh))
                    }
                    object.mode =
                        offered
                        ?? ScreenMode(width: Int(width), height: Int(height), refreshMilliHz: Int(max(1, refresh)))
                }
            },
            set_position: { _, resource, x, y in
                handle(resource, as: OutputConfigurationHead.self) { object in
                    guard object.position == nil else { throw alreadySet("position") }
                    object.position = Point(x: Double(x), y: Double(y))
                }
            },
            set_transform: { _, resource, transform in
                handle(resource, as: OutputConfigurationHead.self) { object in
                    guard object.transform == nil else { throw alreadySet("transform") }
                    guard let value = ScreenTransform(waylandValue: transform) else {
                        throw ProtocolError(
                            code: ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM.rawValue,
                            "transform \(transform) is not a wl_output.transform")
                    }
                    object.transform = value
                }
            },
            set_scale: { _, resource, scale in
                handle(resource, as: OutputConfigurationHead.self) { object in
                    guard object.scale == nil else { throw alreadySet("scale") }
                    let value = wl_fixed_to_double(scale)
                    guard value > 0 else {
                        throw ProtocolError(
                            code: ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE.rawValue,
                            "scale \(value) is not positive")
                    }
                    object.scale = value
                }
            }))
}
