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
    public private(set) var outputs: [ScreenOutput] = []
    public private(set) var screensCreated = 0
    /// The scale screens connect with (`strata --scale`); setting it also rescales the screens
    /// already connected. Normalized like `Screen.scale` (1 ... 8, steps of 1/120).
    public var defaultScreenScale: Double = 1 {
        didSet {
            defaultScreenScale = Screen.normalizedScale(defaultScreenScale) ?? oldValue
            for output in outputs { windows.setScale(defaultScreenScale, for: output.screen) }
        }
    }
    /// Colour of screen pixels no window covers.
    public var backgroundARGB: UInt32 = 0xff20_2428
    /// How strictly xdg_surface's initial configure handshake is enforced (strict: the spec).
    public var xdgHandshake: XdgHandshake = .strict
    /// What zxdg_decoration_manager_v1 tells toplevels (`--client-side-decorations`).
    public var decorationMode: DecorationMode = .serverSide
    public private(set) var seat: Seat!
    /// The cursor, drawn above every window (`--hide-cursor` sets `cursor.isHidden`).
    public private(set) var cursor: CursorLayer!
    /// Strata's window extension (strata_window_manager_v1), an observer of the model.
    public private(set) var windowExtension: StrataWindowExtension?
    /// zwlr_layer_shell_v1: its surfaces, arranged per screen.
    public private(set) var layerShell: LayerShell!
    /// zwlr_output_manager_v1 (privileged): wlr-randr's view of the screens.
    public private(set) var outputManager: OutputManager!
    /// zwlr_foreign_toplevel_manager_v1 (privileged): a taskbar's list of windows.
    public private(set) var foreignToplevels: ForeignToplevelManager!
    /// xdg_activation_v1: focus requests with tokens.
    public private(set) var activation: XdgActivation!
    /// wp_fractional_scale_manager_v1: each surface's preferred scale.
    public private(set) var fractionalScale: FractionalScaleManager!
    /// wp_security_context_manager_v1: sandboxes' listening sockets, whose clients are sandboxed.
    public private(set) var securityContexts: SecurityContextManager!
    /// The user's level rules and allow-list (`--level`, `--allow-levels`), asked at map time.
    public var levelRules = LevelRules()
    /// Who sees the privileged globals (`--allow-privileged`: everyone).
    public var clientPrivilege: ClientPrivilege = .startedByStrata
    var globals: [Global] = []
    /// Globals removed from clients' view and destroyed a while later (screens unplugged).
    private var retiringGlobals: [Global] = []
    private var observerToken: ObserverToken?
    /// libwayland's wl_shm with the per-format stride check it lacks (`strata_add_shm_stride_check`).
    private var shmStrideCheck: OpaquePointer?
    /// Every client's budget of objects and wl_shm pools (`ClientBudget`).
    private var clientBudgets: OpaquePointer?
    private var placedWindows = 0

    public init(backend: Backend, policy: KeyWindowPolicy = UIKitKeyWindowPolicy()) throws(ServerError) {
        self.display = try Display()
        self.windows = WindowManager(policy: policy)
        self.backend = backend
        guard wl_display_init_shm(display.display) == 0 else { throw .setup("wl_display_init_shm failed") }
        shmStrideCheck = strata_add_shm_stride_check(display.display)
        clientBudgets = strata_client_budgets_install(display.display, ClientBudget.limits)
        seat = Seat(compositor: self)
        cursor = CursorLayer(compositor: self)
        layerShell = LayerShell(compositor: self)
        outputManager = OutputManager(compositor: self)
        foreignToplevels = ForeignToplevelManager(compositor: self)
        activation = XdgActivation(compositor: self)
        fractionalScale = FractionalScaleManager(compositor: self)
        securityContexts = SecurityContextManager(compositor: self)
        let installed: [Global?] = [
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
            PrimarySelectionDeviceManager.install(on: self, face: .gtk),
            TextInputManager.install(on: self),
            RelativePointerManager.install(on: self),
            PointerConstraints.install(on: self),
            CursorShapeManager.install(on: self),
            layerShell.install(),
            privileged(ScreencopyManager.install(on: self)),
            privileged(outputManager.install()),
            privileged(VirtualKeyboardManager.install(on: self)),
            privileged(VirtualPointerManager.install(on: self)),
            privileged(foreignToplevels.install()),
            privileged(InputMethodManager.install(on: self)),
            activation.install(),
            fractionalScale.install(),
            securityContexts.install(),
        ]
        for global in installed {
            guard let global else { throw .setup("cannot create a global") }
            globals.append(global)
        }
        observerToken = windows.notifications.addObserver { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        // After the compositor's own observer: keyboard focus and `activated` are updated before
        // the extension tells clients about key changes.
        guard let windowExtension = StrataWindowExtension(compositor: self) else { throw .setup("cannot create a global") }
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
        for output in outputs {
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
            throw .setup("unknown global '\(name)' for --disable-global: use one of \(disableableGlobalNames.sorted().joined(separator: ", "))")
        }
        globals.remove(at: index).destroyNow()
    }

    /// Takes the Wayland socket (`wayland-N`, or `name`).
    public func addSocket(name: String? = nil) throws(ServerError) {
        try display.addSocket(name: name)
    }

    public var socketName: String? { display.socketName }

    /// One step of the event loop (see `Display.dispatch`).
    @discardableResult
    public func dispatch(timeout: Double? = 0) -> Int32 {
        display.dispatch(timeout: timeout)
    }

    /// Disconnects every client, stops the backend and destroys the display.
    public func shutdown() {
        display.assertOnLoop()
        wl_display_destroy_clients(display.display)
        for output in outputs { stopFrameClock(output) }
        seat.clipboard.stop()
        seat.primarySelection.stop()
        backend.stop()
        for output in outputs { output.global?.destroyNow() }
        for global in globals + retiringGlobals { global.destroyNow() }
        globals.removeAll()
        retiringGlobals.removeAll()
        if let observerToken { windows.notifications.removeObserver(observerToken) }
        windowExtension?.stop()
        outputManager.stop()
        foreignToplevels.stop()
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
        output.global = Global(display: display, interface: strata_wl_output_interface(), version: OutputBinding.version) { [weak output] client, version, id in
            guard let output, let binding = OutputBinding(output: output, client: client, version: version, id: id) else { return }
            output.bindings.append(binding)
            binding.sendState()
            output.compositor?.seat.outputDidBind(binding)
        }
        output.frameClock = FrameClock(display: display) { [unowned output] in
            // A tick with nothing to paint stops the clock: an idle screen has no timer.
            guard output.frameScheduled, let compositor = output.compositor else {
                output.frameClock?.stop()
                return
            }
            output.frameScheduled = false
            compositor.repaint(output, fromClock: true)
        }
        output.compositor = self
        outputs.append(output)
        // The whole screen is damaged; a headless one paints it when something needs it.
        if backend.showsFrames { scheduleFrame(output) }
        return output
    }

    /// Disconnects a screen: its windows move to the main screen (the model posts the moves),
    /// the wl_output global is removed now and destroyed later, its bindings turn inert.
    public func disconnectScreen(_ output: ScreenOutput) {
        guard let index = outputs.firstIndex(where: { $0 === output }) else { return }
        outputs.remove(at: index)
        stopFrameClock(output)
        output.failCaptures()
        if let global = output.global {
            global.remove(eventLoop: display.eventLoop)
            retiringGlobals.removeAll { $0.isRemoved && !$0.isAlive }
            retiringGlobals.append(global)
        }
        for binding in output.bindings { binding.detach() }
        output.bindings.removeAll()
        windows.disconnectScreen(output.screen)
        for other in outputs { damageAll(other) }
        releaseReplacedBuffersUnlessFrameComing()
    }

    public func output(for id: ScreenID) -> ScreenOutput? {
        outputs.first { $0.screen.id == id }
    }

    private func stopFrameClock(_ output: ScreenOutput) {
        output.frameClock = nil
        output.frameScheduled = false
    }

    // MARK: Windows

    /// Puts a newly mapped window on the main screen, cascaded, and shows it. (The window model
    /// decides key: by default the new window becomes key.)
    public func placeAndShow(_ window: Window, width: Int32, height: Int32, makeKey: Bool = true) {
        guard let screen = window.screen ?? windows.mainScreen else { return }
        let area = screen.usableArea
        let step = 32 * (placedWindows % 10)
        placedWindows += 1
        let x = area.width > Int(width) + step ? step : 0
        let y = area.height > Int(height) + step ? step : 0
        let originX = area.x - Int(screen.origin.x), originY = area.y - Int(screen.origin.y)
        setFrame(window, Rect(x: originX + x, y: originY + y, width: Int(width), height: Int(height)))
        windows.show(window, makeKey: makeKey)
    }

    /// Changes a window's frame, damaging where it was and where it goes.
    public func setFrame(_ window: Window, _ rect: Rect) {
        guard rect != window.frame else { return }
        windows.setFrame(window, rect)
        damageWindow(window)
    }

    func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidBecomeVisible(let id), .windowDidBecomeHidden(let id), .windowDidChangeLevel(let id, _, _),
             .windowDidChangeStacking(let id), .windowDidMoveToScreen(let id, _, _):
            if let window = windows.window(withID: id) { damageWindow(window) }
            seat.windowDidChange()
        case .windowDidChangeFrame:
            seat.windowDidChange()
        case .windowDidBecomeKey(let id):
            if let window = windows.window(withID: id) {
                window.wireContent?.windowDidChangeKeyState(isKey: true)
            }
            seat.keyWindowDidChange(windows.keyWindow)
        case .windowDidResignKey(let id):
            if let window = windows.window(withID: id) {
                window.wireContent?.windowDidChangeKeyState(isKey: false)
            }
            seat.keyWindowDidChange(windows.keyWindow)
        case .screenDidChangeUsableArea(let id):
            for window in windows.windows where window.screen?.id == id {
                (window.content as? XdgToplevel)?.usableAreaDidChange()
                (window.content as? WlShellSurface)?.screenDidChange()
            }
        case .screenModeDidChange(let id), .screenDidChangeTransform(let id), .screenDidChangeScale(let id):
            layerShell.arrange(screen: id)
            for window in windows.windows where window.screen?.id == id {
                (window.content as? XdgToplevel)?.screenSizeDidChange()
                (window.content as? WlShellSurface)?.screenDidChange()
            }
            if let output = output(for: id) {
                output.updateGeometry()
                for binding in output.bindings { binding.sendState() }
                damageAll(output)
            }
        case .screenDidMove(let id):
            if let output = output(for: id) {
                for binding in output.bindings { binding.sendState() }
            }
        case .screenDidChangeBrightness(let id), .screenDidChangeMirroring(let id, _):
            if let output = output(for: id) { damageAll(output) }
        case .screenDidDisconnect(let id):
            layerShell.screenDidDisconnect(id)
            // The main screen may have changed: mirrors show another source.
            for output in outputs where output.screen.isMirroring { damageAll(output) }
        case .screenDidConnect:
            for output in outputs where output.screen.isMirroring { damageAll(output) }
        default:
            break
        }
    }

    // MARK: Levels

    /// Applies the level the user configured for the window's app id, if any (when it maps, and
    /// when its app id changes before it maps).
    public func applyConfiguredLevel(to window: Window) {
        guard let level = levelRules.configuredLevel(forAppID: window.appID) else { return }
        windows.setLevel(window, level)
    }

    /// A client named its window (xdg_toplevel.set_title, wl_shell_surface.set_title).
    func setTitle(_ title: String, of window: Window) {
        window.title = title
        foreignToplevels.windowDidChange(window)
    }

    /// A client set its window's app id (xdg_toplevel.set_app_id, wl_shell_surface.set_class);
    /// before the first map the user's level rule follows it at once.
    func setAppID(_ appID: String, of window: Window, isMapped: Bool) {
        window.appID = appID
        foreignToplevels.windowDidChange(window)
        if !isMapped { applyConfiguredLevel(to: window) }
    }

    /// Decides a client's request for a level with the user's rules (`levelRules`) and sets the
    /// level when it is granted.
    @discardableResult
    public func evaluateLevelRequest(_ requested: WindowLevel, for window: Window) -> LevelRules.Decision {
        let decision = levelRules.decide(requested: requested, appID: window.appID)
        if case .granted(let level) = decision { windows.setLevel(window, level) }
        return decision
    }

    /// Called by the window's content when the window is closed for good (its role died).
    public func windowDidClose(_ window: Window) {
        damageWindow(window)
        windows.close(window)
        seat.windowDidChange()
    }

    // MARK: Damage

    public func damageAll(_ output: ScreenOutput) {
        output.damage.addRect(x: 0, y: 0, width: output.width, height: output.height)
        scheduleFrame(output)
    }

    private func damage(_ placement: SurfacePlacement, width: Int32, height: Int32) {
        guard width > 0, height > 0, let output = output(for: placement.screen) else { return }
        output.damage.addRect(x: placement.x, y: placement.y, width: width, height: height)
        output.damage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
        scheduleFrame(output)
    }

    /// A surface's committed state is current: damage the screens it is on, and make sure a
    /// frame comes for its frame callbacks.
    /// `offsetX`/`offsetY` (wl_surface.offset, or attach's dx/dy before v5) move a toplevel
    /// window by that much, as the new buffer's origin is that far from the old one's.
    func surfaceDidCommit(_ surface: Surface, offsetX: Int32, offsetY: Int32) {
        if offsetX != 0 || offsetY != 0,
           let window = windows.windows.first(where: {
               ($0.content as? XdgToplevel)?.rootSurface === surface || ($0.content as? WlShellSurface)?.rootSurface === surface
           }) {
            var frame = window.frame
            frame.x = Int(clamping: Int64(frame.x) + Int64(offsetX))
            frame.y = Int(clamping: Int64(frame.y) + Int64(offsetY))
            setFrame(window, frame)
        }
        refreshPlacement(of: surface, forceFull: false)
        surface.forEachChild { child, _ in damageTree(of: child) }
        // A new size or input region may put another surface under a still pointer.
        seat.surfaceDidCommit(surface)
        releaseReplacedBuffersUnlessFrameComing()
    }

    /// Damages where a surface tree was and is now (moves, restacks, unmaps).
    public func damageTree(of root: Surface) {
        refreshPlacement(of: root, forceFull: true)
        // Recursion as deep as the tree: at most `TreeLimits.maxSubsurfaceDepth`.
        root.forEachChild { child, _ in damageTree(of: child) }
    }

    public func damageWindow(_ window: Window) {
        window.wireContent?.forEachRootSurface { damageTree(of: $0) }
    }

    private func refreshPlacement(of surface: Surface, forceFull: Bool) {
        let now = surface.hasContent ? surface.placement : nil
        let last = surface.lastPlacement
        if forceFull || now != last || surface.width != surface.lastWidth || surface.height != surface.lastHeight {
            if let last { damage(last, width: surface.lastWidth, height: surface.lastHeight) }
            if let now { damage(now, width: surface.width, height: surface.height) }
        } else if let now, !surface.damage.isEmpty, let output = output(for: now.screen) {
            surface.damage.translate(dx: now.x, dy: now.y)
            output.damage.union(surface.damage)
            output.damage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
            scheduleFrame(output)
        }
        if now?.screen != last?.screen {
            seat.surfaceDidChangeScreen(surface, from: last.flatMap { output(for: $0.screen) }, to: now.flatMap { output(for: $0.screen) })
            surface.fractionalScaleObject?.update()
        }
        surface.damage.clear()
        surface.lastPlacement = now
        surface.lastWidth = surface.width
        surface.lastHeight = surface.height
        if let now, !surface.frameCallbacks.isEmpty || !surface.presentationFeedbacks.isEmpty,
           let output = output(for: now.screen) {
            scheduleFrame(output)
        }
    }

    func surfaceWillDestroy(_ surface: Surface) {
        if let last = surface.lastPlacement {
            damage(last, width: surface.lastWidth, height: surface.lastHeight)
        }
        surface.lastPlacement = nil
        seat.surfaceWillDestroy(surface)
    }

    // MARK: Frames

    /// Lets go of shm buffers a commit replaced after the next frame, before its frame
    /// callbacks, so the release and the callbacks reach the client in one flush (right away when
    /// no frame is coming). A buffer attached again meanwhile is held again and not released.
    func releaseAfterFrame(_ buffer: ShmBuffer) {
        buffersToRelease.append(buffer)
    }

    /// Sends the releases of replaced buffers (at a frame, or now when none is coming).
    func releaseReplacedBuffers() {
        guard !buffersToRelease.isEmpty else { return }
        for buffer in buffersToRelease { buffer.unhold() }
        buffersToRelease.removeAll(keepingCapacity: true)
    }

    private func releaseReplacedBuffersUnlessFrameComing() {
        guard !buffersToRelease.isEmpty, !outputs.contains(where: { $0.frameScheduled }) else { return }
        releaseReplacedBuffers()
    }

    /// Asks for a frame at the screen's next refresh: starts its frame clock unless it runs.
    public func scheduleFrame(_ output: ScreenOutput) {
        guard !output.frameScheduled, let clock = output.frameClock else { return }
        output.frameScheduled = true
        let period = output.refreshPeriodNanoseconds
        guard clock.periodNanoseconds != period else { return }   // ticking already
        // The first tick a period after the last frame (at once when that has passed).
        let next = output.lastFrameNanoseconds + period
        let now = Self.monotonicNanoseconds()
        clock.start(afterNanoseconds: next > now ? min(next - now, period) : 1, periodNanoseconds: period)
    }

    /// Repaints the damaged part of a screen, presents it, and completes the frame callbacks of
    /// the surfaces shown on it.
    public func repaint(_ output: ScreenOutput) {
        repaint(output, fromClock: false)
    }

    private func repaint(_ output: ScreenOutput, fromClock: Bool) {
        if !fromClock {
            // Repainted ahead of the clock (screenshots, tests): the clock stops, and the next
            // frame asked for comes a whole period after this one, as after a tick.
            output.frameScheduled = false
            output.frameClock?.stop()
        }
        var frameTime = timespec()
        clock_gettime(CLOCK_MONOTONIC, &frameTime)
        output.lastFrameNanoseconds = Self.nanoseconds(frameTime)
        let now = Self.milliseconds(frameTime)
        output.frames += 1
        releaseReplacedBuffers()
        // One walk of the stacking per frame: the draw and the frame callbacks share its list.
        drawList.removeAll(keepingCapacity: true)
        forEachVisibleSurface(on: output) { surface, x, y in drawList.append(DrawItem(surface: surface, x: x, y: y)) }
        if !output.damage.isEmpty {
            output.damage.intersect(x: 0, y: 0, width: output.width, height: output.height)
            if !output.isUnscaled { output.updateDeviceDamage() }
            let clip = output.canvasDamage
            output.lastPaintedArea = clip.area
            if let main = outputs.first, main !== output, output.screen.isMirroring {
                drawMirror(output, of: main, clip: clip)
            } else {
                draw(output, clip: clip)
            }
            output.paintedFrames += 1
            output.present()
            backend.present(output, damage: output.presentedDamage)
            output.completeCaptures()
            if output === outputs.first { damageMirrors(of: output, damage: clip) }
            output.damage.clear()
            output.deviceDamage.clear()
        }
        for item in drawList where !item.surface.frameCallbacks.isEmpty {
            let surface = item.surface
            for callback in surface.frameCallbacks { callback.done(timeMilliseconds: now) }
            surface.frameCallbacks.removeAll(keepingCapacity: true)
        }
        cursor.frameDidComplete(on: output, timeMilliseconds: now)
        presentFeedback(on: output, at: frameTime)
        // Drop the references: a surface destroyed after this frame must not live on in the list.
        drawList.removeAll(keepingCapacity: true)
    }

    /// Answers the wp_presentation feedback of every surface the frame showed (`drawList`): the
    /// frame's time (taken before drawing, on CLOCK_MONOTONIC), the screen's frame period and
    /// frame count. No flags: the headless clock is a timer, not a vertical blank, and not a
    /// hardware clock.
    private func presentFeedback(on output: ScreenOutput, at time: timespec) {
        var frame: PresentationFeedback.Frame?
        for item in drawList where !item.surface.presentationFeedbacks.isEmpty {
            let surface = item.surface
            let f = frame ?? PresentationFeedback.Frame(
                seconds: UInt64(time.tv_sec), nanoseconds: UInt32(time.tv_nsec),
                refreshNanoseconds: UInt32(clamping: output.refreshPeriodNanoseconds),
                sequence: UInt64(output.frames), flags: 0)
            frame = f
            for feedback in surface.presentationFeedbacks { feedback.presented(f, outputs: output.bindings) }
            surface.presentationFeedbacks.removeAll(keepingCapacity: true)
        }
    }

    /// Draws the screen's windows (`drawList`, back to front) inside `clip` (canvas pixels). Each
    /// surface covers the canvas pixels of its logical rectangle (`ScreenOutput.deviceRect`), and
    /// its opaque region maps through the same edges, so occlusion stays exact at any scale. A front-to-back pass
    /// keeps what of the damage no opaque surface above covers (`uncovered`) and gives each
    /// surface its part of it (`drawClip`); a surface outside it costs a bounding-box test. The
    /// background fills what stays uncovered; then the surfaces are drawn back to front, each
    /// clipped to its part. Both are `BoxList`s (disjoint boxes in storage that only grows): no
    /// pixman region operation and no allocation in steady state.
    private func draw(_ output: ScreenOutput, clip: PixmanRegion) {
        let canvas = output.canvas
        let uncovered = self.uncovered
        uncovered.set(clip)
        var index = drawList.count
        while index > 0 {
            index -= 1
            let item = drawList[index]
            let surface = item.surface, width = surface.width, height = surface.height
            let visible = surface.drawClip
            let r = output.deviceRect(x: item.x, y: item.y, width: width, height: height)
            guard r.width > 0, r.height > 0, uncovered.extentsIntersect(x: r.x, y: r.y, width: r.width, height: r.height) else {
                visible.clear()
                continue
            }
            visible.setIntersection(uncovered, x: r.x, y: r.y, width: r.width, height: r.height)
            if visible.isEmpty { continue }
            if !surface.texture.hasAlpha {
                uncovered.subtract(x: r.x, y: r.y, width: r.width, height: r.height)
            } else if !surface.opaqueRegion.isEmpty, surface.opaqueRegion.boxCount <= Self.maxOpaqueBoxes {
                // The opaque region's boxes inside the surface, placed on the canvas (through the
                // same edges as the surface on a scaled screen).
                uncovered.subtract(surface.opaqueRegion, clippedTo: 0, 0, width, height) { b in
                    output.deviceRect(x: Coordinate.sum(item.x, b.x1), y: Coordinate.sum(item.y, b.y1),
                                      width: b.x2 - b.x1, height: b.y2 - b.y1)
                }
            }
        }
        // No clip region is set on the canvas: fills and composites go box by box.
        canvas.setClip(nil)
        if !uncovered.isEmpty {
            // An external screen showing no window (with mirroring off) is black, as UIKit's are.
            let black = !output.screen.isMain && drawList.isEmpty
            canvas.fill(argb: black ? 0xff00_0000 : backgroundARGB, in: uncovered)
        }
        for item in drawList where !item.surface.drawClip.isEmpty {
            let surface = item.surface
            let r = output.deviceRect(x: item.x, y: item.y, width: surface.width, height: surface.height)
            canvas.draw(surface.texture, x: r.x, y: r.y, surfaceWidth: surface.width, surfaceHeight: surface.height,
                        transform: surface.bufferTransform, viewport: surface.viewport, width: r.width, height: r.height,
                        in: surface.drawClip)
        }
        // The cursor layer, above everything.
        cursor.draw(on: output, clip: clip)
    }

    /// Where the main screen's picture goes on a mirroring screen: scaled to fit, centred (canvas
    /// pixels of both).
    private func mirrorPlacement(of output: ScreenOutput, main: ScreenOutput) -> (scale: Double, x: Double, y: Double) {
        let to = output.canvas, from = main.canvas
        let scale = min(Double(to.width) / Double(from.width), Double(to.height) / Double(from.height))
        let x = ((Double(to.width) - Double(from.width) * scale) / 2).rounded(.down)
        let y = ((Double(to.height) - Double(from.height) * scale) / 2).rounded(.down)
        return (scale, x, y)
    }

    /// Draws the main screen's picture, scaled to fit and letterboxed in black.
    private func drawMirror(_ output: ScreenOutput, of main: ScreenOutput, clip: PixmanRegion) {
        let canvas = output.canvas
        let placement = mirrorPlacement(of: output, main: main)
        canvas.setClip(clip)
        canvas.fill(argb: 0xff00_0000)
        canvas.draw(main.canvas, transform: Canvas.scaling(placement.scale, offsetX: placement.x, offsetY: placement.y),
                    smooth: placement.scale != 1, blend: true)
        canvas.setClip(nil)
    }

    /// The main screen repainted `damage` (its canvas pixels): the same part of every mirroring
    /// screen is stale (damaged in its logical coordinates, rounded outwards).
    private func damageMirrors(of main: ScreenOutput, damage: PixmanRegion) {
        for output in outputs where output !== main && output.screen.isMirroring {
            let p = mirrorPlacement(of: output, main: main)
            let toLogical = 1 / output.scale
            damage.forEachBox { box in
                // One pixel more on each side for the bilinear filter's reach.
                let x1 = Coordinate.clamped(((Double(box.x1) * p.scale + p.x - 1) * toLogical).rounded(.down))
                let y1 = Coordinate.clamped(((Double(box.y1) * p.scale + p.y - 1) * toLogical).rounded(.down))
                let x2 = Coordinate.clamped(((Double(box.x2) * p.scale + p.x + 1) * toLogical).rounded(.up))
                let y2 = Coordinate.clamped(((Double(box.y2) * p.scale + p.y + 1) * toLogical).rounded(.up))
                output.damage.addRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
            }
            scheduleFrame(output)
        }
    }

    private struct DrawItem {
        let surface: Surface
        let x: Int32
        let y: Int32
    }
    private var drawList: [DrawItem] = []
    private var buffersToRelease: [ShmBuffer] = []
    /// What of the frame's damage no opaque surface drawn so far covers (`draw(_:clip:)`).
    private let uncovered = BoxList()
    /// Opaque regions of more boxes hide nothing: each box is one pass over `uncovered`, so a
    /// client's region of thousands of boxes would make every frame quadratic. Occlusion only
    /// saves drawing; what such a surface hides is drawn and then covered.
    static let maxOpaqueBoxes = 64

    /// Every surface with content shown on the screen, back to front, with its position.
    public func forEachVisibleSurface(on output: ScreenOutput, _ body: (Surface, Int32, Int32) -> Void) {
        for window in windows.windows where !window.isHidden && window.screen === output.screen {
            guard let content = window.wireContent else { continue }
            content.forEachRootSurface { root in
                guard let p = root.placement, p.screen == output.screen.id else { return }
                root.forEachSurface(x: p.x, y: p.y, body)
            }
        }
    }

    /// Repaints every screen with pending damage now (screenshots, tests).
    public func repaintDamagedScreens() {
        for output in outputs where !output.damage.isEmpty {
            repaint(output)
        }
    }

    /// Writes one PNG per screen into `directory` (created if missing); returns the paths.
    @discardableResult
    public func writeScreenshots(to directory: String) throws -> [String] {
        repaintDamagedScreens()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var paths: [String] = []
        for output in outputs {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + "\(output.screen.name).png"
            try PNGFile.write(path: path, canvas: output.displayCanvas)
            paths.append(path)
        }
        return paths
    }

    // MARK: Input targets

    /// The topmost surface under a point of a screen (screen coordinates), and the point in that
    /// surface's coordinates. Popups are above their window; levels and order as the model says.
    public func surface(at x: Double, _ y: Double, on output: ScreenOutput) -> (surface: Surface, window: Window, x: Double, y: Double)? {
        for window in windows.windows.reversed() where !window.isHidden && window.screen === output.screen {
            guard let content = window.wireContent else { continue }
            var hit: (Surface, Double, Double)?
            content.forEachRootSurface { root in
                guard let p = root.placement, p.screen == output.screen.id,
                      let h = root.surface(atX: x - Double(p.x), y: y - Double(p.y)) else { return }
                hit = h   // later roots are above earlier ones
            }
            if let hit { return (hit.0, window, hit.1, hit.2) }
        }
        return nil
    }

    /// The window that shows `surface`: its own, its popup's, or (for a subsurface) its root
    /// parent's. Nil for surfaces not shown as part of a window.
    public func window(showing surface: Surface) -> Window? {
        var root = surface
        var depth = 0
        while let parent = root.subsurface?.parent, depth < 1000 {
            root = parent
            depth += 1
        }
        for window in windows.windows {
            guard let content = window.wireContent else { continue }
            var found = false
            content.forEachRootSurface { if $0 === root { found = true } }
            if found { return window }
        }
        return nil
    }

    static func monotonicMilliseconds() -> UInt32 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return milliseconds(ts)
    }

    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return nanoseconds(ts)
    }

    /// A CLOCK_MONOTONIC time in the 32-bit milliseconds of input events and frame callbacks.
    static func milliseconds(_ ts: timespec) -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }

    static func nanoseconds(_ ts: timespec) -> UInt64 {
        UInt64(max(0, ts.tv_sec)) * 1_000_000_000 + UInt64(max(0, ts.tv_nsec))
    }
}
