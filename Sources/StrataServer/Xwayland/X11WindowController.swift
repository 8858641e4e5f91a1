import StrataModel

/// The XWM's handler: decides with the model what X events about managed windows do (the
/// window shown or hidden, its frame from the placement policy, its states, whether it may
/// become key). Beside `X11Window`, the window content it drives.
final class X11WindowController: XWMHandler {
    private unowned let wm: any X11WindowHost
    private var compositor: Compositor { wm.compositor }

    init(wm: any X11WindowHost) {
        self.wm = wm
    }

    /// The windows whose `WM_TRANSIENT_FOR` names each window id that has no model window yet
    /// (`X11Window.awaitedParent`): adopted when it maps, without a look at every window. A
    /// window is listed under one id at most.
    var transientsAwaitingParent: [UInt32: Set<UInt32>] = [:]

    func windowDidMap(_ window: X11Window) { window.didMap() }
    func windowDidUnmap(_ window: X11Window) { window.didUnmap() }
    func windowDidDestroy(_ window: X11Window) { window.didDestroy() }
    func windowPropertiesDidChange(_ window: X11Window) { window.propertiesDidChange() }
    func windowDidConfigure(_ window: X11Window, to geometry: XGeometry) { window.didConfigure(geometry) }

    /// An unmapped window gets what it asks; a maximized or fullscreen one keeps its state's
    /// frame (told again, as ICCCM asks); a shown one gets the frame the placement policy
    /// decides for the requested origin and size (at most the work area's, `constrainedSize`),
    /// the model taking the origin now and the size at the surface's next commit.
    func configureRequest(_ window: X11Window, asks geometry: XGeometry) -> Rect {
        let requested = Rect(
            x: Int(geometry.x), y: Int(geometry.y), width: Int(geometry.width), height: Int(geometry.height))
        if let fixed = window.fixedFrame, window.window?.isVisible == true { return fixed }
        guard let model = window.window, model.isVisible, let screen = model.screen else { return requested }
        let placement = compositor.windows.placement
        let size = placement.constrainedSize(requested.size, on: screen)
        let frame = placement.initialFrame(
            for: model, size: size, requestedOrigin: Point(x: Double(geometry.x), y: Double(geometry.y)),
            on: screen)
        wm.setModelFrame(of: window, Rect(x: frame.x, y: frame.y, width: model.frame.width, height: model.frame.height))
        return frame
    }

    /// Maximize needs both directions; `_NET_WM_STATE_ABOVE` moves a normal-level window to the
    /// above level and back; `_NET_WM_STATE_MODAL` makes the model window modal for its parent.
    func stateRequest(_ window: X11Window, _ request: NetWMStateRequest) {
        let current = NetWMStates(
            maximizedVertically: window.maximizedVertically, maximizedHorizontally: window.maximizedHorizontally,
            fullscreen: window.wantsFullscreen, above: window.isAbove, modal: window.isModal)
        let wanted = request.applied(to: current)
        if wanted.above != window.isAbove { window.setAbove(wanted.above) }
        if wanted.modal != window.isModal {
            window.isModal = wanted.modal
            wm.writeState(of: window)
            window.applyTransientParent()
        }
        window.setState(
            maximizedVertically: wanted.maximizedVertically, maximizedHorizontally: wanted.maximizedHorizontally,
            fullscreen: wanted.fullscreen)
    }

    /// Through the focus rule, then the key-window policy (which may refuse it); an iconic
    /// window is shown again first. Refused: the window demands attention until it becomes key.
    /// Its cause: a focus request of the window's X client (`keyRequestWasRefused` when refused).
    func activationRequest(_ window: X11Window, timestamp: UInt32) {
        guard let model = window.window, !model.isClosed else { return }
        let pid = Compositor.requester(of: model)
        let requester = pid.isEmpty ? "the X client of window 0x\(String(window.id, radix: 16))" : pid
        compositor.withCause(.focusRequest, request: "_NET_ACTIVE_WINDOW", requester: requester) {
            guard allowsActivation(of: window, model: model, timestamp: timestamp) else {
                if !window.demandsAttention, !model.isKeyWindow {
                    window.demandsAttention = true
                    wm.writeState(of: window)
                }
                return
            }
            if window.isIconic, model.isHidden {
                compositor.windows.show(model, makeKey: true)
            } else if model.isVisible {
                compositor.windows.makeKeyOrRefuse(model)
            }
        }
    }

    /// Minimized in the model (hidden, its state kept; the model's notification unmaps it in X,
    /// `XWM.setIconic`), as xdg_toplevel.set_minimized.
    func iconifyRequest(_ window: X11Window) {
        guard let model = window.window, model.isVisible else { return }
        compositor.withClientCause(model, request: "WM_CHANGE_STATE iconic") { compositor.windows.minimize(model) }
    }

    /// The close path of `strata-ctl close` (the window content's close request: WM_DELETE_WINDOW
    /// or KillClient, `XWM.close`). Any X client may ask: X lets any client destroy any window
    /// or kill any client already (`XKillClient`, `xdotool windowclose`), so this gives none a
    /// power it lacked (docs/xwayland.md, "EWMH").
    func closeRequest(_ window: X11Window) {
        guard let model = window.window, !model.isClosed else { return }
        model.content?.closeRequest()
    }

    func moveResizeRequest(_ window: X11Window, direction: UInt32) {
        _ = window.beginMoveResize(direction: direction)
    }

    // MARK: Override-redirect windows, ordered with their parent

    /// The window an override-redirect window belongs to: its `WM_TRANSIENT_FOR` when that is a
    /// shown toplevel; else the key window when it is a toplevel of the same X client; else that
    /// client's frontmost shown toplevel; else none.
    func parentOfOverrideRedirect(_ popup: X11Window) -> Window? {
        func shown(_ candidate: X11Window?) -> Window? {
            guard let candidate, !candidate.isOverrideRedirect, candidate !== popup, let model = candidate.window,
                model.isVisible
            else { return nil }
            return model
        }
        if popup.transientFor != 0, let parent = shown(wm.window(popup.transientFor)) { return parent }
        let client = wm.xClient(of: popup.id)
        func sameClient(_ model: Window) -> Bool {
            guard let content = model.content as? X11Window, content.wm === wm else { return false }
            return wm.xClient(of: content.id) == client && shown(content) != nil
        }
        if let key = compositor.windows.keyWindow, sameClient(key) { return key }
        return compositor.windows.windows.last(where: sameClient)
    }

    /// The frontmost shown override-redirect window ordered above `parent` (other than
    /// `except`): a submenu goes above the menu shown before it.
    func frontmostOverrideRedirect(above parent: Window, except: X11Window) -> Window? {
        compositor.windows.windows.last { model in
            guard let content = model.content as? X11Window, content !== except, content.wm === wm,
                content.isOverrideRedirect, model.isVisible
            else { return false }
            return content.orderedAbove === parent
        }
    }

    /// A window changed its place in the stack: the override-redirect windows ordered above it
    /// follow it, in their order.
    func reorderOverrideRedirects(above parent: Window) {
        guard !isReordering, let content = parent.content as? X11Window, content.wm === wm, !content.isOverrideRedirect
        else { return }
        let popups = compositor.windows.windows.filter { model in
            guard let popup = model.content as? X11Window, popup.wm === wm, popup.isOverrideRedirect, model.isVisible
            else { return false }
            return popup.orderedAbove === parent
        }
        guard !popups.isEmpty else { return }
        isReordering = true
        var below = parent
        for popup in popups {
            compositor.windows.order(popup, above: below)
            below = popup
        }
        isReordering = false
    }
    /// Set while the menus are reordered (their own stacking notifications change nothing).
    private var isReordering = false

    /// `FocusRequestRule` for a `_NET_ACTIVE_WINDOW` about `window`, whose X client stands for the
    /// requester (X has no privileged clients): honoured when no window is key, when the key
    /// window is an X window of the same X client, or when the seat's latest press went to a
    /// window of that X client and `timestamp` (the message's user time) is not older than it.
    private func allowsActivation(of window: X11Window, model: Window, timestamp: UInt32) -> Bool {
        let client = wm.xClient(of: window.id)
        let key = compositor.windows.keyWindow
        let keyX11 = key?.content as? X11Window
        let ownsKey = keyX11.map { $0.wm === wm && wm.xClient(of: $0.id) == client } ?? false
        var hasLatestInput = false
        if let press = compositor.seat.latestPress, let xwaylandClient = wm.xwaylandClient,
            press.client == xwaylandClient,
            let surface = press.surface, let pressed = wm.managedWindows.first(where: { $0.surface === surface }),
            wm.xClient(of: pressed.id) == client
        {
            hasLatestInput = FocusRequestRule.isXTimestamp(timestamp, notOlderThan: press.monotonicMilliseconds)
        }
        let facts = FocusRequestRule.Facts(
            hasKeyWindow: key != nil, requesterOwnsKeyWindow: ownsKey,
            requesterIsPrivileged: false, requesterHasLatestInput: hasLatestInput)
        return compositor.focusRequests.decide(
            facts, request: "_NET_ACTIVE_WINDOW", window: model,
            requester: "the X client of window 0x\(String(window.id, radix: 16))")
    }
}
