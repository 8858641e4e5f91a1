import CStrataServerGlue
import CWaylandServer

/// zwp_text_input_manager_v3 v1: every client may make text inputs (they only hear about their
/// own focused surface and receive text the input method sends).
final class TextInputManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let relay: TextInputRelay

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_text_input_manager_v3_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = TextInputManager(relay: compositor.seat.textInputs, client: client, version: version, id: id)
        }
    }

    init?(relay: TextInputRelay, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.relay = relay
        super.init(
            client: client, interface: strata_zwp_text_input_manager_v3_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_text_input_manager_v3_interface(
            destroy: destroyRequest,
            get_text_input: { _, resource, id, _ in
                // One seat: the seat argument can only name it.
                handle(resource, as: TextInputManager.self) { manager in
                    guard
                        let textInput = TextInput(
                            relay: manager.relay, client: manager.client, version: manager.version, id: id)
                    else { return }
                    manager.relay.textInputDidAppear(textInput)
                }
            }))
}
