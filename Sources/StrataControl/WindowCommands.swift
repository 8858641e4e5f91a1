import StrataControlProtocol
import StrataModel
import StrataServer

/// `windows`, `make-key`, `raise`, `lower`, `set-level`, `hide`, `show`, `move`, `close`.
/// A window argument names one open window: an id, `title:`, `pid:` or an app id in any case
/// (`ControlRequest.window`, `WindowSelector`).
extension ControlCommands {
    func windows() throws(ControlError) -> Reply {
        ["windows": try encode(WindowInfo.list(manager))]
    }

    /// The window's state after a command, as `windows` reports it.
    func describe(_ window: Window) throws(ControlError) -> Reply {
        guard let info = WindowInfo.list(manager).first(where: { $0.id == window.id.rawValue }) else { return [:] }
        return ["window": try encode(info)]
    }

    func makeKey(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        guard manager.makeKeyOrRefuse(window) else {
            if manager.isLocked {
                throw ControlError(
                    .invalidArgument, "window \(window.id.rawValue) cannot be key: the session is locked")
            }
            if let modal = manager.modalBlocker(of: window) {
                let outcome = modal.isKeyWindow ? "window \(modal.id.rawValue) is key instead" : "nothing changed"
                throw ControlError(
                    .invalidArgument,
                    "window \(window.id.rawValue) cannot be key while its modal window \(modal.id.rawValue) is shown: \(outcome)"
                )
            }
            let why =
                if window.isHidden { "it is hidden" } else if !window.canBecomeKey {
                    "it cannot become key"
                } else if let key = manager.keyWindow, key.holdsKey { "window \(key.id.rawValue) holds key" } else {
                    "it is on no screen"
                }
            throw ControlError(.invalidArgument, "window \(window.id.rawValue) cannot be key: \(why)")
        }
        return try describe(window)
    }

    func raise(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        manager.orderFront(window)
        return try describe(window)
    }

    func lower(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        manager.orderBack(window)
        return try describe(window)
    }

    func setLevel(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        let level = try Self.level(request)
        manager.setLevel(window, level)
        return try describe(window)
    }

    /// `level`: a name (`normal`, `alert`, …) or a finite number (JSON number or string).
    static func level(_ request: ControlRequest) throws(ControlError) -> WindowLevel {
        if let number = try? request.double("level") { return WindowLevel(rawValue: number) }
        let text = try request.string("level")
        guard let level = WindowLevel(name: text) else {
            let names = WindowLevel.namedLevels.map(\.name).joined(separator: ", ")
            throw ControlError(.invalidArgument, "\"\(text)\" is not a level: use \(names) or a number")
        }
        return level
    }

    func hide(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        manager.hide(window)
        return try describe(window)
    }

    /// `show`: `isHidden = false` and order front; with `key: true`, `makeKeyAndVisible`.
    func show(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        let makeKey = try request.optionalBool("key") ?? false
        manager.show(window, makeKey: makeKey)
        return try describe(window)
    }

    /// `move`: to `screen`, and to (`x`, `y`) of that screen when given (else the frame is kept
    /// relative to the new screen).
    func move(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        // Without "screen" the window stays on its screen (the main screen if it has none).
        let screen: Screen
        if let output = try request.optionalScreen(in: compositor) {
            screen = output.screen
        } else if let current = window.screen ?? manager.mainScreen {
            screen = current
        } else {
            throw ControlError(.unknownScreen, "no screen is connected")
        }
        // Coordinates a window may have (`Coordinate.limit`): beyond them, a clear error.
        let range = -Int(Coordinate.limit)...Int(Coordinate.limit)
        let x = try request.optionalInt("x", in: range)
        let y = try request.optionalInt("y", in: range)
        guard (x == nil) == (y == nil) else {
            throw ControlError(.missingArgument, "move needs both \"x\" and \"y\", or neither")
        }
        guard request.has("screen") || x != nil else {
            throw ControlError(.missingArgument, "move needs \"screen\", or \"x\" and \"y\", or both")
        }
        // One transaction (windowDidMoveToScreen, windowDidChangeFrame, mirroring changes); the
        // scene, observing the model, repaints the old and new places.
        manager.move(window, to: screen, origin: x.flatMap { x in y.map { Point(x: Double(x), y: Double($0)) } })
        return try describe(window)
    }

    /// `close`: asks the client to close the window (xdg_toplevel.close); the window goes when
    /// the client destroys it. A window without a client (made by a test) closes at once.
    func close(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        if let content = window.content {
            content.closeRequest()
            return ["requested": true, "closed": false]
        }
        compositor.windowDidClose(window)
        return ["requested": false, "closed": true]
    }

    func encode(_ value: some Encodable) throws(ControlError) -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw ControlError(.failed, "cannot encode the reply")
        }
    }
}
