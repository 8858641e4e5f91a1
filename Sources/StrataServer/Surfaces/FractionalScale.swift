import CStrataServerGlue
import CWaylandServer
import StrataModel

/// wp_fractional_scale_manager_v1 v1: tells surfaces the scale of the screen they are on, in
/// 1/120 units (a scale-1.5 screen is 180), so that clients draw at that size and shrink it
/// with a wp_viewport destination; the compositor then shows their buffer 1:1. A surface's
/// screen is the screen of the window that shows it (for subsurfaces and popups, their window's),
/// else the screen it was last shown on, else the main screen. `preferred_scale` is sent when
/// the object is created and whenever that screen or its scale changes (only when the value
/// changes). See docs/breadth.md.
public final class FractionalScaleManager {
    static let version: UInt32 = 1
    unowned let compositor: Compositor
    /// Every live wp_fractional_scale_v1 (weakly: the resources own them).
    private var objects: [Weak<FractionalScale>] = []
    private var observerToken: ObserverToken?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        observerToken = compositor.windows.notifications.addObserver(phase: .wire) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        return Global(
            display: compositor.display, interface: strata_wp_fractional_scale_manager_v1_interface(),
            version: Self.version
        ) { [unowned self] client, version, id in
            _ = FractionalScaleManagerBinding(manager: self, client: client, version: version, id: id)
        }
    }

    func stop() {
        if let observerToken { compositor.windows.notifications.removeObserver(observerToken) }
        observerToken = nil
        objects.removeAll()
    }

    /// How many wp_fractional_scale_v1 objects are alive (tests).
    public var liveObjectCount: Int {
        objects.removeAll { $0.value == nil }
        return objects.count
    }

    func register(_ object: FractionalScale) {
        objects.removeAll { $0.value == nil }
        objects.append(Weak(object))
        object.update()
    }

    /// Re-evaluates every object's screen and scale (sending only changes).
    func updateAll() {
        objects.removeAll { $0.value == nil }
        for object in objects { object.value?.update() }
    }

    /// The screen whose scale `surface` should draw at (see the type's description).
    func screen(for surface: Surface) -> Screen? {
        if let window = compositor.scene.window(showing: surface), let screen = window.screen { return screen }
        if let placement = compositor.scene.lastPlacement(of: surface),
            let output = compositor.scene.output(for: placement.screen)
        {
            return output.screen
        }
        return compositor.windows.mainScreen
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .screenDidChangeScale, .windowDidMoveToScreen, .screenDidConnect, .screenDidDisconnect:
            updateAll()
        default:
            break
        }
    }
}

final class FractionalScaleManagerBinding: ResourceObject {
    unowned let manager: FractionalScaleManager

    init?(manager: FractionalScaleManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        super.init(
            client: client, interface: strata_wp_fractional_scale_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_fractional_scale_manager_v1_interface(
            destroy: destroyRequest,
            get_fractional_scale: { client, resource, id, surfaceResource in
                handle(resource, as: FractionalScaleManagerBinding.self) { binding throws(ProtocolError) in
                    guard let client, let surface = ResourceObject.from(surfaceResource, as: Surface.self) else {
                        return
                    }
                    guard surface.fractionalScaleObject == nil else {
                        throw ProtocolError(
                            code: WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue,
                            "the surface already has a wp_fractional_scale_v1")
                    }
                    // The resource holds the object; the surface and the manager only point at it.
                    guard
                        let object = FractionalScale(
                            manager: binding.manager, client: client, version: binding.version,
                            id: id, surface: surface)
                    else { return }
                    surface.fractionalScaleObject = object
                    binding.manager.register(object)
                }
            }))
}

/// wp_fractional_scale_v1 of one surface. Inert once the surface is gone (it sends nothing
/// more); destroying it lets the surface get a new one.
final class FractionalScale: ResourceObject {
    private(set) weak var surface: Surface?
    private weak var manager: FractionalScaleManager?
    /// The last preferred_scale sent (1/120 units).
    private(set) var sentScale: Int?

    init?(manager: FractionalScaleManager, client: OpaquePointer, version: UInt32, id: UInt32, surface: Surface) {
        self.surface = surface
        self.manager = manager
        super.init(
            client: client, interface: strata_wp_fractional_scale_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        if let surface, surface.fractionalScaleObject === self { surface.fractionalScaleObject = nil }
    }

    /// Sends preferred_scale when the surface's screen's scale differs from the last one sent.
    func update() {
        guard !isDestroyed, let surface, !surface.isDestroyed, let manager,
            let screen = manager.screen(for: surface)
        else { return }
        let scale = screen.scale120
        guard scale != sentScale, scale > 0 else { return }
        sentScale = scale
        wp_fractional_scale_v1_send_preferred_scale(resource, UInt32(scale))
    }

    static let implementation = makeImplementation(wp_fractional_scale_v1_interface(destroy: destroyRequest))
}
