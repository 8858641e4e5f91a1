import CStrataServerGlue
import CWaylandServer
import StrataModel

/// One drag-and-drop session of the seat (wl_data_device.start_drag), from the press that began
/// it to the release (or touch up) that ends it.
///
/// It holds the input that drives it (the pointer, or one touch point): while it lasts the pointer
/// has no focus (the seat's pointer grab is `.drag`) and the touch point's events go nowhere
/// else. The surface under the point (the scene's hit test, as the pointer's focus) gets the
/// data device's enter with a new offer, motion, and leave when the point moves on; a drag
/// without a source is shown only to the origin client's surfaces, with no offer. The release
/// drops: over a destination that accepted a type and an action the destination gets `drop` and
/// the source `dnd_drop_performed`, otherwise the source is cancelled; the destination then gets
/// `leave`, and a dropped offer stays live until `finish`. The icon surface (role
/// `wl_data_device-icon`) is drawn by `DragIconLayer` at the point, moved by its
/// wl_surface.offset. Each step is told to the trace (`Seat.dragChanged`). Over an X window's
/// surface the destination is the XWM's XDND target for it (`DragDestination`, `XDropTarget`)
/// instead of a data device.
final class Drag {
    unowned let seat: Seat
    /// The touch point that drives the drag; nil: the pointer.
    let touchID: Int32?
    /// The client that began the drag.
    let client: OpaquePointer
    let hasSource: Bool
    private(set) weak var source: DataSource?
    private(set) weak var origin: Surface?
    private(set) weak var icon: Surface?
    /// The icon's role object, held while the drag lasts (its commits move and redraw the icon).
    private let iconRole: SurfaceRole?
    /// The icon's place relative to the point (the sum of its wl_surface.offset / attach x, y).
    private(set) var iconOffset: (x: Int32, y: Int32) = (0, 0)

    /// The screen the point is on and its position there.
    private(set) weak var output: ScreenOutput?
    private(set) var x: Double
    private(set) var y: Double

    /// The surface under the point that got enter, the data device it went to, and its offer.
    private(set) weak var focus: Surface?
    private weak var focusDevice: DataDevice?
    private weak var focusOffer: DataOffer?
    /// The focus when it is not a Wayland client's: an X window through XDND.
    private var destination: DragDestination?
    private(set) var isEnded = false

    init(
        seat: Seat, touchID: Int32?, client: OpaquePointer, source: DataSource?, origin: Surface, icon: Surface?,
        output: ScreenOutput, x: Double, y: Double
    ) {
        self.seat = seat
        self.touchID = touchID
        self.client = client
        hasSource = source != nil
        self.source = source
        self.origin = origin
        self.icon = icon
        iconRole = icon?.role as? DragIconRole
        self.output = output
        self.x = x
        self.y = y
        source?.dragState = .dragging
    }

    // MARK: Driven by the pointer or the touch point

    /// The point moved (screen coordinates of `output`).
    func motion(on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        guard !isEnded else { return }
        self.output = output
        self.x = x
        self.y = y
        seat.compositor.dragIcon.update()
        guard !updateFocus() else { return }
        if let destination, let point = globalPoint() {
            destination.dragDidMove(x: point.x, y: point.y)
        } else if let device = focusDevice, !device.isDestroyed, let local = localPoint() {
            wl_data_device_send_motion(
                device.resource, time, wl_fixed_from_double(local.x), wl_fixed_from_double(local.y))
        }
    }

    /// What is under a still point may have changed (stacking, visibility, a surface's commit).
    func repick() {
        guard !isEnded else { return }
        _ = updateFocus()
    }

    /// The release (or touch up): the drop, then the end.
    func drop() {
        guard !isEnded else { return }
        var end = DragEvent.End.notAccepted
        var action: UInt32 = 0
        if let destination {
            if let source, source.isLive, destination.dragWillDrop() {
                source.dropDidHappen()
                end = .dropped
                action = source.currentAction
            }
        } else if let device = focusDevice, !device.isDestroyed, focus.map({ !$0.isDestroyed }) == true {
            if hasSource {
                if let source, source.isLive, let offer = focusOffer, !offer.isDestroyed, offer.dropWillHappen() {
                    wl_data_device_send_drop(device.resource)
                    source.dropDidHappen()
                    end = .dropped
                    action = source.currentAction
                }
            } else {
                // A drag within one client: it moves the data itself.
                wl_data_device_send_drop(device.resource)
                end = .dropped
            }
        }
        if end != .dropped, let source, source.isLive { source.dragDidFail() }
        finish(end, action: action)
    }

    /// The drag ends without a drop (`reason`): the source is cancelled (v3), the destination
    /// left.
    func cancel(_ reason: DragEvent.End) {
        guard !isEnded else { return }
        if let source, source.isLive { source.dragDidFail() }
        finish(reason, action: 0)
    }

    private func finish(_ end: DragEvent.End, action: UInt32) {
        setFocus(nil, window: nil, x: 0, y: 0)
        isEnded = true
        if let source, source.dragState == .dragging { source.dragState = .none }
        seat.dragDidEnd(self)
        seat.compositor.dragIcon.update()
        seat.dragChanged.emit(.ended(end, action: action))
    }

    // MARK: Told by the seat

    /// A surface dies: the origin's death cancels the drag, the destination's leaves it, the
    /// icon's hides it.
    func surfaceWillDestroy(_ surface: Surface) {
        if surface === origin {
            cancel(.originDestroyed)
        } else if surface === focus {
            setFocus(nil, window: nil, x: 0, y: 0)
        }
        if surface === icon {
            icon = nil
            seat.compositor.dragIcon.update()
        }
    }

    /// The source died: the drag is cancelled (no event to the dead source).
    func sourceWillDestroy(_ dead: DataSource) {
        guard dead === source else { return }
        cancel(.sourceDestroyed)
    }

    /// A data device died: a destination that loses its device gets nothing more.
    func deviceWillDestroy(_ device: DataDevice) {
        if device === focusDevice {
            focusOffer?.dragDidLeave()
            focusDevice = nil
            focusOffer = nil
        }
    }

    /// The icon committed: its offset moves it from the point; new pixels are drawn.
    func iconDidCommit(_ surface: Surface) {
        guard surface === icon else { return }
        let offset = surface.committedOffset
        iconOffset = (Coordinate.sum(iconOffset.x, offset.x), Coordinate.sum(iconOffset.y, offset.y))
        seat.compositor.dragIcon.update(contentChanged: true)
    }

    // MARK: Focus

    /// Moves the drag to the surface under the point; true if it changed.
    private func updateFocus() -> Bool {
        var hit: (surface: Surface, window: Window, x: Double, y: Double)?
        if let output, let found = seat.compositor.scene.surface(at: x, y, on: output), !found.surface.isDestroyed,
            seat.acceptsPointerFocus(found.surface.client), hasSource || found.surface.client == client
        {
            hit = found
        }
        guard hit?.surface !== focus else { return false }
        setFocus(hit?.surface, window: hit?.window, x: hit?.x ?? 0, y: hit?.y ?? 0)
        return true
    }

    private func setFocus(_ surface: Surface?, window: Window?, x: Double, y: Double) {
        if focus != nil || focusDevice != nil {
            let left = destination
            destination = nil
            left?.dragDidLeave()
            focusOffer?.dragDidLeave()
            if let device = focusDevice, !device.isDestroyed { wl_data_device_send_leave(device.resource) }
            focus = nil
            focusDevice = nil
            focusOffer = nil
            if !isEnded { seat.dragChanged.emit(.left) }
        }
        guard let surface, !isEnded else { return }
        // The surface is the drag's focus even when its client has no data device (it hears
        // nothing then), so motion over it does not look for one again.
        focus = surface
        seat.dragChanged.emit(.entered(window: window?.id))
        if let source, source.isLive, let point = globalPoint(),
            let found = seat.compositor.xwayland?.wm?.dragDestination(
                over: surface, source: source, x: point.x, y: point.y)
        {
            destination = found
            return
        }
        guard let device = seat.clipboard.dragDevice(of: surface.client) else { return }
        focusDevice = device
        var offer: DataOffer?
        if let source, source.isLive {
            offer = DataOffer.announceDrag(source, on: device)
            focusOffer = offer
        }
        wl_data_device_send_enter(
            device.resource, seat.nextSerial(), surface.resource,
            wl_fixed_from_double(x), wl_fixed_from_double(y), offer?.resource)
        offer?.chooseAction()
    }

    /// Whether `surface` is `origin` or one of its subsurfaces (a bounded walk up the tree).
    static func isOrigin(_ origin: Surface, of surface: Surface) -> Bool {
        var current: Surface? = surface
        var depth = 0
        while let s = current, depth <= TreeLimits.maxSubsurfaceDepth {
            if s === origin { return true }
            current = s.subsurface?.parent
            depth += 1
        }
        return false
    }

    /// The point in global layout coordinates.
    private func globalPoint() -> (x: Double, y: Double)? {
        guard let output else { return nil }
        return (Double(output.screen.origin.x) + x, Double(output.screen.origin.y) + y)
    }

    /// The point in the focus surface's coordinates.
    private func localPoint() -> (x: Double, y: Double)? {
        guard let focus, let p = focus.placement, let output, p.screen == output.screen.id else { return nil }
        return (x - Double(p.x), y - Double(p.y))
    }
}
