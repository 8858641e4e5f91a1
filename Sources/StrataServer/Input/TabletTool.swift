import CStrataServerGlue
import CWaylandServer
import Glibc
import StrataModel

/// One tool of the seat's tablet: where it is, the surface it is over (its focus), whether its
/// tip is down and which buttons are held, and every client's zwp_tablet_tool_v2 for it.
///
/// The focus is the topmost surface under the tool (as for the pointer: lock surfaces only while
/// locked, the grabbing client only during a popup grab), and stays while the tip is down.
/// Each input frame goes to the focus client's tool objects and ends with one frame event.
final class TabletTool {
    unowned let tablets: Tablets
    let description: TabletToolDescription
    /// Tool objects per client (one per tablet seat, so at most
    /// `ClientBudget.maxTabletSeatsPerClient` each).
    private var bindingsByClient: [OpaquePointer: [TabletToolBinding]] = [:]

    private(set) weak var output: ScreenOutput?
    private(set) var x = 0.0
    private(set) var y = 0.0
    private(set) var isInProximity = false
    private(set) var isDown = false
    private(set) var pressedButtons: [UInt32] = []
    private(set) weak var focus: Surface?
    private weak var focusWindow: Window?
    /// The serial of the last proximity_in (set_cursor must quote it).
    private var proximitySerial: UInt32 = 0
    /// The last tilt sent (one axis may change alone; the event carries both).
    private var tilt = (x: 0.0, y: 0.0)
    /// Whether the focus client is owed a frame event.
    private var frameDue = false

    /// What the focus client asked the tool's cursor to be (kept, not drawn).
    enum CursorRequest: Equatable {
        case `default`
        case hidden
        case surface(ObjectIdentifier, hotspotX: Int32, hotspotY: Int32)
    }
    private(set) var cursorRequest = CursorRequest.default

    init(tablets: Tablets, description: TabletToolDescription) {
        self.tablets = tablets
        self.description = description
    }

    private var seat: Seat { tablets.seat }

    // MARK: Objects

    func add(_ binding: TabletToolBinding) {
        bindingsByClient[binding.client, default: []].append(binding)
    }

    func remove(_ binding: TabletToolBinding) {
        guard var list = bindingsByClient[binding.client] else { return }
        list.removeAll { $0 === binding }
        bindingsByClient[binding.client] = list.isEmpty ? nil : list
    }

    // MARK: Input

    func handle(_ event: TabletToolEvent, axes: TabletToolAxes, time: UInt32) {
        switch event {
        case .motion(let screen, let x, let y):
            guard x.isFinite, y.isFinite,
                let output = seat.compositor.scene.outputs.first(where: { $0.screen.id == screen })
            else { return }
            self.output = output
            self.x = x
            self.y = y
            isInProximity = true
            if !isDown { updateFocus(time: time) }
            if let focus, !focus.isDestroyed, let local = localPoint(in: focus) {
                let fx = WireFixed.clamped(local.x), fy = WireFixed.clamped(local.y)
                send { zwp_tablet_tool_v2_send_motion($0.resource, fx, fy) }
            }
            sendAxes(axes)
        case .axes:
            guard isInProximity else { return }
            sendAxes(axes)
        case .tip(let down):
            guard isInProximity, down != isDown else { return }
            sendAxes(axes)
            isDown = down
            if down {
                guard let focus, !focus.isDestroyed else {
                    // A touch outside the grabbing client's surfaces ends its popups.
                    seat.dismissPopupGrabs()
                    break
                }
                let serial = seat.nextSerial()
                seat.recordInputSerial(serial, kind: .tablet, client: focus.client, surface: focus, window: focusWindow)
                if let window = focusWindow {
                    seat.compositor.withInputCause(.click, request: "tablet-tip") {
                        seat.compositor.windows.pointerDidClick(window)
                    }
                }
                guard !focus.isDestroyed else { break }
                send { zwp_tablet_tool_v2_send_down($0.resource, serial) }
            } else {
                send { zwp_tablet_tool_v2_send_up($0.resource) }
                flushFrame(time: time)
                updateFocus(time: time)
            }
        case .button(let button, let pressed):
            guard isInProximity else { return }
            if pressed {
                guard !pressedButtons.contains(button), pressedButtons.count < Self.maximumButtons else { return }
                pressedButtons.append(button)
            } else {
                guard let index = pressedButtons.firstIndex(of: button) else { return }
                pressedButtons.remove(at: index)
            }
            sendButton(button, pressed: pressed)
            sendAxes(axes)
        case .proximityOut:
            guard isInProximity else { return }
            sendAxes(axes)
            leave(time: time)
            isInProximity = false
            output = nil
            return
        }
        flushFrame(time: time)
    }

    /// Most buttons held at once (a stylus has two or three).
    static let maximumButtons = 16

    /// The session locked or unlocked: the tool leaves its surface; its next motion finds the
    /// surface under it among what is shown now.
    func sessionLockDidChange() {
        guard isInProximity else { return }
        leave(time: seat.compositor.clock.milliseconds)
        isDown = false
    }

    /// A surface dies: a tool over it leaves it (proximity_out and frame; the surface is still
    /// valid in its destroy path), and finds a new one at its next motion.
    func surfaceWillDestroy(_ surface: Surface) {
        guard focus === surface else { return }
        let time = seat.compositor.clock.milliseconds
        for binding in bindingsByClient[surface.client] ?? [] where binding.isInProximity {
            binding.isInProximity = false
            guard binding.isLive else { continue }
            zwp_tablet_tool_v2_send_proximity_out(binding.resource)
            zwp_tablet_tool_v2_send_frame(binding.resource, time)
        }
        frameDue = false
        focus = nil
        focusWindow = nil
    }

    /// Up, the held buttons' releases and proximity_out to the focus client, in one frame.
    private func leave(time: UInt32) {
        if isDown { send { zwp_tablet_tool_v2_send_up($0.resource) } }
        isDown = false
        let buttons = pressedButtons
        pressedButtons.removeAll()
        for button in buttons { sendButton(button, pressed: false) }
        setFocus(nil, window: nil, time: time)
    }

    private func sendButton(_ button: UInt32, pressed: Bool) {
        guard let focus, !focus.isDestroyed, hasListeners(focus.client) else { return }
        let serial = seat.nextSerial()
        if pressed {
            seat.recordInputSerial(serial, kind: .tablet, client: focus.client, surface: focus, window: focusWindow)
        }
        let state = pressed ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED
        send { zwp_tablet_tool_v2_send_button($0.resource, serial, button, state.rawValue) }
    }

    /// The axes the tool has, clamped to the spec's ranges (values that are not finite dropped).
    private func sendAxes(_ axes: TabletToolAxes) {
        guard !axes.isEmpty, focus != nil else { return }
        let has = description.capabilities
        if let p = axes.pressure, p.isFinite, has.contains(.pressure) {
            let value = Self.unit(p)
            send { zwp_tablet_tool_v2_send_pressure($0.resource, value) }
        }
        if let d = axes.distance, d.isFinite, has.contains(.distance) {
            let value = Self.unit(d)
            send { zwp_tablet_tool_v2_send_distance($0.resource, value) }
        }
        if has.contains(.tilt), axes.tiltX?.isFinite == true || axes.tiltY?.isFinite == true {
            if let tx = axes.tiltX, tx.isFinite { tilt.x = min(max(tx, -90), 90) }
            if let ty = axes.tiltY, ty.isFinite { tilt.y = min(max(ty, -90), 90) }
            let fx = WireFixed.clamped(tilt.x), fy = WireFixed.clamped(tilt.y)
            send { zwp_tablet_tool_v2_send_tilt($0.resource, fx, fy) }
        }
        if let r = axes.rotation, r.isFinite, has.contains(.rotation) {
            var degrees = fmod(r, 360)
            if degrees < 0 { degrees += 360 }
            let value = WireFixed.clamped(degrees)
            send { zwp_tablet_tool_v2_send_rotation($0.resource, value) }
        }
        if let s = axes.slider, s.isFinite, has.contains(.slider) {
            let value = Int32((min(max(s, -1), 1) * 65535).rounded())
            send { zwp_tablet_tool_v2_send_slider($0.resource, value) }
        }
        if has.contains(.wheel), axes.wheelDegrees?.isFinite == true || axes.wheelClicks != 0 {
            let degrees = WireFixed.clamped(
                min(max(axes.wheelDegrees.flatMap { $0.isFinite ? $0 : nil } ?? 0, -360), 360))
            let clicks = min(max(axes.wheelClicks, -1000), 1000)
            send { zwp_tablet_tool_v2_send_wheel($0.resource, degrees, clicks) }
        }
    }

    /// 0…1 as the spec's 0…65535.
    private static func unit(_ v: Double) -> UInt32 {
        UInt32((min(max(v, 0), 1) * 65535).rounded())
    }

    // MARK: Focus

    private func updateFocus(time: UInt32) {
        guard let output else { return setFocus(nil, window: nil, time: time) }
        if seat.compositor.windows.isLocked {
            let found = seat.compositor.scene.lockSurface(at: x, y, on: output)
            guard let found, !found.surface.isDestroyed else { return setFocus(nil, window: nil, time: time) }
            return setFocus(found.surface, window: nil, time: time)
        }
        guard let found = seat.compositor.scene.surface(at: x, y, on: output), !found.surface.isDestroyed,
            seat.acceptsPointerFocus(found.surface.client)
        else { return setFocus(nil, window: nil, time: time) }
        setFocus(found.surface, window: found.window, time: time)
    }

    private func setFocus(_ surface: Surface?, window: Window?, time: UInt32) {
        guard surface !== focus else { return }
        if let old = focus, !old.isDestroyed {
            send { zwp_tablet_tool_v2_send_proximity_out($0.resource) }
            flushFrame(time: time)
            for binding in bindingsByClient[old.client] ?? [] { binding.isInProximity = false }
        }
        focus = surface
        focusWindow = window
        cursorRequest = .default
        guard let surface, hasListeners(surface.client) else { return }
        proximitySerial = seat.nextSerial()
        for binding in bindingsByClient[surface.client] ?? [] where binding.isLive {
            guard let tablet = binding.tablet else { continue }
            binding.isInProximity = true
            zwp_tablet_tool_v2_send_proximity_in(binding.resource, proximitySerial, tablet.resource, surface.resource)
            frameDue = true
        }
    }

    private func hasListeners(_ client: OpaquePointer) -> Bool {
        bindingsByClient[client]?.contains { $0.isLive } ?? false
    }

    /// The tool in `surface`'s coordinates (when the surface is shown on the tool's screen).
    private func localPoint(in surface: Surface) -> (x: Double, y: Double)? {
        guard let p = surface.placement, let output, p.screen == output.screen.id else { return nil }
        return (x - Double(p.x), y - Double(p.y))
    }

    /// Sends one event to the focus client's tool objects that were told proximity_in.
    private func send(_ body: (TabletToolBinding) -> Void) {
        guard let focus, !focus.isDestroyed else { return }
        for binding in bindingsByClient[focus.client] ?? [] where binding.isInProximity && binding.isLive {
            body(binding)
            frameDue = true
        }
    }

    private func flushFrame(time: UInt32) {
        guard frameDue else { return }
        frameDue = false
        send { zwp_tablet_tool_v2_send_frame($0.resource, time) }
        frameDue = false
    }

    // MARK: Cursor

    /// zwp_tablet_tool_v2.set_cursor: honoured when the tool is over a surface of the client and
    /// the serial is that of the last proximity_in (else ignored, as for wl_pointer).
    func setCursor(from binding: TabletToolBinding, serial: UInt32, surface: Surface?, hotspotX: Int32, hotspotY: Int32)
    {
        guard let focus, focus.client == binding.client, serial == proximitySerial else { return }
        cursorRequest =
            surface.map { .surface(ObjectIdentifier($0), hotspotX: hotspotX, hotspotY: hotspotY) } ?? .hidden
    }
}
