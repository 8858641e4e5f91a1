import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_output_manager_v1 v2 (privileged): every screen as a head with its modes, current mode,
/// position, transform and scale; configurations that test or apply mode, position, transform and
/// scale (fractional, 1 ... 8; the model rounds it to 1/120) through the model. Every screen change bumps `serial` and re-sends the heads,
/// so a configuration made against an older serial is cancelled.
public final class OutputManager {
    static let version: UInt32 = 2
    unowned let compositor: Compositor
    /// The configuration serial: bumped by every screen change.
    public private(set) var serial: UInt32 = 1
    var bindings: [OutputManagerBinding] = []
    private var observerToken: ObserverToken?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        observerToken = compositor.windows.notifications.addObserver(phase: .tools) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        return Global(
            display: compositor.display, interface: strata_zwlr_output_manager_v1_interface(), version: Self.version
        ) { [unowned self] client, version, id in
            guard let binding = OutputManagerBinding(manager: self, client: client, version: version, id: id) else {
                return
            }
            self.bindings.append(binding)
            binding.sendAll()
        }
    }

    func stop() {
        if let observerToken { compositor.windows.notifications.removeObserver(observerToken) }
        observerToken = nil
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .screenDidConnect, .screenDidDisconnect, .screenModeDidChange, .screenDidChangeTransform,
            .screenDidChangeScale, .screenDidChangeOverscan, .screenDidMove:
            serial &+= 1
            if serial == 0 { serial = 1 }
            for binding in bindings { binding.update() }
        default:
            break
        }
    }

    /// Checks a configuration against the model; applies it when `apply`. Returns whether it
    /// succeeded (nothing is changed when it fails).
    func configure(_ heads: [OutputConfigurationHead], disabled: [Screen], apply: Bool) -> Bool {
        guard disabled.isEmpty else { return false }  // Strata's screens cannot be switched off.
        for head in heads {
            guard let screen = head.screen, screen.isConnected else { return false }
            if let mode = head.mode, !screen.availableModes.contains(mode) { return false }
            if let scale = head.scale, !scale.isFinite || !Screen.scaleRange.contains(scale) { return false }
        }
        guard apply else { return true }
        let windows = compositor.windows
        for head in heads {
            guard let screen = head.screen else { continue }
            if let mode = head.mode {
                do { try windows.setMode(mode, for: screen) } catch { return false }
            }
            if let transform = head.transform { windows.setTransform(transform, for: screen) }
            if let scale = head.scale { windows.setScale(scale, for: screen) }
            if let position = head.position { windows.setOrigin(position, for: screen) }
        }
        return true
    }
}

/// One client's zwlr_output_manager_v1: its heads (one per screen) and their modes.
final class OutputManagerBinding: ResourceObject {
    unowned let manager: OutputManager
    private(set) var heads: [OutputHead] = []
    private var stopped = false

    init?(manager: OutputManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        super.init(
            client: client, interface: strata_zwlr_output_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_output_manager_v1_interface(
            create_configuration: { client, resource, id, serial in
                handle(resource, as: OutputManagerBinding.self) { binding in
                    guard let client else { return }
                    _ = OutputConfiguration(
                        binding: binding, client: client, version: binding.version, id: id, serial: serial)
                }
            },
            stop: { _, resource in
                handle(resource, as: OutputManagerBinding.self) { binding in binding.stop() }
            }))

    func sendAll() {
        for screen in manager.compositor.windows.screens { addHead(for: screen) }
        zwlr_output_manager_v1_send_done(resource, manager.serial)
    }

    /// After a screen change: finished heads for gone screens, new heads for new ones, the state
    /// of the others, then done with the new serial.
    func update() {
        guard !stopped, !isDestroyed else { return }
        let screens = manager.compositor.windows.screens
        for head in heads where head.screen.map({ s in !screens.contains { $0 === s } }) ?? true {
            head.finish()
        }
        heads.removeAll { $0.isFinished }
        for head in heads { head.sendState() }
        for screen in screens where !heads.contains(where: { $0.screen === screen }) { addHead(for: screen) }
        zwlr_output_manager_v1_send_done(resource, manager.serial)
    }

    private func addHead(for screen: Screen) {
        guard let head = OutputHead(binding: self, screen: screen) else { return }
        heads.append(head)
        zwlr_output_manager_v1_send_head(resource, head.resource)
        head.sendDescription()
        head.sendState()
    }

    private func stop() {
        guard !stopped else { return }
        stopped = true
        for head in heads { head.finish() }
        heads.removeAll()
        zwlr_output_manager_v1_send_finished(resource)
        destroyResource()
    }

    override func resourceDidDestroy() {
        manager.bindings.removeAll { $0 === self }
    }
}

/// zwlr_output_head_v1: one screen as one client sees it; its modes are zwlr_output_mode_v1s.
final class OutputHead: ResourceObject {
    private(set) weak var screen: Screen?
    private(set) var modes: [(mode: ScreenMode, resource: OutputModeObject)] = []
    private(set) var isFinished = false
    private var sentMode: ScreenMode?

    init?(binding: OutputManagerBinding, screen: Screen) {
        self.screen = screen
        // Created by the server: new_id 0, announced with zwlr_output_manager_v1.head.
        super.init(
            client: binding.client, interface: strata_zwlr_output_head_v1_interface(), version: binding.version, id: 0,
            implementation: nil)
    }

    func sendDescription() {
        guard let screen else { return }
        zwlr_output_head_v1_send_name(resource, screen.name)
        zwlr_output_head_v1_send_description(resource, "Strata screen \(screen.name)")
        if version >= 2 {
            zwlr_output_head_v1_send_make(resource, "Strata")
            zwlr_output_head_v1_send_model(resource, screen.name)
        }
    }

    /// Modes not announced yet, enabled, current mode, position, transform, scale.
    func sendState() {
        guard !isFinished, !isDestroyed, let screen else { return }
        for mode in screen.availableModes where !modes.contains(where: { $0.mode == mode }) {
            guard let object = OutputModeObject(head: self) else { continue }
            modes.append((mode, object))
            zwlr_output_head_v1_send_mode(resource, object.resource)
            zwlr_output_mode_v1_send_size(
                object.resource, Int32(clamping: mode.size.width), Int32(clamping: mode.size.height))
            zwlr_output_mode_v1_send_refresh(object.resource, Int32(clamping: mode.refreshMilliHz))
            if mode == screen.preferredMode { zwlr_output_mode_v1_send_preferred(object.resource) }
        }
        zwlr_output_head_v1_send_enabled(resource, 1)
        if let current = screen.currentMode, let object = modes.first(where: { $0.mode == current })?.resource {
            zwlr_output_head_v1_send_current_mode(resource, object.resource)
        }
        zwlr_output_head_v1_send_position(
            resource, Int32(clamping: Int(screen.origin.x)), Int32(clamping: Int(screen.origin.y)))
        zwlr_output_head_v1_send_transform(resource, screen.transform.waylandValue)
        zwlr_output_head_v1_send_scale(resource, wl_fixed_from_double(screen.scale))
    }

    /// The screen is gone (or the client stopped the manager): its modes and the head finish.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        guard !isDestroyed else { return }
        for (_, object) in modes where !object.isDestroyed { zwlr_output_mode_v1_send_finished(object.resource) }
        zwlr_output_head_v1_send_finished(resource)
    }

    /// The mode behind one of this head's mode objects.
    func mode(of object: OutputModeObject) -> ScreenMode? {
        modes.first { $0.resource === object }?.mode
    }
}

/// zwlr_output_mode_v1 (no requests before v3).
final class OutputModeObject: ResourceObject {
    private(set) weak var head: OutputHead?

    init?(head: OutputHead) {
        self.head = head
        super.init(
            client: head.client, interface: strata_zwlr_output_mode_v1_interface(), version: head.version, id: 0,
            implementation: nil)
    }
}
