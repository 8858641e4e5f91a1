import CStrataServerGlue
import CWaylandServer
import FoundationEssentials
import Glibc
import StrataModel
import StrataRender

/// The compositor: the display and its globals, the window model, the screens and their
/// frame clocks, and the repaint. Everything runs on the display's event loop.
public final class Compositor {
    public let display: Display
    public let windows: WindowManager
    public let backend: Backend
    /// Where every time comes from: CLOCK_MONOTONIC, or a virtual clock stepped by hand
    /// (`strata --clock manual`).
    public let clock: Clock
    /// The frame path: screens' outputs, damage, drawing, frames, hit testing.
    public let scene: Scene
    public private(set) var screensCreated = 0
    /// The scale screens connect with (`strata --scale`); setting it also rescales the screens
    /// already connected. Normalized like `Screen.scale` (1 ... 8, steps of 1/120).
    public var defaultScreenScale: Double = 1 {
        didSet {
            defaultScreenScale = Screen.normalizedScale(defaultScreenScale) ?? oldValue
            for output in scene.outputs { windows.setScale(defaultScreenScale, for: output.screen) }
        }
    }
    /// How strictly xdg_surface's initial configure handshake is enforced (strict: the spec).
    public var xdgHandshake: XdgHandshake = .strict
    /// What zxdg_decoration_manager_v1 tells toplevels (`--client-side-decorations`).
    public var decorationMode: DecorationMode = .serverSide
    public private(set) var seat: Seat!
    /// The cursor, drawn above every window (`--hide-cursor` sets `cursor.isHidden`).
    public private(set) var cursor: CursorLayer!
    /// A drag's icon, drawn above every window and below the cursor.
    private(set) var dragIcon: DragIconLayer!
    /// Strata's window extension (strata_window_manager_v1), an observer of the model.
    public private(set) var windowExtension: StrataWindowExtension?
    /// zwlr_layer_shell_v1: its surfaces, arranged per screen.
    public private(set) var layerShell: LayerShell!
    /// zwlr_output_manager_v1 (privileged): wlr-randr's view of the screens.
    public private(set) var outputManager: OutputManager!
    /// zwlr_foreign_toplevel_manager_v1 (privileged): a taskbar's list of windows.
    public private(set) var foreignToplevels: ForeignToplevelManager!
    /// ext_foreign_toplevel_list_v1 (privileged): mapped toplevels with stable identifiers.
    public private(set) var toplevelList: ForeignToplevelList!
    /// ext_image_copy_capture_manager_v1 and its sources (privileged): screens' and windows' pixels.
    public private(set) var imageCopyCapture: ImageCopyCapture!
    /// ext_session_lock_v1: who locked the session, and the lock surfaces shown while locked.
    public private(set) var lockScreen: LockScreen!
    /// xdg_activation_v1: focus requests with tokens.
    public private(set) var activation: XdgActivation!
    /// wp_fractional_scale_manager_v1: each surface's preferred scale.
    public private(set) var fractionalScale: FractionalScaleManager!
    /// wp_security_context_manager_v1: sandboxes' listening sockets, whose clients are sandboxed.
    public private(set) var securityContexts: SecurityContextManager!
    /// xdg-foreign v1 and v2: exported toplevels' handles.
    private(set) var xdgForeign: XdgForeign!
    /// The user's level rules and allow-list (`--level`, `--allow-levels`), asked at map time.
    public var levelRules = LevelRules()
    /// Rootless Xwayland and its window manager, when X clients are offered (`docs/xwayland.md`).
    public weak var xwayland: Xwayland?
    /// A surface without a role committed (before the scene hears of the commit): Xwayland's
    /// window manager finds the surfaces its X windows name (`XwaylandSurfaceAssociation`).
    let roleLessSurfaceDidCommit = Signal<Surface>()
    /// Who sees the privileged globals (`--allow-privileged`: everyone).
    public var clientPrivilege: ClientPrivilege = .startedByStrata
    /// Where the compositor's own messages go (strata: stderr), e.g. a focus request refused.
    public var log: (String) -> Void = { _ in }
    /// Focus requests (make_key, `_NET_ACTIVE_WINDOW`) honoured and refused (`FocusRequestRule`).
    public private(set) lazy var focusRequests = FocusRequests(compositor: self)
    /// The policy delegate's questions and answers (`docs/control.md`, "Policy delegate").
    public private(set) lazy var policyDelegation = PolicyDelegation(manager: windows)
    var globals: [Global] = []
    /// Globals removed from clients' view and destroyed a while later (screens unplugged).
    private var retiringGlobals: [Global] = []
    /// The wire's reactions to the model's notifications (`ObserverPhase.wire`).
    private var modelToWireRelay: ModelToWireRelay?
    /// libwayland's wl_shm with the per-format stride check it lacks (`strata_add_shm_stride_check`).
    private var shmStrideCheck: OpaquePointer?
    /// Every client's budget of objects and wl_shm pools (`ClientBudget`).
    private var clientBudgets: OpaquePointer?

    /// `keymapNames`: the seat's keymap (`us` by default); when they do not compile, the seat
    /// has no keymap (`Seat.hasKeymap`; `KeymapNames.compileProblem` says why).
    public init(
        backend: Backend, policy: KeyWindowPolicy = UIKitKeyWindowPolicy(), clock: Clock = Clock(),
        keymapNames: KeymapNames = .standard
    ) throws(ServerError) {
        self.display = try Display()
        self.clock = clock
        self.windows = WindowManager(policy: policy)
        self.backend = backend
        self.scene = Scene(display: display, windows: windows, backend: backend, clock: clock)
        guard wl_display_init_shm(display.display) == 0 else { throw .setup("wl_display_init_shm failed") }
        shmStrideCheck = strata_add_shm_stride_check(display.display)
        clientBudgets = strata_client_budgets_install(display.display, ClientBudget.limits)
        seat = Seat(compositor: self, keymapNames: keymapNames)
        cursor = CursorLayer(compositor: self)
        scene.seat = seat
        scene.cursor = cursor
        dragIcon = DragIconLayer(compositor: self)
        scene.dragIcon = dragIcon
        lockScreen = LockScreen(compositor: self)
        scene.lockScreen = lockScreen
        layerShell = LayerShell(compositor: self)
        outputManager = OutputManager(compositor: self)
        foreignToplevels = ForeignToplevelManager(compositor: self)
        toplevelList = ForeignToplevelList(compositor: self)
        imageCopyCapture = ImageCopyCapture(compositor: self)
        activation = XdgActivation(compositor: self)
        fractionalScale = FractionalScaleManager(compositor: self)
        securityContexts = SecurityContextManager(compositor: self)
        xdgForeign = XdgForeign(compositor: self)
        let installed: [Global?] =
            [
                CompositorGlobal.install(on: self),
                Subcompositor.install(on: self),
                seat.install(),
                XdgShell.install(on: self),
                XdgShellV6.install(on: self),
                WlShell.install(on: self),
                DataDeviceManager.install(on: self),
                XdgOutputManager.install(on: self),
                Viewporter.install(on: self),
                SinglePixelBufferManager.install(on: self),
                Presentation.install(on: self),
                DecorationManager.install(on: self),
                PrimarySelectionDeviceManager.install(on: self),
                PrimarySelectionDeviceManager.install(on: self, flavor: .gtk),
                TextInputManager.install(on: self),
                RelativePointerManager.install(on: self),
                PointerConstraints.install(on: self),
                CursorShapeManager.install(on: self),
                PointerGestures.install(on: self),
                TabletManager.install(on: self),
                layerShell.install(),
                privileged(ScreencopyManager.install(on: self)),
                privileged(outputManager.install()),
                privileged(VirtualKeyboardManager.install(on: self)),
                privileged(VirtualPointerManager.install(on: self)),
                privileged(foreignToplevels.install()),
                privileged(toplevelList.install()),
                privileged(imageCopyCapture.install()),
                privileged(ImageCaptureSourceManager.install(on: self, kind: .output)),
                privileged(ImageCaptureSourceManager.install(on: self, kind: .toplevel)),
                privileged(InputMethodManager.install(on: self)),
                privileged(DataControlManager.install(on: self, flavor: .wlr)),
                privileged(DataControlManager.install(on: self, flavor: .ext)),
                IdleNotifier.install(on: self),
                IdleInhibitManager.install(on: self),
                SessionLockManager.install(on: self),
                KeyboardShortcutsInhibitManager.install(on: self),
                ContentTypeManager.install(on: self),
                AlphaModifier.install(on: self),
                XwaylandShell.install(on: self),
                ServerDecorationManager.install(on: self),
                activation.install(),
                fractionalScale.install(),
                securityContexts.install(),
                XdgDialogManager.install(on: self),
            ] + xdgForeign.install(.v2) + xdgForeign.install(.v1)
        for global in installed {
            guard let global else { throw .setup("cannot create a global") }
            globals.append(global)
        }
        modelToWireRelay = ModelToWireRelay(compositor: self)
        guard let windowExtension = StrataWindowExtension(compositor: self) else {
            throw .setup("cannot create a global")
        }
        self.windowExtension = windowExtension
        if let global = windowExtension.global { globals.append(global) }
        try backend.start(self)
    }

    /// Hides `global` from clients `clientPrivilege` does not allow.
    private func privileged(_ global: Global?) -> Global? {
        global?.filter = { [unowned self] client in self.clientPrivilege.allows(self.display.origin(of: client)) }
        return global
    }

    /// The globals every client sees, as (interface name, version): the compositor's own, one
    /// wl_output per screen, and libwayland's wl_shm (v1). Filtered globals are left out.
    public var advertisedGlobals: [(name: String, version: UInt32)] {
        var list: [(name: String, version: UInt32)] = [("wl_shm", 1)]
        for global in globals where global.filter == nil && !global.isRemoved {
            list.append((global.interfaceName, global.version))
        }
        for output in scene.outputs {
            if let global = output.global, !global.isRemoved { list.append((global.interfaceName, global.version)) }
        }
        return list
    }

    /// The interface names of the globals `disableGlobal(named:)` can take away (every global the
    /// compositor installs itself; not wl_output, which follows the screens, nor libwayland's wl_shm).
    public var disableableGlobalNames: [String] {
        globals.filter { !$0.isRemoved }.map(\.interfaceName)
    }

    /// Takes a global away before clients connect (`strata --disable-global`), so a client
    /// falls back to an older protocol (no xdg_wm_base: GTK 3 uses zxdg_shell_v6). The objects
    /// behind it stay; no client can bind it. Throws for a name that is not one of
    /// `disableableGlobalNames`.
    public func disableGlobal(named name: String) throws(ServerError) {
        guard let index = globals.firstIndex(where: { $0.interfaceName == name && !$0.isRemoved }) else {
            throw .setup(
                "unknown global '\(name)' for --disable-global: use one of \(disableableGlobalNames.sorted().joined(separator: ", "))"
            )
        }
        globals.remove(at: index).destroyNow()
    }

    /// The socket of the processes Strata starts (`addPrivilegedSocket`), nil until then.
    public private(set) var privilegedSocket: PrivilegedSocket?

    /// Opens the privileged socket beside the public one (`display.addSocket` first): the name Strata
    /// gives the processes it starts as `WAYLAND_DISPLAY` (`PrivilegedSocket`).
    @discardableResult
    public func addPrivilegedSocket() throws(ServerError) -> PrivilegedSocket {
        if let privilegedSocket { return privilegedSocket }
        guard let publicName = display.socketName,
            let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty
        else {
            throw .setup("the privileged socket needs the public socket and XDG_RUNTIME_DIR first")
        }
        let socket = try PrivilegedSocket(display: display, runtimeDirectory: runtime, publicName: publicName)
        privilegedSocket = socket
        return socket
    }

    /// Disconnects every client, stops the backend and destroys the display.
    public func shutdown() {
        display.assertOnLoop()
        privilegedSocket?.close()
        wl_display_destroy_clients(display.display)
        scene.stop()
        seat.clipboard.stop()
        seat.primarySelection.stop()
        seat.idle.stop()
        seat.stop()
        backend.stop()
        for output in scene.outputs { output.global?.destroyNow() }
        for global in globals + retiringGlobals { global.destroyNow() }
        globals.removeAll()
        retiringGlobals.removeAll()
        modelToWireRelay?.stop()
        windowExtension?.stop()
        outputManager.stop()
        foreignToplevels.stop()
        toplevelList.stop()
        imageCopyCapture.stop()
        fractionalScale.stop()
        securityContexts.stop()
        if let shmStrideCheck { wl_protocol_logger_destroy(shmStrideCheck) }
        shmStrideCheck = nil
        strata_client_budgets_uninstall(clientBudgets)
        clientBudgets = nil
        wl_display_destroy(display.display)
    }

    // MARK: Screens

    /// Connects a screen with these modes: a model screen, a canvas, a frame clock, a wl_output.
    @discardableResult
    public func connectScreen(name: String, modes: [ScreenMode], backendName: String) -> ScreenOutput? {
        let screen = windows.connectScreen(name: name, modes: modes, scale: defaultScreenScale)
        guard let output = ScreenOutput(screen: screen, backendName: backendName) else {
            windows.disconnectScreen(screen)
            return nil
        }
        screensCreated += 1
        output.global = Global(
            display: display, interface: strata_wl_output_interface(), version: OutputBinding.version
        ) { [weak output] client, version, id in
            guard let output, let binding = OutputBinding(output: output, client: client, version: version, id: id)
            else { return }
            output.bindings.append(binding)
            binding.sendState()
            output.compositor?.seat.outputDidBind(binding)
        }
        output.compositor = self
        scene.add(output)
        return output
    }

    /// Disconnects a screen: its windows move to the main screen (the model posts the moves),
    /// the wl_output global is removed now and destroyed later, its bindings turn inert.
    public func disconnectScreen(_ output: ScreenOutput) {
        guard scene.outputs.contains(where: { $0 === output }) else { return }
        scene.remove(output)
        if let global = output.global {
            global.remove(eventLoop: display.eventLoop)
            retiringGlobals.removeAll { $0.isRemoved && !$0.isAlive }
            retiringGlobals.append(global)
        }
        for binding in output.bindings { binding.detach() }
        output.bindings.removeAll()
        windows.disconnectScreen(output.screen)
        scene.screenDidGo()
    }

    // MARK: Windows

    /// Puts a newly mapped window on its screen (the main screen when it has none) where the
    /// placement policy (`windows.placement`) says, and shows it. (The window model decides key:
    /// by default the new window becomes key.) A window larger than the work area is placed as
    /// if it had the policy's `constrainedSize`, at its own size (its top-left corner inside
    /// the work area); that size is returned, for the shell to ask the client for (nil: the
    /// window fits).
    @discardableResult
    public func placeAndShow(_ window: Window, width: Int32, height: Int32, makeKey: Bool = true) -> Size? {
        guard let screen = window.screen ?? windows.mainScreen else { return nil }
        let size = Size(width: Int(width), height: Int(height))
        let bounded = windows.placement.constrainedSize(size, on: screen)
        var frame = windows.placement.initialFrame(for: window, size: bounded, requestedOrigin: nil, on: screen)
        frame.size = WindowPlacementPolicies.clampedSize(size)
        windows.setFrame(window, frame)
        windows.show(window, makeKey: makeKey)
        return bounded == frame.size ? nil : bounded
    }

    // MARK: Levels

    /// Applies the level the user configured for the window's app id, if any (when it maps, and
    /// when its app id changes before it maps).
    public func applyConfiguredLevel(to window: Window) {
        guard let level = levelRules.configuredLevel(forAppID: window.appID) else { return }
        windows.setLevel(window, level)
    }

    /// A client set its window's app id (xdg_toplevel.set_app_id, wl_shell_surface.set_class);
    /// before the first map the user's level rule follows it at once.
    func setAppID(_ appID: String, of window: Window, isMapped: Bool) {
        windows.setAppID(window, appID)
        if !isMapped { applyConfiguredLevel(to: window) }
    }

    /// Decides a client's request for a level with the user's rules (`levelRules`) and sets the
    /// level when it is granted (cause: a focus request of the window's client).
    @discardableResult
    public func evaluateLevelRequest(_ requested: WindowLevel, for window: Window) -> LevelRules.Decision {
        let decision = levelRules.decide(requested: requested, appID: window.appID)
        if case .granted(let level) = decision {
            withCause(
                .focusRequest, request: "strata_window_v1.set_level \(requested.name)",
                requester: Self.requester(of: window)
            ) { windows.setLevel(window, level) }
        }
        return decision
    }

    /// Called by the window's content when the window is closed for good (its role died).
    public func windowDidClose(_ window: Window) {
        withClientCause(window, request: "close") { windows.close(window) }
        seat.windowDidChange()
    }

    // MARK: The frame path (the scene's)

    /// A surface's committed state is current: the wire tells the scene (once), and the seat.
    /// `offsetX`/`offsetY` (wl_surface.offset, or attach's dx/dy before v5) move a toplevel
    /// window by that much, as the new buffer's origin is that far from the old one's.
    func surfaceDidCommit(_ surface: Surface, offsetX: Int32, offsetY: Int32) {
        // A surface that has no role yet may be one a role is waiting for (Xwayland's).
        if surface.role == nil { roleLessSurfaceDidCommit.emit(surface) }
        if offsetX != 0 || offsetY != 0,
            let content = windows.windows.first(where: { $0.content?.rootSurface === surface })?.content
        {
            content.rootSurfaceDidCommitOffset(dx: offsetX, dy: offsetY)
        }
        scene.surfaceDidCommit(surface)
        // A new size or input region may put another surface under a still pointer.
        seat.surfaceDidCommit(surface)
    }

    func surfaceWillDestroy(_ surface: Surface) {
        scene.surfaceWillDestroy(surface)
        seat.surfaceWillDestroy(surface)
    }

    /// The live surface `id` of `client` (a server-side wl_client), for tests and the control
    /// socket.
    public func surface(of client: OpaquePointer, id: UInt32) -> Surface? {
        // Only a wl_surface resource holds a Surface (shm pools and buffers hold C data).
        guard let resource = wl_client_get_object(client, id),
            wl_resource_instance_of(resource, strata_wl_surface_interface(), Surface.implementation) != 0
        else { return nil }
        return ResourceObject.from(resource, as: Surface.self)
    }
}
