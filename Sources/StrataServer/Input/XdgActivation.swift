import CStrataServerGlue
import CWaylandServer
import FoundationEssentials
import Glibc
import StrataModel

/// xdg_activation_v1 v1 (every client): focus requests carried by tokens.
///
/// A token is *granted* when, at commit, its serial is an input serial (key press, button press,
/// touch down) the seat sent to the requesting client and that client's surface is the key
/// window's (or the token names no surface but the client owns the key window): the user was
/// just interacting with it. Other tokens are still issued (the protocol wants a string) but
/// grant nothing. `activate` with a granted, unused token less than `lifetime` old shows the
/// window of the surface and makes it key through the model; anything else changes nothing, so
/// no window steals focus without one. Tokens are single use. Each activation's changes have the
/// cause `.activationToken` (requester: the activating client); an activation with a bad, used or
/// stale token for a window posts `keyRequestWasRefused` for it.
public final class XdgActivation {
    static let version: UInt32 = 1
    /// How long a granted token stays usable.
    public var lifetime: Double = 10
    unowned let compositor: Compositor
    private var granted: [String: Date] = [:]
    /// Activations honoured and refused (tests, debugging).
    public private(set) var activations = 0, refusals = 0

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        Global(display: compositor.display, interface: strata_xdg_activation_v1_interface(), version: Self.version) {
            [unowned self] client, version, id in
            _ = XdgActivationBinding(activation: self, client: client, version: version, id: id)
        }
    }

    /// A new token string; remembered as granted when `grant`.
    func issue(grant: Bool) -> String {
        let token = UUID().uuidString
        let now = Date()
        granted = granted.filter { now.timeIntervalSince($0.value) < lifetime }
        if grant { granted[token] = now }
        return token
    }

    func activate(token: String, surface: Surface?, from client: OpaquePointer) {
        let target = surface.flatMap { window(of: $0) }
        let requester = Compositor.requester(of: client)
        compositor.withCause(.activationToken, request: "xdg_activation_v1.activate", requester: requester) {
            guard let issued = granted.removeValue(forKey: token), Date().timeIntervalSince(issued) < lifetime,
                let window = target
            else {
                refusals += 1
                if let target { compositor.windows.refuseKey(target) }
                return
            }
            activations += 1
            if window.isHidden {
                compositor.windows.show(window, makeKey: true)
            } else if !compositor.focusRequests.askDelegate(
                .latestInput, request: "xdg_activation_v1.activate", window: window, requester: requester)
            {
                compositor.windows.makeKeyOrRefuse(window)
            }
        }
    }

    func window(of surface: Surface) -> Window? {
        compositor.windows.windows.first { $0.content?.rootSurface === surface }
    }

    /// Whether `client` is interacting with the key window: it owns the key window's surface.
    func clientOwnsKeyWindow(_ client: OpaquePointer, surface: Surface?) -> Bool {
        guard let key = compositor.windows.keyWindow, let root = key.rootSurface else { return false }
        if let surface { return surface === root }
        return root.client == client
    }
}

final class XdgActivationBinding: ResourceObject {
    unowned let activation: XdgActivation

    init?(activation: XdgActivation, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.activation = activation
        super.init(
            client: client, interface: strata_xdg_activation_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        xdg_activation_v1_interface(
            destroy: destroyRequest,
            get_activation_token: { client, resource, id in
                handle(resource, as: XdgActivationBinding.self) { binding in
                    guard let client else { return }
                    _ = XdgActivationToken(
                        activation: binding.activation, client: client, version: binding.version, id: id)
                }
            },
            activate: { client, resource, token, surface in
                handle(resource, as: XdgActivationBinding.self) { binding in
                    guard let token, let client else { return }
                    binding.activation.activate(
                        token: String(cString: token), surface: ResourceObject.from(surface, as: Surface.self),
                        from: client)
                }
            }))
}

final class XdgActivationToken: ResourceObject {
    unowned let activation: XdgActivation
    private var serial: UInt32?
    private weak var surface: Surface?
    private var committed = false

    init?(activation: XdgActivation, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.activation = activation
        super.init(
            client: client, interface: strata_xdg_activation_token_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        xdg_activation_token_v1_interface(
            set_serial: { _, resource, serial, _ in
                handle(resource, as: XdgActivationToken.self) { token in
                    try token.checkUncommitted()
                    token.serial = serial
                }
            },
            set_app_id: { _, resource, _ in
                handle(resource, as: XdgActivationToken.self) { token in try token.checkUncommitted() }
            },
            set_surface: { _, resource, surface in
                handle(resource, as: XdgActivationToken.self) { token in
                    try token.checkUncommitted()
                    token.surface = ResourceObject.from(surface, as: Surface.self)
                }
            },
            commit: { _, resource in
                handle(resource, as: XdgActivationToken.self) { token in
                    try token.checkUncommitted()
                    token.committed = true
                    let seat = token.activation.compositor.seat!
                    let grant =
                        token.serial.map { seat.isValidInputSerial($0, client: token.client) } == true
                        && token.activation.clientOwnsKeyWindow(token.client, surface: token.surface)
                    xdg_activation_token_v1_send_done(token.resource, token.activation.issue(grant: grant))
                }
            },
            destroy: destroyRequest))

    private func checkUncommitted() throws {
        guard !committed else {
            throw ProtocolError(
                code: XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue, "the token was already committed")
        }
    }
}
