import StrataControlProtocol
import StrataModel
import StrataServer

/// `maximize`, `fullscreen`, `restore`, `resize`: a window's state asked of its client the way
/// a taskbar asks it (`WindowContentHandle.handleMaximizeRequest`, `handleFullscreenRequest`,
/// `handleSizeRequest`; the model window's `isMaximized`/`isFullscreen` say what was decided): an xdg toplevel gets a configure, an X window its `_NET_WM_STATE` and
/// geometry. The client answers in its own time; the frame follows what it commits, so the reply
/// says what was asked (`target`, `requested`) beside the window as it is now (`window`).
extension ControlCommands {
    /// The largest side `resize` asks for; larger requests are clamped to it.
    static let maximumRequestedSide = 16384

    func maximize(_ request: ControlRequest) throws(ControlError) -> Reply {
        let (window, content) = try stateful(request, "maximized")
        content.handleMaximizeRequest(true)
        guard window.isMaximized else { throw Self.refusal(window, "maximized") }
        return try describeState(
            window, target: window.screen.map { manager.placement.maximizedFrame(for: window, on: $0) })
    }

    /// `fullscreen`, on `screen` when given (else the window's own).
    func fullscreen(_ request: ControlRequest) throws(ControlError) -> Reply {
        let (window, content) = try stateful(request, "fullscreen")
        let screen = try request.optionalScreen(in: compositor)?.screen
        content.handleFullscreenRequest(true, on: screen)
        guard window.isFullscreen else { throw Self.refusal(window, "fullscreen") }
        return try describeState(
            window, target: window.screen.map { manager.placement.fullscreenFrame(for: window, on: $0) })
    }

    /// `restore`: out of fullscreen and maximized, back to the frame before (a window in neither
    /// state is left as it is: `changed` false).
    func restore(_ request: ControlRequest) throws(ControlError) -> Reply {
        let (window, content) = try stateful(request, "restored")
        let wasPlaced = window.isFullscreen || window.isMaximized
        if window.isFullscreen { content.handleFullscreenRequest(false, on: nil) }
        if window.isMaximized { content.handleMaximizeRequest(false) }
        let changed = wasPlaced && !window.isFullscreen && !window.isMaximized
        var reply = try describeState(window, target: nil)
        reply["changed"] = .bool(changed)
        return reply
    }

    /// `resize` to `width` × `height` (each clamped to 1 ... `maximumRequestedSide`): the client
    /// is asked for that size, within its own minimum and maximum; `requested` is the size asked.
    func resize(_ request: ControlRequest) throws(ControlError) -> Reply {
        let (window, content) = try stateful(request, "resized")
        let side = 1...Self.maximumRequestedSide
        let width = try request.int("width", in: 1...Int(Int32.max)),
            height = try request.int("height", in: 1...Int(Int32.max))
        let size = Size(width: min(width, side.upperBound), height: min(height, side.upperBound))
        guard let asked = content.handleSizeRequest(size) else { throw Self.refusal(window, "resized") }
        var reply = try describeState(window, target: nil)
        reply["requested"] = ["width": JSONValue(asked.width), "height": JSONValue(asked.height)]
        return reply
    }

    /// The window and its content, which must be an application's toplevel.
    private func stateful(_ request: ControlRequest, _ state: String) throws(ControlError) -> (
        Window, any WindowContentHandle
    ) {
        let window = try request.window(in: manager)
        guard let content = window.content, content.isToplevel else { throw Self.refusal(window, state) }
        return (window, content)
    }

    private static func refusal(_ window: Window, _ state: String) -> ControlError {
        ControlError(
            .unsupported,
            "window \(window.id.rawValue) cannot be \(state) by Strata: only xdg toplevels and managed X11 windows can (not wl_shell surfaces, layer surfaces, menus or windows made without a client)"
        )
    }

    /// The window now (`window`, with `maximized` and `fullscreen` as asked of the client) and
    /// the frame its state will give it once the client has drawn it (`target`).
    private func describeState(_ window: Window, target: Rect?) throws(ControlError) -> Reply {
        var reply = try describe(window)
        if let target { reply["target"] = try encode(target) }
        return reply
    }
}
