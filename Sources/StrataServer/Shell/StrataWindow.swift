import CStrataServerGlue
import CWaylandServer
import StrataModel

/// `strata_window_v1`: the window-model requests of one xdg_toplevel (level, show without key,
/// can become key, screen, make key; modal since version 2) and the events about that window alone. The events come
/// from `StrataWindowExtension`'s one observer of the model.
///
/// A level request is evaluated when the window maps (or at once if it is mapped), because the
/// allow-list is keyed by the app id, which clients set before their first buffer; every request
/// gets one answer: `level_changed` (granted) or `level_denied`.
final class StrataWindow: ResourceObject {
    private(set) weak var windowExtension: StrataWindowExtension?
    private(set) weak var toplevel: XdgToplevel?
    private(set) weak var window: Window?
    private let windowID: WindowID?
    /// A set_level not evaluated yet.
    private(set) var pendingLevel: WindowLevel?
    /// Whether the next map shows the window without making it key.
    private(set) var showWithoutKey = false
    /// A granted set_level whose level_changed is owed (the model posts only real changes).
    private var owesLevelAnswer = false

    init?(
        extension windowExtension: StrataWindowExtension, toplevel: XdgToplevel?, client: OpaquePointer,
        version: UInt32, id: UInt32
    ) {
        self.windowExtension = windowExtension
        let window = toplevel?.window.flatMap { $0.isClosed ? nil : $0 }
        self.toplevel = window == nil ? nil : toplevel
        self.window = window
        self.windowID = window?.id
        super.init(
            client: client, interface: strata_strata_window_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
        if let toplevel, let window {
            toplevel.strataWindow = self
            windowExtension.register(self, for: window)
        }
    }

    private var isInert: Bool { window == nil || window?.isClosed == true || toplevel == nil }

    override func resourceDidDestroy() {
        if let windowID { windowExtension?.unregister(self, for: windowID) }
        if toplevel?.strataWindow === self { toplevel?.strataWindow = nil }
    }

    /// The window closed: the object turns inert.
    func windowDidClose() {
        window = nil
        toplevel = nil
    }

    // MARK: Events

    func send(_ body: (OpaquePointer) -> Void) {
        guard !isDestroyed else { return }
        body(resource)
    }

    func sendInitialState() {
        guard let window, !isInert else { return }
        send { strata_window_v1_send_level_changed($0, window.level.wireValue) }
        if window.isVisible { send { strata_window_v1_send_did_become_visible($0) } }
        if window.isKeyWindow { send { strata_window_v1_send_did_become_key($0) } }
    }

    /// The model moved the window to `level` (a granted request, or a rule).
    func levelDidChange(_ level: WindowLevel) {
        owesLevelAnswer = false
        send { strata_window_v1_send_level_changed($0, level.wireValue) }
    }

    // MARK: Told by the toplevel

    /// The toplevel is about to be shown: evaluates a waiting level request. Returns whether the
    /// window should become key (false once after set_show_without_key).
    func windowWillMap() -> Bool {
        evaluatePendingLevel()
        defer { showWithoutKey = false }
        return !showWithoutKey
    }

    private func evaluatePendingLevel() {
        guard let requested = pendingLevel, let window, let compositor = windowExtension?.compositor else { return }
        pendingLevel = nil
        owesLevelAnswer = true
        if compositor.askLevelDelegate(
            requested, for: window, request: "strata_window_v1.set_level",
            requester: "pid \(StartedProcessIDs.processID(of: client))",
            answered: { [weak self] level in self?.delegateDidAnswerLevel(requested, level) })
        {
            return
        }
        let decision = compositor.evaluateLevelRequest(requested, for: window)
        switch decision {
        case .granted(let level):
            // A real change was answered by the model's notification; an unchanged level is answered here.
            if owesLevelAnswer { levelDidChange(level) }
        case .denied(let denial):
            owesLevelAnswer = false
            let reason: strata_window_v1_denial_reason
            switch denial {
            case .notAllowed: reason = STRATA_WINDOW_V1_DENIAL_REASON_NOT_ALLOWED
            case .overriddenByRule: reason = STRATA_WINDOW_V1_DENIAL_REASON_OVERRIDDEN_BY_RULE
            }
            send { strata_window_v1_send_level_denied($0, requested.wireValue, reason.rawValue) }
        }
    }

    /// The stacking delegate decided a level request: the level it set (answered by the model's
    /// notification when it changed), or a denial.
    private func delegateDidAnswerLevel(_ requested: WindowLevel, _ level: WindowLevel?) {
        guard let level else {
            owesLevelAnswer = false
            send {
                strata_window_v1_send_level_denied(
                    $0, requested.wireValue, STRATA_WINDOW_V1_DENIAL_REASON_NOT_ALLOWED.rawValue)
            }
            return
        }
        if owesLevelAnswer { levelDidChange(level) }
    }

    // MARK: Requests

    func handleSetLevelRequest(_ level: Int32) {
        guard !isInert else { return }
        pendingLevel = WindowLevel(rawValue: Double(level))
        if let window, window.isVisible { evaluatePendingLevel() }
    }

    func handleSetCanBecomeKeyRequest(_ value: UInt32) throws(ProtocolError) {
        guard value <= 1 else {
            throw ProtocolError(
                code: STRATA_WINDOW_V1_ERROR_INVALID_BOOLEAN.rawValue, "set_can_become_key(\(value)): not 0 or 1")
        }
        guard !isInert, let window, let compositor = windowExtension?.compositor else { return }
        compositor.windows.setCanBecomeKey(window, value == 1)
    }

    func handleSetScreenRequest(_ screen: Screen?) {
        guard !isInert, let window, let screen, let compositor = windowExtension?.compositor else { return }
        compositor.windows.move(window, to: screen)
    }

    /// make_key: through the focus rule, then the model (a refusal is `keyRequestWasRefused`).
    func handleMakeKeyRequest() {
        guard !isInert, let window, let compositor = windowExtension?.compositor else { return }
        let requester = Compositor.requester(of: client)
        compositor.withCause(.focusRequest, request: "strata_window_v1.make_key", requester: requester) {
            guard compositor.focusRequests.allowsWaylandRequest("make_key", from: client, for: window) else { return }
            compositor.windows.makeKeyOrRefuse(window)
        }
    }

    /// set_modal / unset_modal (version 2): the model's `Window.isModal`, as xdg_dialog_v1 sets it.
    func handleModalRequest(_ modal: Bool) {
        guard !isInert, let window, let compositor = windowExtension?.compositor else { return }
        compositor.windows.setModal(window, modal)
    }

    static let implementation = makeImplementation(
        strata_window_v1_interface(
            destroy: destroyRequest,
            set_level: { _, resource, level in
                handle(resource, as: StrataWindow.self) { $0.handleSetLevelRequest(level) }
            },
            set_show_without_key: { _, resource in
                handle(resource, as: StrataWindow.self) { object in
                    guard !object.isInert else { return }
                    object.showWithoutKey = true
                }
            },
            set_can_become_key: { _, resource, value in
                handle(resource, as: StrataWindow.self) { try $0.handleSetCanBecomeKeyRequest(value) }
            },
            set_screen: { _, resource, id in
                handle(resource, as: StrataWindow.self) { object in
                    let screen = object.windowExtension?.compositor.windows.screens.first {
                        UInt32(truncatingIfNeeded: $0.id.rawValue) == id
                    }
                    object.handleSetScreenRequest(screen)
                }
            },
            set_output: { _, resource, output in
                handle(resource, as: StrataWindow.self) { object in
                    let binding = ResourceObject.from(output, as: OutputBinding.self)
                    object.handleSetScreenRequest(binding?.output?.screen)
                }
            },
            make_key: { _, resource in
                handle(resource, as: StrataWindow.self) { $0.handleMakeKeyRequest() }
            },
            set_modal: { _, resource in
                handle(resource, as: StrataWindow.self) { $0.handleModalRequest(true) }
            },
            unset_modal: { _, resource in
                handle(resource, as: StrataWindow.self) { $0.handleModalRequest(false) }
            }))
}
