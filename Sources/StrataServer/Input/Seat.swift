import CStrataServerGlue
import CWaylandServer
import CXKBCommon
import Glibc
import StrataModel

/// A popup grab (xdg_popup.grab): while it lasts, the seat sends pointer events only to the
/// grabbing client's surfaces, keyboard focus to the topmost grabbing popup, and dismisses the
/// grab when a button is pressed outside the client's surfaces.
public protocol PopupGrab: AnyObject {
    /// The client that owns the popup chain.
    var client: OpaquePointer { get }
    /// The topmost popup surface of the grab (keyboard focus goes there).
    var grabSurface: Surface? { get }
    /// The seat dismisses the grab (a click outside, or the grab was refused/broken).
    func grabDidEnd()
}

/// wl_seat v8, "seat0": the pointer, the keyboard, the touch screen and the selection
/// (clipboard) of the one seat.
///
/// Input comes in through the injection methods at the bottom (backends, tests, the control
/// socket); the seat finds the target surface (pointer, touch: the hit test; keyboard: the key
/// window, or the popup grab) and sends the events to that surface's client. The compositor tells
/// the seat about model changes (`keyWindowDidChange`, `windowDidChange`, surface deaths, screen
/// moves). See `docs/seat.md` for the focus rules.
public final class Seat {
    unowned let compositor: Compositor
    static let version: UInt32 = 8
    public let name = "seat0"
    /// The seat handled an input event (its events were sent), with the event's milliseconds:
    /// heard by a trace recorder.
    public let inputHandled = Signal<(input: InjectedInput, time: UInt32)>()
    /// A drag-and-drop session began, entered or left a surface, or ended: heard by a trace.
    public let dragChanged = Signal<DragEvent>()

    var bindings: [SeatBinding] = []
    private(set) var pointer: Pointer!
    private(set) var keyboard: Keyboard!
    private(set) var touch: Touch!
    /// Popup grabs, bottom to top (nested grabs of one client stack).
    private(set) var popupGrabs: [PopupGrab] = []

    /// The clipboard (wl_data_device).
    private(set) lazy var clipboard = Selection(seat: self)
    /// The primary selection (middle-click paste), apart from the clipboard: one selection behind
    /// two protocols, zwp_primary_selection_v1 and gtk_primary_selection.
    private(set) lazy var primarySelection = Selection(seat: self)
    /// Idle notifications and inhibitors (ext_idle_notify, idle-inhibit): every input below resets it.
    public private(set) lazy var idle = IdleTracker(display: compositor.display)
    /// The drag-and-drop session under way (wl_data_device.start_drag), if any.
    private(set) var drag: Drag?
    /// The source of the last drag: a v1/v2 source is cancelled when the next drag replaces it.
    private weak var lastDragSource: DataSource?
    /// Text inputs (zwp_text_input_v3) and the input method (zwp_input_method_v2).
    private(set) lazy var textInputs = TextInputRelay(seat: self)
    /// Touchpad gestures (zwp_pointer_gestures_v1): swipe, pinch, hold.
    private(set) lazy var gestures = PointerGestureTracker(seat: self)
    /// The graphics tablet and its tools (zwp_tablet_manager_v2).
    private(set) lazy var tablets = Tablets(seat: self)

    /// The key that, held, makes a left drag move the window under the pointer and a right drag
    /// resize it (`PointerBindingModifier`); nil: no pointer bindings (`--no-pointer-bindings`).
    public var pointerBindingModifier: PointerBindingModifier? = .super

    /// Serials of recent presses (button, key, touch down) sent to each client, newest last.
    private var inputSerials: [OpaquePointer: [InputSerial]] = [:]
    private static let serialsPerClient = 16

    private lazy var repickIdle = LoopIdle(eventLoop: compositor.display.eventLoop) { [unowned self] in
        drag?.repick()
        pointer.repick()
    }
    /// The keyboard focus keyboard-shortcuts inhibitors last heard of.
    private weak var shortcutsFocus: Surface?

    init(compositor: Compositor, keymapNames: KeymapNames = .standard) {
        self.compositor = compositor
        pointer = Pointer(seat: self)
        keyboard = Keyboard(seat: self, keymap: Keymap(names: keymapNames))
        touch = Touch(seat: self)
    }

    func install() -> Global? {
        Global(display: compositor.display, interface: strata_wl_seat_interface(), version: Self.version) {
            [unowned self] client, version, id in
            guard let binding = SeatBinding(seat: self, client: client, version: version, id: id) else { return }
            self.bindings.append(binding)
            binding.sendState()
        }
    }

    func nextSerial() -> UInt32 { compositor.display.nextSerial() }

    // MARK: Told by the compositor

    /// The model's key window changed: keyboard focus follows it (nil: no focus).
    func keyWindowDidChange(_ window: Window?) {
        // Another window becoming key (or the key window resigning) ends the popup grabs, as a
        // menu closes when the focus moves on.
        if !popupGrabs.isEmpty {
            dismissPopupGrabs()
        } else {
            updateKeyboardFocus()
        }
        // A pointer constraint is in effect only while its window is key.
        pointer.updateConstraint()
    }

    /// The session locked or unlocked (`WindowManager.isLocked`): popup grabs end, touch
    /// sequences are cancelled and pointer grabs end, then the focus goes to what is shown now.
    func sessionLockDidChange() {
        drag?.cancel(.cancelled)
        dismissPopupGrabs()
        touch.cancel()
        pointer.endGrabForLockChange()
        gestures.cancel()
        tablets.sessionLockDidChange()
        lockScreenDidChange()
    }

    /// While locked, a lock surface was shown or went: keyboard and pointer focus follow.
    func lockScreenDidChange() {
        updateKeyboardFocus()
        pointer.repick()
        pointer.updateConstraint()
    }

    /// Stacking or visibility changed: the pointer focus under a still pointer is re-evaluated.
    func windowDidChange() {
        drag?.repick()
        pointer.repick()
        touch.surfacesDidMove()
    }

    /// A surface's state changed (size, input region, subsurfaces): the pointer focus under a
    /// still pointer is re-evaluated when the surface is shown.
    func surfaceDidCommit(_ surface: Surface) {
        touch.surfacesDidMove()
        for constraint in pointer.constraints where constraint.surface === surface { constraint.surfaceDidCommit() }
        guard compositor.scene.lastPlacement(of: surface) != nil || pointer.focus === surface else { return }
        // Once after this dispatch, not per commit: a parent's commit applies the cached commits
        // of all its subsurfaces, and a hit test per child would make it quadratic in the tree.
        scheduleRepick()
    }

    /// A surface dies: drop every focus and grab reference to it.
    func surfaceWillDestroy(_ surface: Surface) {
        drag?.surfaceWillDestroy(surface)
        let hadPointerFocus = pointer.surfaceWillDestroy(surface)
        keyboard.surfaceWillDestroy(surface)
        touch.surfaceWillDestroy(surface)
        gestures.surfaceWillDestroy(surface)
        tablets.surfaceWillDestroy(surface)
        for client in inputSerials.keys {
            inputSerials[client]?.removeAll { $0.surface == nil || $0.surface === surface }
        }
        // What is under the pointer now is known once the surface is gone from its parent and
        // its window: re-evaluate after this dispatch.
        if hadPointerFocus { scheduleRepick() }
    }

    /// A surface moved between screens: wl_surface.enter/leave for the client's wl_outputs.
    func surfaceDidChangeScreen(_ surface: Surface, from: ScreenOutput?, to: ScreenOutput?) {
        guard !surface.isDestroyed, from !== to else { return }
        for binding in from?.bindings ?? [] where binding.client == surface.client && !binding.isDestroyed {
            wl_surface_send_leave(surface.resource, binding.resource)
        }
        for binding in to?.bindings ?? [] where binding.client == surface.client && !binding.isDestroyed {
            wl_surface_send_enter(surface.resource, binding.resource)
        }
    }

    /// A client bound a wl_output: its surfaces already shown on that screen enter it.
    func outputDidBind(_ binding: OutputBinding) {
        guard let output = binding.output else { return }
        compositor.scene.forEachVisibleSurface(on: output) { surface, _, _ in
            guard surface.client == binding.client, !surface.isDestroyed else { return }
            wl_surface_send_enter(surface.resource, binding.resource)
        }
    }

    // MARK: Asked by other wire objects

    /// Whether `serial` is one the seat sent to `client` for a button press, touch down or key
    /// press (xdg_popup.grab, xdg_toplevel.move/resize, show_window_menu check it).
    public func isValidInputSerial(_ serial: UInt32, client: OpaquePointer) -> Bool {
        inputSerial(serial, client: client) != nil
    }

    /// Starts a popup grab; false when the serial is not valid (the caller then dismisses).
    /// A grab of another client ends the grabs in place (they are told `grabDidEnd`). A grab
    /// nested in the same client's grab continues it and needs no new press serial: toolkits
    /// (GTK submenus, WLCS) quote the latest serial they got, often the keyboard enter the
    /// outer grab caused.
    public func beginPopupGrab(_ grab: PopupGrab, serial: UInt32) -> Bool {
        let continuesGrab = popupGrabs.last?.client == grab.client
        guard !compositor.windows.isLocked, continuesGrab || isValidInputSerial(serial, client: grab.client) else {
            return false
        }
        if let top = popupGrabs.last, top.client != grab.client {
            dismissPopupGrabs()
        }
        popupGrabs.removeAll { $0 === grab }
        popupGrabs.append(grab)
        updateKeyboardFocus()
        pointer.repick()
        return true
    }

    /// Ends a popup grab (popup destroyed or dismissed); focus returns where it belongs.
    public func endPopupGrab(_ grab: PopupGrab) {
        guard popupGrabs.contains(where: { $0 === grab }) else { return }
        popupGrabs.removeAll { $0 === grab }
        updateKeyboardFocus()
        pointer.repick()
    }

    /// Interactive move of a window by the pointer (xdg_toplevel.move); false if refused.
    /// Accepted for the serial of a button press of `client` on `window` while the implicit grab
    /// that press belongs to still holds.
    public func beginInteractiveMove(_ window: Window, serial: UInt32, client: OpaquePointer) -> Bool {
        guard isPressSerial(serial, client: client, window: window) else { return false }
        return pointer.beginMove(window, serial: serial)
    }

    /// Interactive resize (xdg_toplevel.resize), edges as xdg_toplevel.resize_edge. `resize` is
    /// called with the new size on each motion and with (0, 0) when the button is released (the
    /// resize ended); the window's origin is left to the caller
    public func beginInteractiveResize(
        _ window: Window, edges: UInt32, serial: UInt32, client: OpaquePointer,
        resize: @escaping (_ width: Int32, _ height: Int32) -> Void
    ) -> Bool {
        guard edges != 0, edges & ~0xf == 0, isPressSerial(serial, client: client, window: window) else { return false }
        return pointer.beginResize(window, edges: edges, serial: serial, resize: resize)
    }

    /// What a press of `button` on `window` does when it is a pointer binding: with the binding
    /// modifier held, the left button moves an application's toplevel (xdg, wl_shell, a managed
    /// X window) in its normal state, the right one resizes it from `edges`; nil otherwise (the
    /// press goes to the client). Never during a popup grab or while the session is locked.
    func pointerBinding(for button: UInt32, on window: Window, edges: UInt32) -> Pointer.BindingAction? {
        guard let modifier = pointerBindingModifier, button == Self.leftButton || button == Self.rightButton,
            popupGrabs.isEmpty, !compositor.windows.isLocked, window.isVisible,
            let content = window.content, content.isToplevel, !window.isMaximized, !window.isFullscreen,
            keyboard.keymap?.isModifierHeld(named: modifier.xkbName) == true
        else { return nil }
        if button == Self.leftButton { return .move }
        return content.interactiveResize(edges: edges).map { .resize(edges: edges, $0) }
    }

    static let leftButton: UInt32 = 0x110
    static let rightButton: UInt32 = 0x111

    /// The serial of the press `client` holds on `window` with the pointer (nil when none is
    /// held): an X client's `_NET_WM_MOVERESIZE` names no Wayland serial, the press Xwayland's
    /// client holds on the window stands for it.
    func heldPointerPressSerial(client: OpaquePointer, window: Window) -> UInt32? {
        guard let serial = pointer.heldPressSerial, isPressSerial(serial, client: client, window: window) else {
            return nil
        }
        return serial
    }

    // MARK: Drag and drop

    /// wl_data_device.start_drag from `client`: begun when `serial` is the press of the pointer's
    /// implicit grab on `origin` (or its subsurfaces) or the down of a touch point still held on
    /// it, with no other drag under way and the session unlocked; else refused (the source is
    /// cancelled, nothing else happens).
    func startDrag(client: OpaquePointer, source: DataSource?, origin: Surface, icon: Surface?, serial: UInt32) {
        guard drag == nil, !compositor.windows.isLocked else { return refuseDrag(source) }
        let started: (touchID: Int32?, output: ScreenOutput, x: Double, y: Double)
        if let point = pointer.dragStart(serial: serial, client: client, origin: origin) {
            started = (nil, point.output, point.x, point.y)
        } else if let point = touch.dragStart(serial: serial, client: client, origin: origin) {
            started = (point.id, point.output, point.x, point.y)
        } else {
            return refuseDrag(source)
        }
        if let old = lastDragSource, old !== source, old.version < 3 { old.cancel() }
        lastDragSource = source
        let newDrag = Drag(
            seat: self, touchID: started.touchID, client: client, source: source, origin: origin, icon: icon,
            output: started.output, x: started.x, y: started.y)
        drag = newDrag
        // The input is the drag's now: the pointer's focus leaves, or the touch point goes quiet.
        if started.touchID == nil { pointer.beginDrag() } else { touch.beginDrag(id: started.touchID ?? 0) }
        dragChanged.emit(.started(touch: started.touchID, hasSource: source != nil, hasIcon: icon != nil))
        compositor.dragIcon.update()
        newDrag.motion(on: started.output, x: started.x, y: started.y, time: compositor.clock.milliseconds)
    }

    private func refuseDrag(_ source: DataSource?) {
        source?.cancel()
    }

    /// The drag ended (dropped or cancelled): the input it held goes back to normal.
    func dragDidEnd(_ ended: Drag) {
        guard drag === ended else { return }
        drag = nil
        if ended.touchID == nil { pointer.dragDidEnd() } else { touch.dragDidEnd() }
    }

    // MARK: Input from backends, tests and the control socket (screen coordinates)

    /// The pointer moved to (x, y) of `output` (that screen's coordinates).
    public func pointerMotion(on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        guard x.isFinite, y.isFinite else { return }
        idle.inputDidHappen()
        pointer.motion(on: output, x: x, y: y, time: time)
        inputHandled.emit((.pointerMotion(screen: output.screen.id, x: x, y: y), time))
    }

    /// The pointer moved by (dx, dy) (a mouse's relative motion), staying on its screen. A locked
    /// pointer stays put and only zwp_relative_pointer_v1 clients see the motion; a confined one
    /// stays in its region. Nothing happens before the pointer has a position.
    public func pointerMotion(dx: Double, dy: Double, time: UInt32) {
        guard dx.isFinite, dy.isFinite else { return }
        idle.inputDidHappen()
        pointer.relativeMotion(dx: dx, dy: dy, time: time)
        inputHandled.emit((.pointerRelativeMotion(dx: dx, dy: dy), time))
    }

    /// Whether a pointer constraint is in effect (a lock or a confinement), and which.
    public var pointerConstraint: (locked: Bool, surface: Surface)? {
        guard let active = pointer.activeConstraint, let surface = active.surface else { return nil }
        return (active.kind == .lock, surface)
    }

    /// A button (evdev code, BTN_LEFT = 0x110) was pressed or released.
    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        idle.inputDidHappen()
        pointer.button(button, pressed: pressed, time: time)
        inputHandled.emit((.pointerButton(button: button, pressed: pressed), time))
    }

    /// Scrolling, in surface-local units (positive: down / right).
    public func pointerAxis(vertical: Double, horizontal: Double, time: UInt32) {
        guard vertical.isFinite, horizontal.isFinite else { return }
        idle.inputDidHappen()
        pointer.axis(vertical: vertical, horizontal: horizontal, time: time)
        inputHandled.emit((.pointerAxis(vertical: vertical, horizontal: horizontal), time))
    }

    /// One frame of scrolling with its source, wheel steps and stops.
    public func pointerScroll(_ scroll: PointerScroll, time: UInt32) {
        guard scroll.vertical.isFinite, scroll.horizontal.isFinite else { return }
        idle.inputDidHappen()
        pointer.scroll(scroll, time: time)
        inputHandled.emit((.pointerAxis(vertical: scroll.vertical, horizontal: scroll.horizontal), time))
    }

    /// Pointer input made in `body` (motion, buttons, scrolling) reaches clients as one group,
    /// ended by a single wl_pointer.frame.
    public func pointerFrame(_ body: () -> Void) {
        pointer.grouped(body)
    }

    /// A key (evdev code; the xkb keycode is this + 8) was pressed or released.
    public func key(_ keycode: UInt32, pressed: Bool, time: UInt32) {
        idle.inputDidHappen()
        keyboard.key(keycode, pressed: pressed, time: time)
        inputHandled.emit((.key(keycode: keycode, pressed: pressed, virtualKeyboard: false), time))
    }

    /// A key from `client`'s virtual keyboard: the input method's own keys pass its grab.
    func key(_ keycode: UInt32, pressed: Bool, time: UInt32, virtualKeyboardOf client: OpaquePointer) {
        idle.inputDidHappen()
        keyboard.key(
            keycode, pressed: pressed, time: time, passesInputMethodGrab: client == textInputs.inputMethodClient)
        inputHandled.emit((.key(keycode: keycode, pressed: pressed, virtualKeyboard: true), time))
    }

    public func touchDown(id: Int32, on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        guard x.isFinite, y.isFinite else { return }
        idle.inputDidHappen()
        touch.down(id: id, on: output, x: x, y: y, time: time)
        inputHandled.emit((.touchDown(id: id, screen: output.screen.id, x: x, y: y), time))
    }

    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {
        guard x.isFinite, y.isFinite else { return }
        idle.inputDidHappen()
        touch.motion(id: id, x: x, y: y, time: time)
        inputHandled.emit((.touchMotion(id: id, x: x, y: y), time))
    }

    public func touchUp(id: Int32, time: UInt32) {
        idle.inputDidHappen()
        touch.up(id: id, time: time)
        inputHandled.emit((.touchUp(id: id), time))
    }

    /// The compositor takes over every touch sequence: wl_touch.cancel to their clients.
    public func touchCancel() {
        touch.cancel()
        inputHandled.emit((.touchCancel, compositor.clock.milliseconds))
    }

    /// A touchpad gesture begins with `fingers` fingers (clamped to 1…10), for the surface with
    /// the pointer focus (it keeps the gesture until its end). A gesture in progress ends first,
    /// cancelled: there is one at a time.
    public func pointerGestureBegin(_ kind: PointerGestureKind, fingers: UInt32, time: UInt32) {
        idle.inputDidHappen()
        gestures.begin(kind, fingers: fingers, time: time)
        inputHandled.emit((.gestureBegin(kind: kind, fingers: fingers), time))
    }

    /// The gesture in progress moved: (dx, dy) since the last event, in surface units; a pinch's
    /// `scale` since its begin (1: unchanged) and `rotation` in degrees clockwise since the last
    /// event. Ignored for a hold, without a gesture in progress, or when a number is not finite; the rest
    /// saturate at wl_fixed's range (a scale below 0 is 0).
    public func pointerGestureUpdate(dx: Double, dy: Double, scale: Double = 1, rotation: Double = 0, time: UInt32) {
        guard dx.isFinite, dy.isFinite, scale.isFinite, rotation.isFinite, let kind = gestures.activeKind else {
            return
        }
        idle.inputDidHappen()
        gestures.update(dx: dx, dy: dy, scale: scale, rotation: rotation, time: time)
        inputHandled.emit((.gestureUpdate(kind: kind, dx: dx, dy: dy, scale: scale, rotation: rotation), time))
    }

    /// The gesture in progress ends (`cancelled`: the client should undo what it did); nothing
    /// without one.
    public func pointerGestureEnd(cancelled: Bool, time: UInt32) {
        guard let kind = gestures.activeKind else { return }
        idle.inputDidHappen()
        gestures.end(cancelled: cancelled, time: time)
        inputHandled.emit((.gestureEnd(kind: kind, cancelled: cancelled), time))
    }

    /// One frame of a tablet tool: `event` and the `axes` that changed. The tablet and the tool
    /// appear at their first use; false (nothing done) when the tool would be one more than
    /// `Tablets.maximumTools`.
    @discardableResult
    public func tabletTool(
        _ tool: TabletToolDescription, _ event: TabletToolEvent, axes: TabletToolAxes = TabletToolAxes(),
        time: UInt32
    ) -> Bool {
        if case .motion(_, let x, let y) = event, !x.isFinite || !y.isFinite { return true }
        guard let found = tablets.tool(for: tool) else { return false }
        idle.inputDidHappen()
        found.handle(event, axes: axes, time: time)
        inputHandled.emit((.tabletTool(tool: tool, event: event, axes: axes), time))
        return true
    }

    // MARK: Queries (control socket, tests)

    /// The surface with pointer focus, and the pointer's position in its screen's coordinates.
    public var pointerFocus: Surface? { pointer.focus }
    /// The surface with keyboard focus.
    public var keyboardFocus: Surface? { keyboard.focus }
    /// The screen the pointer is on and its position there (that screen's coordinates); nil
    /// before the first motion.
    public var pointerPosition: (output: ScreenOutput, x: Double, y: Double)? {
        guard let output = pointer.output else { return nil }
        return (output, pointer.x, pointer.y)
    }
    /// The kind of the touchpad gesture in progress (nil: none).
    public var pointerGestureInProgress: PointerGestureKind? { gestures.activeKind }
    /// A tablet tool's state: the surface it is over, whether its tip is down, its held buttons;
    /// nil when no tool of that type and serial has been used.
    public func tabletToolState(_ tool: TabletToolDescription) -> (
        focus: Surface?, inProximity: Bool, down: Bool, buttons: [UInt32]
    )? {
        guard
            let found = tablets.tools.first(where: {
                $0.description.type == tool.type && $0.description.serial == tool.serial
            })
        else { return nil }
        return (found.focus, found.isInProximity, found.isDown, found.pressedButtons)
    }
    /// Whether input for `tool` would be taken (it exists, or the tablet has room for it).
    public func tabletAccepts(_ tool: TabletToolDescription) -> Bool { tablets.accepts(tool) }
    /// The cursor surface the pointer's focus client set (not drawn yet), and its hotspot.
    public var cursor: (surface: Surface?, hotspotX: Int32, hotspotY: Int32)? { pointer.cursor }

    // MARK: Keymap lookups (control socket)

    /// Whether the seat has a keymap (false: the names did not compile, or no XKB data).
    public var hasKeymap: Bool { keyboard.keymap != nil }

    /// Whether a nested backend's parent keymap replaces the seat's (false when strata's
    /// --keyboard-* options chose the keymap).
    public var followsParentKeymap = true

    /// The keysym called `name` (xkb names: `a`, `A`, `Return`, `F1`, `space`; case-insensitive
    /// when the exact name is unknown), nil when unknown.
    public static func keysym(named name: String) -> UInt32? {
        guard !name.isEmpty, name.utf8.count <= 64, !name.utf8.contains(0) else { return nil }
        var keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if keysym == 0 { keysym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE) }
        return keysym == 0 ? nil : keysym
    }

    /// The key that types the keysym called `name` (`Seat.keysym(named:)`), or nil when the
    /// name is unknown or no key of the keymap (nor of its extension) produces it.
    public func keyStroke(forKeysymNamed name: String) -> KeyStroke? {
        guard let keysym = Self.keysym(named: name) else { return nil }
        return keyboard.keymap?.keyStroke(for: keysym, anyKeycode: true)
    }

    /// Replaces the seat's keymap with the one `text` describes (xkb text format v1), e.g. the
    /// parent session's when nested, and sends it to every client's keyboard. Returns false (and
    /// keeps the current keymap) when the text does not compile, or when the seat does not follow
    /// a parent keymap (`followsParentKeymap`).
    @discardableResult
    public func useKeymap(text: String) -> Bool {
        guard followsParentKeymap, let keymap = Keymap(text: text) else { return false }
        keyboard.replaceKeymap(keymap)
        return true
    }

    /// The key that types `keysym`, or nil when no key of the keymap (nor its extension)
    /// produces it.
    public func keyStroke(forKeysym keysym: UInt32) -> KeyStroke? {
        keyboard.keymap?.keyStroke(for: keysym, anyKeycode: true)
    }

    /// The key that types `character` (`Seat.keysym(for:)`), or nil when no key of the keymap
    /// (nor its extension) produces it.
    public func keyStroke(for character: Unicode.Scalar) -> KeyStroke? {
        guard let keysym = Self.keysym(for: character) else { return nil }
        return keyboard.keymap?.keyStroke(for: keysym, anyKeycode: true)
    }

    // MARK: Focus

    /// The surface that should have keyboard focus: the topmost popup grab's, else the key
    /// window's root surface.
    private func updateKeyboardFocus() {
        var target: Surface?
        if compositor.windows.isLocked {
            // Keys go only to a lock surface while the session is locked.
            target = compositor.lockScreen.keyboardTarget
        } else if let grab = popupGrabs.last {
            target = grab.grabSurface
        } else if let key = compositor.windows.keyWindow {
            target = key.rootSurface
        }
        if let t = target, t.isDestroyed { target = nil }
        keyboard.setFocus(target)
    }

    /// Dismisses every popup grab, topmost first (a press outside the grabbing client).
    func dismissPopupGrabs() {
        guard !popupGrabs.isEmpty else { return }
        let grabs = popupGrabs
        popupGrabs.removeAll()
        for grab in grabs.reversed() { grab.grabDidEnd() }
        updateKeyboardFocus()
        pointer.repick()
    }

    /// Whether pointer events may go to a surface of `client` (popup grabs keep them to the
    /// grabbing client).
    func acceptsPointerFocus(_ client: OpaquePointer) -> Bool {
        guard let grab = popupGrabs.last else { return true }
        return grab.client == client
    }

    private func scheduleRepick() {
        // No pointer on any screen yet (headless runs, most of all): nothing to pick.
        guard pointer.isOnAScreen else { return }
        repickIdle.schedule()
    }

    /// Cancels the seat's pending work on the loop (Strata's shutdown, before the display goes).
    func stop() {
        repickIdle.cancel()
    }

    // MARK: Serials

    struct InputSerial {
        /// A release serial is valid for popup grabs and the selection (a menu may open on
        /// release), never for move and resize, which need the press.
        enum Kind { case button, release, key, touch, tablet }
        let serial: UInt32
        let kind: Kind
        weak var surface: Surface?
        weak var window: Window?
    }

    /// The seat's latest press (button, key, touch down, tablet tip): which client got it, on
    /// which surface, and when (CLOCK_MONOTONIC milliseconds, the clock of X timestamps). What
    /// `FocusRequestRule` calls the user's latest input.
    struct LatestPress {
        let client: OpaquePointer
        weak var surface: Surface?
        let monotonicMilliseconds: UInt32
    }
    private(set) var latestPress: LatestPress?

    /// Whether the seat's latest press went to `client`.
    func hasLatestPress(_ client: OpaquePointer) -> Bool {
        latestPress?.client == client
    }

    /// Remembers a press serial sent to `client`, so grabs and moves can be checked against it.
    func recordInputSerial(
        _ serial: UInt32, kind: InputSerial.Kind, client: OpaquePointer, surface: Surface?, window: Window?
    ) {
        if kind != .release {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let milliseconds = UInt64(now.tv_sec) &* 1000 &+ UInt64(now.tv_nsec / 1_000_000)
            latestPress = LatestPress(
                client: client, surface: surface, monotonicMilliseconds: UInt32(truncatingIfNeeded: milliseconds))
        }
        var ring = inputSerials[client] ?? []
        ring.append(InputSerial(serial: serial, kind: kind, surface: surface, window: window))
        if ring.count > Self.serialsPerClient { ring.removeFirst(ring.count - Self.serialsPerClient) }
        inputSerials[client] = ring
    }

    private func inputSerial(_ serial: UInt32, client: OpaquePointer) -> InputSerial? {
        inputSerials[client]?.last { $0.serial == serial }
    }

    private func isPressSerial(_ serial: UInt32, client: OpaquePointer, window: Window) -> Bool {
        guard let entry = inputSerial(serial, client: client), entry.kind == .button else { return false }
        return entry.window === window
    }

    /// Forgets a client's serials once it holds no seat, pointer, keyboard or touch resource
    /// (serials are only ever sent through those), so a later client at the same address
    /// cannot inherit them.
    func forgetClientIfUnused(_ client: OpaquePointer) {
        let used =
            bindings.contains { $0.client == client } || pointer.bindings.contains { $0.client == client }
            || keyboard.bindings.contains { $0.client == client } || touch.bindings.contains { $0.client == client }
        if !used {
            inputSerials[client] = nil
            if latestPress?.client == client { latestPress = nil }
        }
    }

    // MARK: Keyboard focus followers

    /// The keyboard focus moved (or its surface died): the selections are offered to the new
    /// focus client, text inputs follow the focus.
    func keyboardFocusDidChange() {
        let focus = keyboard.focus
        if shortcutsFocus !== focus {
            shortcutsFocus?.shortcutsInhibitor?.setActive(false)
            shortcutsFocus = focus
            focus?.shortcutsInhibitor?.setActive(true)
        }
        clipboard.sendToFocus()
        primarySelection.sendToFocus()
        textInputs.keyboardFocusDidChange(to: keyboard.focus)
    }
}
