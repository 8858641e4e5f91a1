import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// The seat's pointer: where it is, which surface has its focus, the buttons held and the grab.
///
/// Focus is the topmost surface under the pointer (`Scene.surface(at:_:on:)`), limited to
/// the grabbing client during a popup grab. While a button is held the focus does not change
/// (implicit grab). Events go to every wl_pointer of the focus surface's client; each logical
/// group ends with wl_pointer.frame (v5+).
final class Pointer {
    unowned let seat: Seat
    var bindings: [PointerBinding] = []
    /// zwp_relative_pointer_v1 objects of the bindings, told the focus client's motion deltas.
    var relativePointers: [RelativePointer] = []

    /// The screen and the position in its coordinates; nil until the first motion.
    private(set) weak var output: ScreenOutput?
    private(set) var x = 0.0
    private(set) var y = 0.0
    private(set) weak var focus: Surface?
    private weak var focusWindow: Window?
    /// The serial of the last enter (wl_pointer.set_cursor must quote it).
    private(set) var enterSerial: UInt32 = 0
    private var pressedButtons: [UInt32] = []
    /// Serials of the presses sent during the current implicit grab (move and resize quote one).
    private var grabPressSerials: [UInt32] = []
    /// Buttons whose press dismissed a popup grab: neither press nor release is delivered.
    private var swallowedButtons: Set<UInt32> = []
    private var grab = Grab.none
    /// Clients whose wl_pointers are owed a frame event at the end of this group.
    private var framesDue: [OpaquePointer] = []
    /// While positive, frame events wait for the end of a group (`grouped`).
    private var heldFrames = 0
    /// The focus-local position last sent (enter or motion).
    private var lastSentLocal: (x: Double, y: Double)?

    /// Where the input device last put the pointer (before constraints): absolute motion's
    /// deltas are measured from it, so a locked pointer still reports relative motion.
    private weak var inputOutput: ScreenOutput?
    private var inputX = 0.0
    private var inputY = 0.0

    /// What the focus client asked the cursor to show; back to `.default` on every enter.
    enum CursorRequest {
        /// The theme's default arrow (the client set nothing since the enter).
        case `default`
        /// wl_pointer.set_cursor with a null surface.
        case hidden
        case surface(Surface, hotspotX: Int32, hotspotY: Int32)
        /// wp_cursor_shape_device_v1.set_shape: a cursor name of the theme.
        case shape(String)
    }
    private(set) var cursorRequest = CursorRequest.default

    /// Live zwp_locked_pointer_v1 / zwp_confined_pointer_v1 objects (at most one per surface),
    /// and the one in effect.
    var constraints: [PointerConstraint] = []
    private(set) weak var activeConstraint: PointerConstraint?

    private enum Grab {
        case none
        /// A button is held: the focus stays where the press went.
        case implicit
        case move(window: Window, startX: Double, startY: Double, frame: Rect)
        case resize(
            window: Window, edges: UInt32, startX: Double, startY: Double, frame: Rect,
            resize: (Int32, Int32) -> Void)
        /// A drag and drop (`Seat.drag`): nobody has the focus, motion moves the drag, the last
        /// release drops.
        case drag
    }

    init(seat: Seat) {
        self.seat = seat
    }

    func createBinding(client: OpaquePointer, version: UInt32, id: UInt32) {
        guard let binding = PointerBinding(pointer: self, client: client, version: version, id: id) else { return }
        bindings.append(binding)
        // A client that has the focus and makes another wl_pointer gets an enter on it.
        if let focus, !focus.isDestroyed, focus.client == client, let local = localPoint(in: focus) {
            wl_pointer_send_enter(
                binding.resource, enterSerial, focus.resource,
                wl_fixed_from_double(local.x), wl_fixed_from_double(local.y))
            if version >= 5 { wl_pointer_send_frame(binding.resource) }
        }
    }

    /// The cursor surface the focus client set and its hotspot (nil: it set none, or a shape).
    var cursor: (surface: Surface?, hotspotX: Int32, hotspotY: Int32)? {
        switch cursorRequest {
        case .surface(let surface, let hx, let hy): return (surface, hx, hy)
        case .hidden: return (nil, 0, 0)
        case .default, .shape: return nil
        }
    }

    /// What the cursor layer draws: the client's surface, a theme image, or nothing.
    func cursorImage(theme: CursorTheme) -> CursorLayer.Image? {
        switch cursorRequest {
        case .default: return theme.defaultCursor.map { .image($0) }
        case .hidden: return nil
        case .surface(let surface, let hx, let hy): return .surface(surface, hotspotX: hx, hotspotY: hy)
        case .shape(let name): return (theme.image(named: name) ?? theme.defaultCursor).map { .image($0) }
        }
    }

    // MARK: Input

    func motion(on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        // A delta only within one screen: a jump to another screen has no meaningful one.
        let delta = inputOutput === output ? (dx: x - inputX, dy: y - inputY) : nil
        inputOutput = output
        inputX = x
        inputY = y
        move(on: output, x: x, y: y, delta: delta, time: time)
    }

    /// Motion by (dx, dy) from where the pointer is, kept on its screen; nothing before the
    /// pointer has a position.
    func relativeMotion(dx: Double, dy: Double, time: UInt32) {
        guard let output else { return }
        let maxX = Double(output.width) - 1.0 / 256, maxY = Double(output.height) - 1.0 / 256
        let tx = min(max(x + dx, 0), maxX), ty = min(max(y + dy, 0), maxY)
        inputOutput = output
        inputX = tx
        inputY = ty
        move(on: output, x: tx, y: ty, delta: (dx, dy), time: time)
    }

    private func move(on output: ScreenOutput, x: Double, y: Double, delta: (dx: Double, dy: Double)?, time: UInt32) {
        var output = output, x = x, y = y
        if let constraint = activeConstraint, let focus, !focus.isDestroyed, let current = self.output {
            switch grab {
            case .none, .implicit:
                if constraint.kind == .lock {
                    // The pointer stays; only relative motion flows.
                    if let delta { sendRelativeMotion(dx: delta.dx, dy: delta.dy) }
                    flushFrames()
                    return
                }
                guard let p = focus.placement, p.screen == current.screen.id else { break }
                if output !== current {
                    // A confined pointer does not leave its screen: motion on another stays put.
                    output = current
                    x = self.x
                    y = self.y
                }
                let local = constraint.clamp(x: x - Double(p.x), y: y - Double(p.y))
                x = local.x + Double(p.x)
                y = local.y + Double(p.y)
            default:
                break
            }
        }
        self.output = output
        self.x = x
        self.y = y
        defer { seat.compositor.cursor.update() }
        switch grab {
        case .move(let window, let startX, let startY, let frame):
            var moved = frame
            moved.x = frame.x + Self.clampedDelta(x - startX)
            moved.y = frame.y + Self.clampedDelta(y - startY)
            seat.compositor.windows.setFrame(window, moved)
        case .resize(_, let edges, let startX, let startY, let frame, let resize):
            let size = Self.resizedSize(frame: frame, edges: edges, dx: x - startX, dy: y - startY)
            resize(size.width, size.height)
        case .drag:
            seat.drag?.motion(on: output, x: x, y: y, time: time)
        case .implicit:
            sendMotion(time: time)
            if let delta { sendRelativeMotion(dx: delta.dx, dy: delta.dy) }
        case .none:
            if !updateFocus() { sendMotion(time: time) }
            if let delta { sendRelativeMotion(dx: delta.dx, dy: delta.dy) }
            // The pointer may have entered a constraint's region on the focus surface.
            if !constraints.isEmpty { updateConstraint() }
        }
        switch grab {
        case .implicit, .none: xDragPointerDidMove()
        default: break
        }
        flushFrames()
    }

    /// An X client's drag finds the XWM's drop window over Wayland surfaces while a button
    /// pressed on an X window is held (`XDrag`).
    private func xDragPointerDidMove() {
        guard let wm = seat.compositor.xwayland?.wm, let output else { return }
        let heldOnX =
            !pressedButtons.isEmpty && focus.map { !$0.isDestroyed && $0.client == wm.xwayland.client } == true
        wm.xDragPointerDidMove(x: output.screen.origin.x + x, y: output.screen.origin.y + y, buttonsHeld: heldOnX)
    }

    func button(_ button: UInt32, pressed: Bool, time: UInt32) {
        if pressed {
            guard !pressedButtons.contains(button), !swallowedButtons.contains(button) else { return }
            // A press outside the grabbing client's surfaces dismisses the popups; the click is
            // not delivered.
            if !seat.popupGrabs.isEmpty, pressedButtons.isEmpty, focus == nil {
                swallowedButtons.insert(button)
                seat.dismissPopupGrabs()
                flushFrames()
                return
            }
            if pressedButtons.isEmpty, case .none = grab, beginBinding(button) { return }
            pressedButtons.append(button)
            if case .none = grab {
                grab = .implicit
                grabPressSerials.removeAll()
            }
            guard let focus, !focus.isDestroyed else { return }
            let serial = seat.nextSerial()
            grabPressSerials.append(serial)
            seat.recordInputSerial(serial, kind: .button, client: focus.client, surface: focus, window: focusWindow)
            // The policy sees the click first (it may make the window key, so keyboard enter
            // precedes the button, as in weston).
            if let window = focusWindow {
                seat.compositor.withInputCause(.click, request: "pointer-button \(button)") {
                    seat.compositor.windows.pointerDidClick(window)
                }
            }
            guard !focus.isDestroyed else { return }
            send(to: focus.client) {
                wl_pointer_send_button($0.resource, serial, time, button, WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
            }
        } else {
            if swallowedButtons.remove(button) != nil { return }
            guard let index = pressedButtons.firstIndex(of: button) else { return }
            pressedButtons.remove(at: index)
            switch grab {
            case .move, .resize:
                // The release ends an interactive move or resize; nobody has the focus then.
                // A resize learns its end as a (0, 0) size.
                if case .resize(_, _, _, _, _, let resize) = grab { resize(0, 0) }
                grab = pressedButtons.isEmpty ? .none : .implicit
            case .drag:
                // The last release drops (the drag's end puts the grab back).
                guard pressedButtons.isEmpty else { break }
                if let drag = seat.drag { drag.drop() } else { grab = .none }
            default:
                if let focus, !focus.isDestroyed {
                    let serial = seat.nextSerial()
                    seat.recordInputSerial(
                        serial, kind: .release, client: focus.client, surface: focus, window: focusWindow)
                    send(to: focus.client) {
                        wl_pointer_send_button(
                            $0.resource, serial, time, button, WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
                    }
                }
                if pressedButtons.isEmpty { grab = .none }
            }
            if case .none = grab { _ = updateFocus() }
            if pressedButtons.isEmpty { xDragPointerDidMove() }
        }
        flushFrames()
    }

    func axis(vertical: Double, horizontal: Double, time: UInt32) {
        scroll(PointerScroll(vertical: vertical, horizontal: horizontal), time: time)
    }

    /// One frame of scrolling: axis_source (v5+; wheel_tilt from v6), then per axis the steps
    /// (axis_discrete for v5–v7, axis_value120 from v8, each before its axis event), the value
    /// (axis) and the end (axis_stop, v5+); then frame.
    func scroll(_ scroll: PointerScroll, time: UInt32) {
        guard !scroll.isEmpty, let focus, !focus.isDestroyed else { return }
        switch grab {
        case .move, .resize: return
        default: break
        }
        let axes: [(axis: wl_pointer_axis, value: Double, steps: Int32, stop: Bool)] = [
            (WL_POINTER_AXIS_VERTICAL_SCROLL, scroll.vertical, scroll.verticalSteps, scroll.verticalStop),
            (WL_POINTER_AXIS_HORIZONTAL_SCROLL, scroll.horizontal, scroll.horizontalSteps, scroll.horizontalStop),
        ]
        send(to: focus.client) { binding in
            let version = binding.version
            if version >= 5, let source = scroll.source,
                source != WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue || version >= 6
            {
                wl_pointer_send_axis_source(binding.resource, source)
            }
            for (axis, value, steps, stop) in axes {
                if value != 0 {
                    if steps != 0, version >= 8 {
                        wl_pointer_send_axis_value120(
                            binding.resource, axis.rawValue, steps.multipliedReportingOverflow(by: 120).partialValue)
                    } else if steps != 0, version >= 5 {
                        wl_pointer_send_axis_discrete(binding.resource, axis.rawValue, steps)
                    }
                    wl_pointer_send_axis(binding.resource, time, axis.rawValue, wl_fixed_from_double(value))
                }
                if stop, version >= 5 { wl_pointer_send_axis_stop(binding.resource, time, axis.rawValue) }
            }
        }
        flushFrames()
    }

    /// Holds the frame events of everything done in `body` until it returns: one wl_pointer.frame
    /// ends the group (a virtual pointer's frame).
    func grouped(_ body: () -> Void) {
        heldFrames += 1
        body()
        heldFrames -= 1
        flushFrames()
    }

    // MARK: Focus

    /// Re-evaluates the focus under a still pointer (stacking changed, a surface died, a grab
    /// began or ended). Nothing changes while a button is held.
    /// The session locked or unlocked: a move, resize or implicit grab ends where it is (the
    /// buttons held are released without an event), so the focus can go to what is shown now.
    func endGrabForLockChange() {
        switch grab {
        case .none:
            return
        case .resize(_, _, _, _, _, let resize):
            resize(0, 0)
        default:
            break
        }
        swallowedButtons.formUnion(pressedButtons)
        pressedButtons.removeAll()
        grab = .none
    }

    /// Whether the pointer has a place on a screen (a repick has something to look at).
    var isOnAScreen: Bool { output != nil }

    func repick() {
        guard case .none = grab, output != nil else { return }
        if !updateFocus() {
            // The focus stayed but its surface may have moved under the still pointer.
            sendMotion(time: seat.compositor.clock.milliseconds, onlyIfMoved: true)
        }
        flushFrames()
    }

    /// Drops references to a dying surface; true if it had the focus.
    func surfaceWillDestroy(_ surface: Surface) -> Bool {
        if case .surface(let cursorSurface, _, _) = cursorRequest, cursorSurface === surface {
            cursorRequest = .hidden
            seat.compositor.cursor.update()
        }
        for constraint in constraints where constraint.surface === surface { constraint.surfaceWillDestroy() }
        if activeConstraint?.surface === surface {
            activeConstraint = nil
            seat.compositor.backend.pointerConstraintDidChange(locked: nil, on: nil)
        }
        guard focus === surface else { return false }
        // The resource is still valid during its destroy path: the client learns that the
        // pointer left (with a null surface if it already destroyed its proxy) before the next
        // enter, which libwayland clients and WLCS require.
        let serial = seat.nextSerial()
        send(to: surface.client) { wl_pointer_send_leave($0.resource, serial, surface.resource) }
        flushFrames()
        focus = nil
        focusWindow = nil
        cursorRequest = .default
        seat.compositor.cursor.update()
        return true
    }

    /// Moves the focus to what is under the pointer; true if it changed.
    private func updateFocus() -> Bool {
        if seat.compositor.windows.isLocked {
            // Only lock surfaces take the pointer while the session is locked.
            let found = output.flatMap { seat.compositor.scene.lockSurface(at: x, y, on: $0) }
            guard let found, !found.surface.isDestroyed else { return setFocus(nil, window: nil, x: 0, y: 0) }
            return setFocus(found.surface, window: nil, x: found.x, y: found.y)
        }
        var hit: (surface: Surface, window: Window, x: Double, y: Double)?
        if let output, let found = seat.compositor.scene.surface(at: x, y, on: output),
            !found.surface.isDestroyed, seat.acceptsPointerFocus(found.surface.client)
        {
            hit = found
        }
        return setFocus(hit?.surface, window: hit?.window, x: hit?.x ?? 0, y: hit?.y ?? 0)
    }

    private func setFocus(_ surface: Surface?, window: Window?, x: Double, y: Double) -> Bool {
        guard surface !== focus else { return false }
        if let old = focus, !old.isDestroyed {
            let serial = seat.nextSerial()
            send(to: old.client) { wl_pointer_send_leave($0.resource, serial, old.resource) }
        }
        let enteredWindow = window !== focusWindow ? window : nil
        focus = surface
        focusWindow = window
        lastSentLocal = surface.map { _ in (x, y) }
        if let surface {
            enterSerial = seat.nextSerial()
            let serial = enterSerial
            send(to: surface.client) {
                wl_pointer_send_enter(
                    $0.resource, serial, surface.resource, wl_fixed_from_double(x), wl_fixed_from_double(y))
            }
        }
        // Each enter starts with the default cursor until the client sets one.
        cursorRequest = .default
        if let enteredWindow {
            seat.compositor.withInputCause(.pointerEnter, request: "pointer-enter") {
                seat.compositor.windows.pointerDidEnter(enteredWindow)
            }
        }
        updateConstraint()
        seat.compositor.cursor.update()
        return true
    }

    private func sendMotion(time: UInt32, onlyIfMoved: Bool = false) {
        guard let focus, !focus.isDestroyed, let local = localPoint(in: focus) else { return }
        if onlyIfMoved, let last = lastSentLocal, last.x == local.x, last.y == local.y { return }
        lastSentLocal = local
        send(to: focus.client) {
            wl_pointer_send_motion($0.resource, time, wl_fixed_from_double(local.x), wl_fixed_from_double(local.y))
        }
    }

    /// zwp_relative_pointer_v1.relative_motion to the focus client's relative pointers.
    private func sendRelativeMotion(dx: Double, dy: Double) {
        guard dx != 0 || dy != 0, let focus, !focus.isDestroyed, !relativePointers.isEmpty else { return }
        let now = seat.compositor.clock.microseconds
        var sent = false
        for relative in relativePointers where relative.client == focus.client {
            relative.sendMotion(microseconds: now, dx: dx, dy: dy)
            sent = true
        }
        if sent, !framesDue.contains(focus.client) { framesDue.append(focus.client) }
    }

    /// The pointer in `surface`'s coordinates (when the surface is shown on the pointer's screen).
    private func localPoint(in surface: Surface) -> (x: Double, y: Double)? {
        guard let p = surface.placement, let output, p.screen == output.screen.id else { return nil }
        return (x - Double(p.x), y - Double(p.y))
    }

    private func send(to client: OpaquePointer, _ body: (PointerBinding) -> Void) {
        var sent = false
        for binding in bindings where binding.client == client && !binding.isDestroyed {
            body(binding)
            sent = true
        }
        if sent, !framesDue.contains(client) { framesDue.append(client) }
    }

    private func flushFrames() {
        guard heldFrames == 0 else { return }
        let due = framesDue
        framesDue.removeAll()
        for client in due {
            for binding in bindings where binding.client == client && binding.version >= 5 && !binding.isDestroyed {
                wl_pointer_send_frame(binding.resource)
            }
        }
    }

    // MARK: Drag and drop

    /// Where a drag quoting `serial` from `client` on `origin` starts: the pointer's position,
    /// when `serial` is a press of the implicit grab under way and the grab's surface is `origin`
    /// or one of its subsurfaces; nil otherwise.
    func dragStart(serial: UInt32, client: OpaquePointer, origin: Surface) -> (
        output: ScreenOutput, x: Double, y: Double
    )? {
        guard case .implicit = grab, !pressedButtons.isEmpty, grabPressSerials.contains(serial),
            let focus, !focus.isDestroyed, focus.client == client, Drag.isOrigin(origin, of: focus),
            let output
        else { return nil }
        return (output, x, y)
    }

    /// The drag began: the focus leaves (no pointer events during the drag).
    func beginDrag() {
        _ = setFocus(nil, window: nil, x: 0, y: 0)
        grab = .drag
        flushFrames()
    }

    /// The drag ended: with buttons still held the release goes nowhere; without, the focus goes
    /// to what is under the pointer.
    func dragDidEnd() {
        guard case .drag = grab else { return }
        grab = pressedButtons.isEmpty ? .none : .implicit
        if case .none = grab { _ = updateFocus() }
        flushFrames()
    }

    // MARK: Interactive move and resize

    /// The serial of the latest press of the implicit grab while its button is still held
    /// (nil when no press is held, or the grab is a move, resize or drag already).
    var heldPressSerial: UInt32? {
        guard case .implicit = grab, !pressedButtons.isEmpty else { return nil }
        return grabPressSerials.last
    }

    /// Starts a move while the press that began it is held: the focus leaves (nobody gets
    /// pointer events during the move), motion moves the window.
    func beginMove(_ window: Window, serial: UInt32) -> Bool {
        guard case .implicit = grab, !pressedButtons.isEmpty, grabPressSerials.contains(serial) else { return false }
        _ = setFocus(nil, window: nil, x: 0, y: 0)
        grab = .move(window: window, startX: x, startY: y, frame: window.frame)
        flushFrames()
        return true
    }

    func beginResize(_ window: Window, edges: UInt32, serial: UInt32, resize: @escaping (Int32, Int32) -> Void) -> Bool
    {
        guard case .implicit = grab, !pressedButtons.isEmpty, grabPressSerials.contains(serial) else { return false }
        _ = setFocus(nil, window: nil, x: 0, y: 0)
        grab = .resize(window: window, edges: edges, startX: x, startY: y, frame: window.frame, resize: resize)
        flushFrames()
        return true
    }

    /// What a pointer binding's press starts (`Seat.pointerBinding`).
    enum BindingAction {
        case move
        case resize(edges: UInt32, (Int32, Int32) -> Void)
    }

    /// A press with the binding modifier held on an application's window starts a move (left
    /// button) or a resize (right button) through the same grabs as xdg_toplevel.move and resize;
    /// the press is not delivered (the release neither). The policy sees the click (the window
    /// may become key). False: not a binding, the press goes on as usual.
    private func beginBinding(_ button: UInt32) -> Bool {
        guard let window = focusWindow, let focus, !focus.isDestroyed,
            let action = seat.pointerBinding(
                for: button, on: window, edges: Self.nearestEdges(of: window.frame, x: x, y: y))
        else { return false }
        pressedButtons.append(button)
        _ = setFocus(nil, window: nil, x: 0, y: 0)
        switch action {
        case .move:
            grab = .move(window: window, startX: x, startY: y, frame: window.frame)
        case .resize(let edges, let resize):
            grab = .resize(window: window, edges: edges, startX: x, startY: y, frame: window.frame, resize: resize)
        }
        seat.compositor.withInputCause(.click, request: "pointer-button \(button)") {
            seat.compositor.windows.pointerDidClick(window)
        }
        flushFrames()
        return true
    }

    /// The edges a binding's resize drags (xdg_toplevel.resize_edge bits: top 1, bottom 2, left
    /// 4, right 8) for the pointer at (x, y) over `frame`: on each axis the edge of the outer
    /// third the pointer is in, none in the middle third; the bottom-right corner from the
    /// middle of the window.
    static func nearestEdges(of frame: Rect, x: Double, y: Double) -> UInt32 {
        func edge(_ position: Double, _ start: Int, _ length: Int, near: UInt32, far: UInt32) -> UInt32 {
            let third = Double(length) / 3
            if position < Double(start) + third { return near }
            if position >= Double(start) + 2 * third { return far }
            return 0
        }
        let edges = edge(x, frame.x, frame.width, near: 4, far: 8) | edge(y, frame.y, frame.height, near: 1, far: 2)
        return edges == 0 ? 10 : edges
    }

    private static func clampedDelta(_ d: Double) -> Int {
        Int(max(-1e9, min(1e9, d.rounded())))
    }

    /// The new size for a drag of (dx, dy) on `edges` (xdg_toplevel.resize_edge bits: top 1,
    /// bottom 2, left 4, right 8), at least 1×1.
    static func resizedSize(frame: Rect, edges: UInt32, dx: Double, dy: Double) -> (width: Int32, height: Int32) {
        var width = Double(frame.width), height = Double(frame.height)
        if edges & 4 != 0 { width -= dx } else if edges & 8 != 0 { width += dx }
        if edges & 1 != 0 { height -= dy } else if edges & 2 != 0 { height += dy }
        let clamp = { (v: Double) in Int32(max(1, min(Double(Int32.max), v.rounded()))) }
        return (clamp(width), clamp(height))
    }

    // MARK: Cursor

    /// wl_pointer.set_cursor from a binding, after the role check: honoured when the client has
    /// the focus and quotes the last enter serial (else ignored, as the spec says).
    func setCursor(from binding: PointerBinding, serial: UInt32, surface: Surface?, hotspotX: Int32, hotspotY: Int32) {
        guard let focus, focus.client == binding.client, serial == enterSerial else { return }
        cursorRequest = surface.map { .surface($0, hotspotX: hotspotX, hotspotY: hotspotY) } ?? .hidden
        seat.compositor.cursor.update(contentChanged: true)
    }

    /// wp_cursor_shape_device_v1.set_shape from `client`: honoured like set_cursor.
    func setCursorShape(_ name: String, client: OpaquePointer, serial: UInt32) {
        guard let focus, focus.client == client, serial == enterSerial else { return }
        cursorRequest = .shape(name)
        seat.compositor.cursor.update()
    }

    /// A cursor surface committed with wl_surface.offset (dx, dy): the hotspot moves the other
    /// way, so the image moves by the offset.
    func cursorSurfaceDidCommit(_ surface: Surface, offsetX: Int32, offsetY: Int32) {
        guard case .surface(let current, let hx, let hy) = cursorRequest, current === surface else { return }
        if offsetX != 0 || offsetY != 0 {
            cursorRequest = .surface(
                surface, hotspotX: Coordinate.difference(hx, offsetX),
                hotspotY: Coordinate.difference(hy, offsetY))
        }
        seat.compositor.cursor.surfaceDidCommit(surface)
    }

    // MARK: Constraints

    /// Activates the constraint of the focus surface when its window is the key window and the
    /// pointer is inside the constraint's region; deactivates the active one when any of that
    /// stops holding (weston's rule).
    func updateConstraint() {
        var wanted: PointerConstraint?
        if let focus, !focus.isDestroyed, let window = focusWindow, window === seat.compositor.windows.keyWindow,
            let local = localPoint(in: focus)
        {
            wanted = constraints.first { $0.surface === focus && $0.canActivate && $0.contains(x: local.x, y: local.y) }
            // An active constraint stays while its surface is focused and key (the pointer may
            // sit on the region's edge).
            if wanted == nil, let active = activeConstraint, active.surface === focus { wanted = active }
        }
        guard wanted !== activeConstraint else { return }
        if let old = activeConstraint {
            activeConstraint = nil
            old.deactivate()
            applyHint(of: old)
        }
        if let wanted {
            activeConstraint = wanted
            wanted.activate()
        }
        seat.compositor.backend.pointerConstraintDidChange(
            locked: wanted.map { $0.kind == .lock }, on: wanted == nil ? nil : output)
        flushFrames()
    }

    /// A constraint's region or hint changed (its surface committed), or it was created.
    func constraintDidChange(_ constraint: PointerConstraint) {
        updateConstraint()
        guard constraint === activeConstraint, constraint.kind == .confine, let focus, let output,
            let p = focus.placement, p.screen == output.screen.id
        else { return }
        // A smaller region pulls the pointer inside it.
        let local = constraint.clamp(x: x - Double(p.x), y: y - Double(p.y))
        let nx = local.x + Double(p.x), ny = local.y + Double(p.y)
        if nx != x || ny != y {
            x = nx
            y = ny
            sendMotion(time: seat.compositor.clock.milliseconds, onlyIfMoved: true)
            seat.compositor.cursor.update()
            flushFrames()
        }
    }

    /// A constraint object dies: it stops being in effect.
    func constraintWillDestroy(_ constraint: PointerConstraint) {
        constraints.removeAll { $0 === constraint }
        guard constraint === activeConstraint else { return }
        activeConstraint = nil
        applyHint(of: constraint)
        updateConstraint()
        if activeConstraint == nil { seat.compositor.backend.pointerConstraintDidChange(locked: nil, on: nil) }
    }

    /// A lock ends: the pointer goes where the client hinted (surface-local), as weston does.
    private func applyHint(of constraint: PointerConstraint) {
        guard constraint.kind == .lock, let hint = constraint.hint, let surface = constraint.surface,
            !surface.isDestroyed,
            let output, let p = surface.placement, p.screen == output.screen.id
        else { return }
        let nx = Double(p.x) + hint.x, ny = Double(p.y) + hint.y
        guard nx >= 0, ny >= 0, nx < Double(output.width), ny < Double(output.height) else { return }
        x = nx
        y = ny
        inputX = nx
        inputY = ny
        if focus === surface { sendMotion(time: seat.compositor.clock.milliseconds, onlyIfMoved: true) }
        seat.compositor.cursor.update()
    }
}

/// One client's wl_pointer.
final class PointerBinding: ResourceObject {
    unowned let pointer: Pointer
    /// Holds the role of the surface this pointer last set as its cursor.
    private var cursorRole: CursorRole?

    init?(pointer: Pointer, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.pointer = pointer
        super.init(
            client: client, interface: strata_wl_pointer_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        pointer.bindings.removeAll { $0 === self }
        pointer.seat.forgetClientIfUnused(client)
        cursorRole = nil
    }

    static let implementation = makeImplementation(
        wl_pointer_interface(
            set_cursor: { _, resource, serial, surface, x, y in
                handle(resource, as: PointerBinding.self) {
                    try $0.handleSetCursorRequest(serial: serial, surface: surface, hotspotX: x, hotspotY: y)
                }
            },
            release: destroyRequest))

    func handleSetCursorRequest(
        serial: UInt32, surface surfaceResource: OpaquePointer?, hotspotX: Int32, hotspotY: Int32
    ) throws(ProtocolError) {
        var surface: Surface?
        if let surfaceResource {
            guard let s = ResourceObject.from(surfaceResource, as: Surface.self) else { return }
            if let existing = s.role as? CursorRole {
                cursorRole = existing
            } else {
                let role = CursorRole(pointer: pointer)
                guard s.setRole(role) else {
                    throw ProtocolError(
                        code: WL_POINTER_ERROR_ROLE.rawValue,
                        "set_cursor: wl_surface@\(wl_resource_get_id(surfaceResource)) already has the role \(s.roleName ?? "?")"
                    )
                }
                cursorRole = role
            }
            surface = s
        }
        pointer.setCursor(from: self, serial: serial, surface: surface, hotspotX: hotspotX, hotspotY: hotspotY)
    }
}
