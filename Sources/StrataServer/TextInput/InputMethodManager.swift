import CStrataServerGlue
import CWaylandServer

/// zwp_input_method_manager_v2 v1 (privileged: an input method reads keystrokes and types into
/// other clients): one input method per seat.
final class InputMethodManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let relay: TextInputRelay

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_input_method_manager_v2_interface(), version: version)
        { [unowned compositor] client, version, id in
            _ = InputMethodManager(relay: compositor.seat.textInputs, client: client, version: version, id: id)
        }
    }

    init?(relay: TextInputRelay, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.relay = relay
        super.init(
            client: client, interface: strata_zwp_input_method_manager_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_input_method_manager_v2_interface(
            get_input_method: { _, resource, _, id in
                // One seat: the seat argument can only name it.
                handle(resource, as: InputMethodManager.self) { manager in
                    guard
                        let inputMethod = InputMethod(
                            relay: manager.relay, client: manager.client, version: manager.version, id: id)
                    else { return }
                    manager.relay.inputMethodDidAppear(inputMethod)
                }
            },
            destroy: destroyRequest))
}
