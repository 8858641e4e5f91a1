import CPixman
import CStrataServerGlue
import CWaylandServer
import FoundationEssentials
import Glibc
import StrataModel
import StrataRender

/// The frame path: what is drawn where, and when. The scene owns the screens' outputs and their
/// frame clocks, damage, where each surface is on screen (`SurfaceRenderState`), the occlusion
/// pass and the drawing, mirroring, the release of replaced buffers, frame callbacks and
/// presentation feedback, screenshots and hit testing (`docs/scene.md`).
///
/// The wire tells it once per commit (`surfaceDidCommit`); the model's notifications tell it what
/// changed about windows and screens, and it damages what they covered and cover now. Nobody
/// else damages.
public final class Scene {
    let display: Display
    let windows: WindowManager
    let backend: Backend
    /// Where frame times come from (realtime, or the manual virtual clock).
    let clock: Clock
    /// A screen presented a painted frame: `output.displayCanvas` holds it and
    /// `output.presentedDamage` is what changed (emitted from the repaint, after the backend;
    /// frames with no damage are not presented). Heard by a trace, a video recording and the
    /// captures waiting for a frame; listeners must not block the loop.
    public let framePresented = Signal<ScreenOutput>()
    /// A window's own pixels may have changed: a commit anywhere in its surface trees (its popups
    /// included), or a model change that damaged it (frame, visibility, screen). Heard by toplevel
    /// captures; with nobody listening the scene does not look for the window.
    public let windowImageChanged = Signal<Window>()
    /// A screen is going (`remove`): captures waiting for its frames cannot happen.
    public let outputWillGo = Signal<ScreenOutput>()
    /// The screens' outputs, the main screen's first.
    public internal(set) var outputs: [ScreenOutput] = []
    /// Colour of screen pixels no window covers.
    public var backgroundARGB: UInt32 = 0xff20_2428
    /// Told when a surface changes screen and when something under the pointer may have moved.
    /// (The compositor owns both and outlives its scene.)
    unowned(unsafe) var seat: Seat!
    /// The cursor, drawn above every window.
    unowned(unsafe) var cursor: CursorLayer!
    /// A drag's icon, drawn above every window and below the cursor.
    unowned(unsafe) var dragIcon: DragIconLayer!
    /// The session lock: while the model is locked, only its lock surfaces are drawn and hit.
    unowned(unsafe) var lockScreen: LockScreen!
    private var observerToken: ObserverToken?
    /// Windows the model opened and has not closed, by id (one hash lookup a notification): a
    /// closed window is gone from the model when its notifications arrive, and the scene still
    /// damages where it was.
    private var openWindows: [WindowID: Window] = [:]
    /// Counts applied commits (`surfaceDidCommit`); each surface's render state keeps the count
    /// of its last one, so `settle` can tell which windows committed since it last looked.
    public private(set) var commitSerial: UInt64 = 0

    init(display: Display, windows: WindowManager, backend: Backend, clock: Clock) {
        self.display = display
        self.clock = clock
        self.windows = windows
        self.backend = backend
        observerToken = windows.notifications.addObserver(phase: .scene) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
    }

    deinit {
        // The clocks' closures hold the scene unowned: none may tick after it.
        for output in outputs { stopFrameClock(output) }
    }

    func stop() {
        for output in outputs { stopFrameClock(output) }
        if let observerToken { windows.notifications.removeObserver(observerToken) }
        observerToken = nil
        openWindows.removeAll()
    }

    // MARK: Screens

    /// Starts showing `output`: its frame clock, and a first frame.
    func add(_ output: ScreenOutput) {
        // Unowned: a clock lives only while its output is the scene's (`remove`, `stop` and the
        // scene's deinit drop it), and a weak reference would put every retain of the scene on
        // the runtime's slow path (a side table).
        output.frameClock = FrameClock(display: display, clock: clock) { [unowned(unsafe) self, unowned output] in
            // A tick with nothing to paint stops the clock: an idle screen has no timer.
            guard output.frameScheduled else {
                output.frameClock?.stop()
                return
            }
            output.frameScheduled = false
            self.repaint(output, fromClock: true)
        }
        outputs.append(output)
        // The whole screen is damaged; a headless one paints it when something needs it.
        if backend.showsFrames { scheduleFrame(output) }
    }

    /// Stops showing `output` (the screen is going): no clock, and its waiting captures fail.
    func remove(_ output: ScreenOutput) {
        guard let index = outputs.firstIndex(where: { $0 === output }) else { return }
        outputs.remove(at: index)
        stopFrameClock(output)
        outputWillGo.emit(output)
    }

    /// After a screen went: the others are drawn again (windows moved to them, mirrors changed).
    func screenDidGo() {
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

    // MARK: The model

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidOpen(let id):
            if let window = windows.window(withID: id) { openWindows[id] = window }
        case .windowDidClose(let id):
            if let window = openWindows.removeValue(forKey: id) { damageWindow(window) }
        case .windowDidBecomeVisible(let id), .windowDidBecomeHidden(let id), .windowDidChangeLevel(let id, _, _),
            .windowDidChangeStacking(let id), .windowDidMoveToScreen(let id, _, _), .windowDidChangeFrame(let id, _, _):
            if let window = openWindows[id] { damageWindow(window) }
        case .screenModeDidChange(let id), .screenDidChangeTransform(let id), .screenDidChangeScale(let id),
            .screenDidChangeOverscan(let id):
            if let output = output(for: id) {
                output.updateGeometry()
                damageAll(output)
                // The cursor is placed in canvas pixels: a new scale moves it.
                cursor.update()
            }
        case .screenDidChangeBrightness(let id), .screenDidChangeMirroring(let id, _):
            if let output = output(for: id) { damageAll(output) }
        case .sessionDidLock, .sessionDidUnlock:
            // Everything drawn goes, or comes back.
            for output in outputs { damageAll(output) }
        case .screenDidDisconnect, .screenDidConnect:
            // The main screen may have changed: mirrors show another source.
            for output in outputs where output.screen.isMirroring { damageAll(output) }
        default:
            break
        }
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

    /// A surface's committed state is current (the wire tells this once per applied commit):
    /// damage the screens it is on, and make sure a frame comes for its frame callbacks.
    func surfaceDidCommit(_ surface: Surface) {
        commitSerial &+= 1
        surface.render.lastCommitSerial = commitSerial
        refreshPlacement(of: surface, forceFull: false)
        surface.forEachChild { child, _ in damageTree(of: child) }
        releaseReplacedBuffersUnlessFrameComing()
        if !windowImageChanged.isEmpty, let window = anchoredWindow(of: surface) { windowImageChanged.emit(window) }
    }

    /// A surface tree's place or order changed outside its commit and the model (a popup
    /// dismissed, a subsurface gone or restacked, the pixels gone, a new anchor): the scene
    /// damages where it was and is now.
    func surfaceTreeDidChange(_ root: Surface) {
        damageTree(of: root)
        if !windowImageChanged.isEmpty, let window = anchoredWindow(of: root) { windowImageChanged.emit(window) }
    }

    /// Damages where a surface tree was and is now (moves, restacks, unmaps).
    private func damageTree(of root: Surface) {
        refreshPlacement(of: root, forceFull: true)
        // Recursion as deep as the tree: at most `TreeLimits.maxSubsurfaceDepth`.
        root.forEachChild { child, _ in damageTree(of: child) }
    }

    private func damageWindow(_ window: Window) {
        window.forEachRootSurface { damageTree(of: $0) }
        windowImageChanged.emit(window)
    }

    // MARK: Placement

    /// Where `surface` hangs from now on (nil: not shown). The wire tells this whenever what the
    /// anchor is made of changes (a map, a new window geometry, a popup's new rectangle, a
    /// subsurface's position); the scene only stores it. What moved is damaged where the wire
    /// tells the scene next: the surface's commit (`surfaceDidCommit`), a model notification,
    /// or `surfaceTreeDidChange` for a change outside a commit.
    public func setAnchor(_ anchor: SurfaceAnchor?, of surface: Surface) {
        let render = surface.render
        switch anchor {
        case nil:
            render.anchorKind = .none
            render.anchorWindow = nil
            render.anchorSurface = nil
            render.anchorScreen = nil
            render.anchorX = 0
            render.anchorY = 0
        case .window(let window, let x, let y)?:
            render.anchorKind = .window
            render.anchorWindow = window
            render.anchorSurface = nil
            render.anchorScreen = nil
            render.anchorX = Self.boundedOffset(x)
            render.anchorY = Self.boundedOffset(y)
        case .surface(let parent, let x, let y)?:
            render.anchorKind = .surface
            render.anchorWindow = nil
            render.anchorSurface = parent
            render.anchorScreen = nil
            render.anchorX = Self.boundedOffset(x)
            render.anchorY = Self.boundedOffset(y)
        case .screen(let id)?:
            render.anchorKind = .screen
            render.anchorWindow = nil
            render.anchorSurface = nil
            render.anchorScreen = id
            render.anchorX = 0
            render.anchorY = 0
        }
    }

    /// Offsets are sums of a few client numbers (far inside ±2^40); bounded there, the wide sums
    /// in `placement(of:)` cannot overflow whatever a caller passes.
    private static func boundedOffset(_ v: Int) -> Int {
        min(1 << 40, max(-(1 << 40), v))
    }

    /// Where `surface`'s origin is shown now (nil: not shown), from its anchor and the model:
    /// a window anchor needs the window visible on a screen, a surface anchor the parent shown
    /// with content. No protocol object is asked.
    public func placement(of surface: Surface) -> SurfacePlacement? {
        placement(of: surface, depth: 0)
    }

    /// Anchor chains are short (subsurfaces at most `TreeLimits.maxSubsurfaceDepth` deep, popups
    /// `TreeLimits.maxPopupDepth`); a longer one is not shown.
    private static let maxAnchorDepth = 4 * (TreeLimits.maxSubsurfaceDepth + TreeLimits.maxPopupDepth)

    private func placement(of surface: Surface, depth: Int) -> SurfacePlacement? {
        let render = surface.render
        switch render.anchorKind {
        case .none:
            return nil
        case .window:
            guard let window = render.anchorWindow, !window.isHidden, !window.isClosed, let screen = window.screen
            else { return nil }
            return SurfacePlacement(
                screen: screen.id, x: Coordinate.clamped(window.frame.x + render.anchorX),
                y: Coordinate.clamped(window.frame.y + render.anchorY))
        case .surface:
            // Recursion as deep as the chain: at most `maxAnchorDepth`.
            guard depth < Self.maxAnchorDepth, let parent = render.anchorSurface, parent.hasContent,
                var p = placement(of: parent, depth: depth + 1)
            else { return nil }
            p.x = Coordinate.clamped(Int(p.x) + render.anchorX)
            p.y = Coordinate.clamped(Int(p.y) + render.anchorY)
            return p
        case .screen:
            guard let id = render.anchorScreen, output(for: id) != nil else { return nil }
            return SurfacePlacement(screen: id, x: 0, y: 0)
        }
    }

    private func refreshPlacement(of surface: Surface, forceFull: Bool) {
        let render = surface.render
        let now = surface.hasContent ? placement(of: surface) : nil
        let last = render.lastPlacement
        if forceFull || now != last || surface.width != render.lastWidth || surface.height != render.lastHeight {
            if let last { damage(last, width: render.lastWidth, height: render.lastHeight) }
            if let now { damage(now, width: surface.width, height: surface.height) }
        } else if let now, !surface.damage.isEmpty, let output = output(for: now.screen) {
            surface.damage.translate(dx: now.x, dy: now.y)
            output.damage.union(surface.damage)
            output.damage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
            scheduleFrame(output)
        }
        if now?.screen != last?.screen {
            seat.surfaceDidChangeScreen(
                surface, from: last.flatMap { output(for: $0.screen) }, to: now.flatMap { output(for: $0.screen) })
            surface.fractionalScaleObject?.update()
        }
        surface.damage.clear()
        render.lastPlacement = now
        render.lastWidth = surface.width
        render.lastHeight = surface.height
        if let now, !surface.frameCallbacks.isEmpty || !surface.presentationFeedbacks.isEmpty,
            let output = output(for: now.screen)
        {
            scheduleFrame(output)
        }
    }

    /// A surface dies: where it was shown is drawn again.
    func surfaceWillDestroy(_ surface: Surface) {
        let render = surface.render
        if let last = render.lastPlacement {
            damage(last, width: render.lastWidth, height: render.lastHeight)
        }
        render.lastPlacement = nil
    }

    /// Where `surface` was shown at the last commit or model change the scene saw (nil: not
    /// shown).
    func lastPlacement(of surface: Surface) -> SurfacePlacement? {
        surface.render.lastPlacement
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
        guard !output.frameScheduled, let frameClock = output.frameClock else { return }
        output.frameScheduled = true
        let period = output.refreshPeriodNanoseconds
        guard frameClock.periodNanoseconds != period else { return }  // ticking already
        // The first tick a period after the last frame (at once when that has passed).
        let next = output.lastFrameNanoseconds + period
        let now = clock.nanoseconds
        frameClock.start(
            afterNanoseconds: next > now ? min(next - now, period) : 1, periodNanoseconds: period, now: now)
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
        let frameTime = clock.nanoseconds
        output.lastFrameNanoseconds = frameTime
        let now = UInt32(truncatingIfNeeded: frameTime / 1_000_000)
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
            if !windows.isLocked, let main = outputs.first, main !== output, output.screen.isMirroring {
                drawMirror(output, of: main, clip: clip)
            } else {
                draw(output, list: drawList, clip: clip, withCursor: true)
            }
            output.paintedFrames += 1
            output.present()
            backend.present(output, damage: output.presentedDamage)
            framePresented.emit(output)
            if output === outputs.first { damageMirrors(of: output, damage: clip) }
            output.damage.clear()
            output.deviceDamage.clear()
        }
        // The frame is presented (drawn or not): what it showed hears so, with its time.
        for item in drawList where !item.surface.frameCallbacks.isEmpty {
            let surface = item.surface
            for callback in surface.frameCallbacks { callback.done(timeMilliseconds: now) }
            surface.frameCallbacks.removeAll(keepingCapacity: true)
        }
        dragIcon.frameDidComplete(on: output, timeMilliseconds: now)
        cursor.frameDidComplete(on: output, timeMilliseconds: now)
        presentFeedback(on: output, at: frameTime)
        // Drop the references: a surface destroyed after this frame must not live on in the list.
        drawList.removeAll(keepingCapacity: true)
    }

    /// Answers the wp_presentation feedback of every surface the frame showed (`drawList`): the
    /// frame's time (taken before drawing, from `clock`), the screen's frame period and
    /// frame count. No flags: the headless clock is a timer, not a vertical blank, and not a
    /// hardware clock.
    private func presentFeedback(on output: ScreenOutput, at time: UInt64) {
        var frame: PresentationFeedback.Frame?
        for item in drawList where !item.surface.presentationFeedbacks.isEmpty {
            let surface = item.surface
            let f =
                frame
                ?? PresentationFeedback.Frame(
                    seconds: time / 1_000_000_000, nanoseconds: UInt32(time % 1_000_000_000),
                    refreshNanoseconds: UInt32(clamping: output.refreshPeriodNanoseconds),
                    sequence: UInt64(output.frames), flags: 0)
            frame = f
            for feedback in surface.presentationFeedbacks { feedback.presented(f, outputs: output.bindings) }
            surface.presentationFeedbacks.removeAll(keepingCapacity: true)
        }
    }

    /// Draws the screen's windows (`list`, back to front) inside `clip` (canvas pixels), then the
    /// drag icon and (`withCursor`) the cursor. Each
    /// surface covers the canvas pixels of its logical rectangle (`ScreenOutput.deviceRect`), and
    /// its opaque region maps through the same edges, so occlusion stays exact at any scale. A front-to-back pass
    /// keeps what of the damage no opaque surface above covers (`uncovered`) and gives each
    /// surface its part of it (`drawClip`); a surface outside it costs a bounding-box test. The
    /// background fills what stays uncovered; then the surfaces are drawn back to front, each
    /// clipped to its part. Both are `BoxList`s (disjoint boxes in storage that only grows): no
    /// pixman region operation and no allocation in steady state.
    private func draw(_ output: ScreenOutput, list: [DrawItem], clip: PixmanRegion, withCursor: Bool) {
        let canvas = output.canvas
        let uncovered = self.uncovered
        uncovered.set(clip)
        var index = list.count
        while index > 0 {
            index -= 1
            let item = list[index]
            let surface = item.surface, width = surface.width, height = surface.height
            let visible = surface.render.drawClip
            let r = output.deviceRect(x: item.x, y: item.y, width: width, height: height)
            guard r.width > 0, r.height > 0,
                uncovered.extentsIntersect(x: r.x, y: r.y, width: r.width, height: r.height)
            else {
                visible.clear()
                continue
            }
            visible.setIntersection(uncovered, x: r.x, y: r.y, width: r.width, height: r.height)
            if visible.isEmpty { continue }
            if surface.render.alphaMask != nil {
                // Faded (wp_alpha_modifier_v1): hides nothing below.
            } else if !surface.texture.hasAlpha {
                uncovered.subtract(x: r.x, y: r.y, width: r.width, height: r.height)
            } else if !surface.opaqueRegion.isEmpty, surface.opaqueRegion.boxCount <= Self.maxOpaqueBoxes {
                // The opaque region's boxes inside the surface, placed on the canvas (through the
                // same edges as the surface on a scaled screen).
                uncovered.subtract(surface.opaqueRegion, clippedTo: 0, 0, width, height) { b in
                    output.deviceRect(
                        x: Coordinate.sum(item.x, b.x1), y: Coordinate.sum(item.y, b.y1),
                        width: b.x2 - b.x1, height: b.y2 - b.y1)
                }
            }
        }
        // No clip region is set on the canvas: fills and composites go box by box.
        canvas.setClip(nil)
        if !uncovered.isEmpty {
            // An external screen showing no window (with mirroring off) is black, as UIKit's are.
            // So is every screen while the session is locked (behind its lock surface, if any).
            let black = windows.isLocked || (!output.screen.isMain && list.isEmpty)
            canvas.fill(argb: black ? 0xff00_0000 : backgroundARGB, in: uncovered)
        }
        for item in list where !item.surface.render.drawClip.isEmpty {
            let surface = item.surface
            let r = output.deviceRect(x: item.x, y: item.y, width: surface.width, height: surface.height)
            canvas.draw(
                surface.texture, x: r.x, y: r.y, surfaceWidth: surface.width, surfaceHeight: surface.height,
                transform: surface.bufferTransform, viewport: surface.viewport, width: r.width, height: r.height,
                in: surface.render.drawClip, mask: surface.render.alphaMask)
        }
        // A drag's icon, then the cursor layer, above everything.
        dragIcon.draw(on: output, clip: clip)
        if withCursor { cursor.draw(on: output, clip: clip) }
    }

    // MARK: Images without the cursor

    /// Runs `body` while what `output` shows (`displayCanvas`) has no cursor: what a capture
    /// without `paint_cursors` (ext_image_copy_capture) or `overlay_cursor` (screencopy) copies.
    /// The cursor's canvas pixels are drawn again without it and presented (turned, dimmed,
    /// placed in the overscan safe area as the frame's), `body` copies, then they are drawn and
    /// presented again with it, so the shown image is as before, pixel for pixel. Nothing reaches
    /// the backend, and the frame's own state (its damage, draw list and presented damage) is
    /// untouched: this may run inside a repaint (a capture hearing `framePresented`). A mirroring
    /// screen shows the main screen's picture: the main screen's cursor pixels are redrawn, and
    /// the mirror whole. The cost is the capture's, never a frame's: nothing is redrawn when the
    /// cursor is not in the image (hidden, on another screen, shown by the backend).
    func withoutCursor<Result>(on output: ScreenOutput, _ body: () -> Result) -> Result {
        let main = outputs.first
        let mirror = !windows.isLocked && main !== output && output.screen.isMirroring
        guard let shown = mirror ? main : output, let (screen, rect) = cursor.rect, screen == shown.screen.id else {
            return body()
        }
        let canvas = shown.canvas
        let x1 = max(0, Coordinate.clamped(rect.x)), y1 = max(0, Coordinate.clamped(rect.y))
        let x2 = min(canvas.width, Coordinate.clamped(rect.maxX)),
            y2 = min(canvas.height, Coordinate.clamped(rect.maxY))
        guard x1 < x2, y1 < y2 else { return body() }
        cursorArea.clear()
        cursorArea.addRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
        redraw(shown, clip: cursorArea, withCursor: false)
        if mirror { redrawMirror(output, of: shown) }
        let result = body()
        redraw(shown, clip: cursorArea, withCursor: true)
        if mirror { redrawMirror(output, of: shown) }
        return result
    }

    /// Draws `clip` (canvas pixels) of a screen showing its own windows again and presents it,
    /// outside the frame's bookkeeping (`withoutCursor`).
    private func redraw(_ output: ScreenOutput, clip: PixmanRegion, withCursor: Bool) {
        redrawList.removeAll(keepingCapacity: true)
        forEachVisibleSurface(on: output) { surface, x, y in redrawList.append(DrawItem(surface: surface, x: x, y: y)) }
        draw(output, list: redrawList, clip: clip, withCursor: withCursor)
        // Drop the references: a surface destroyed later must not live on in the list.
        redrawList.removeAll(keepingCapacity: true)
        output.present(clip, into: redrawnDamage)
    }

    /// Draws a mirroring screen again whole from the main screen's picture and presents it.
    private func redrawMirror(_ output: ScreenOutput, of main: ScreenOutput) {
        mirrorArea.clear()
        mirrorArea.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
        drawMirror(output, of: main, clip: mirrorArea)
        output.present(mirrorArea, into: redrawnDamage)
    }

    /// Where the main screen's picture goes on a mirroring screen: scaled to fit, centred (the
    /// mirror's canvas pixels, the main screen's upright picture: a mirror shows what the main
    /// screen shows, after brightness and overscan, upright, as every capture path does).
    private func mirrorPlacement(of output: ScreenOutput, main: ScreenOutput) -> (scale: Double, x: Double, y: Double) {
        let to = output.canvas
        let from =
            main.displayCanvas === main.canvas
            ? Size(width: Int(main.canvas.width), height: Int(main.canvas.height))
            : main.screen.fullPixelSize
        let fw = Double(max(1, from.width)), fh = Double(max(1, from.height))
        let scale = min(Double(to.width) / fw, Double(to.height) / fh)
        let x = ((Double(to.width) - fw * scale) / 2).rounded(.down)
        let y = ((Double(to.height) - fh * scale) / 2).rounded(.down)
        return (scale, x, y)
    }

    /// Draws the main screen's picture, scaled to fit and letterboxed in black.
    private func drawMirror(_ output: ScreenOutput, of main: ScreenOutput, clip: PixmanRegion) {
        let canvas = output.canvas
        let placement = mirrorPlacement(of: output, main: main)
        canvas.setClip(clip)
        canvas.fill(argb: 0xff00_0000)
        // Mirror pixel → the main screen's upright picture → its display pixel.
        var toUpright = Canvas.scaling(placement.scale, offsetX: placement.x, offsetY: placement.y)
        var toDisplay = main.uprightToDisplay
        var transform = pixman_transform_t()
        _ = pixman_transform_multiply(&transform, &toDisplay, &toUpright)
        canvas.draw(main.displayCanvas, transform: transform, smooth: placement.scale != 1, blend: true)
        canvas.setClip(nil)
    }

    /// The main screen repainted `damage` (its canvas pixels): the same part of every mirroring
    /// screen is stale (damaged in its logical coordinates, rounded outwards).
    private func damageMirrors(of main: ScreenOutput, damage: PixmanRegion) {
        for output in outputs where output !== main && output.screen.isMirroring {
            guard main.displayCanvas === main.canvas else {
                // A turned, dimmed or overscanned main screen: its canvas damage is not where
                // the mirror shows it; the mirror is drawn again whole.
                damageAll(output)
                continue
            }
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
    /// `withoutCursor`'s own list, clips and presented damage (the frame's may be in use).
    private var redrawList: [DrawItem] = []
    private let cursorArea = PixmanRegion()
    private let mirrorArea = PixmanRegion()
    private let redrawnDamage = PixmanRegion()
    private var buffersToRelease: [ShmBuffer] = []
    /// What of the frame's damage no opaque surface drawn so far covers (`draw(_:clip:)`).
    private let uncovered = BoxList()
    /// Opaque regions of more boxes hide nothing: each box is one pass over `uncovered`, so a
    /// client's region of thousands of boxes would make every frame quadratic. Occlusion only
    /// saves drawing; what such a surface hides is drawn and then covered.
    static let maxOpaqueBoxes = 64

    /// Every surface with content shown on the screen, back to front, with its position.
    /// While the session is locked: only the screen's lock surface (with its subsurfaces).
    public func forEachVisibleSurface(on output: ScreenOutput, _ body: (Surface, Int32, Int32) -> Void) {
        if windows.isLocked {
            if let root = lockScreen.shownSurface(on: output.screen.id), let p = placement(of: root),
                p.screen == output.screen.id
            {
                root.forEachSurface(x: p.x, y: p.y, body)
            }
            return
        }
        for window in windows.windows where !window.isHidden && window.screen === output.screen {
            window.forEachRootSurface { root in
                guard let p = placement(of: root), p.screen == output.screen.id else { return }
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
            guard let image = output.shownImage() else { throw PNGFile.Failure.write(path, "cannot make the image") }
            try PNGFile.write(path: path, canvas: image)
            paths.append(path)
        }
        return paths
    }

    // MARK: Input targets

    /// The topmost surface under a point of a screen (screen coordinates), and the point in that
    /// surface's coordinates. Popups are above their window; levels and order as the model says.
    /// Nil while the session is locked (`lockSurface(at:_:on:)` answers then).
    public func surface(at x: Double, _ y: Double, on output: ScreenOutput) -> (
        surface: Surface, window: Window, x: Double, y: Double
    )? {
        guard !windows.isLocked else { return nil }
        for window in windows.windows.reversed() where !window.isHidden && window.screen === output.screen {
            var hit: (Surface, Double, Double)?
            window.forEachRootSurface { root in
                guard let p = placement(of: root), p.screen == output.screen.id,
                    let h = root.surface(atX: x - Double(p.x), y: y - Double(p.y))
                else { return }
                hit = h  // later roots are above earlier ones
            }
            if let hit { return (hit.0, window, hit.1, hit.2) }
        }
        return nil
    }

    /// While the session is locked: the surface of the screen's lock surface tree under a point
    /// (screen coordinates), and the point in that surface's coordinates. Nil while unlocked.
    public func lockSurface(at x: Double, _ y: Double, on output: ScreenOutput) -> (
        surface: Surface, x: Double, y: Double
    )? {
        guard windows.isLocked, let root = lockScreen.shownSurface(on: output.screen.id),
            let p = placement(of: root), p.screen == output.screen.id,
            let hit = root.surface(atX: x - Double(p.x), y: y - Double(p.y))
        else { return nil }
        return (hit.0, hit.1, hit.2)
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
            var found = false
            window.forEachRootSurface { if $0 === root { found = true } }
            if found { return window }
        }
        return nil
    }
}
