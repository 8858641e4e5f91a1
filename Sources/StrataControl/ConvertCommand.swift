import StrataControlProtocol
import StrataModel
import StrataServer

/// `convert`: a point or rectangle from one window's coordinates to another's or to a screen's
/// (UIKit's `convert(_:to:)` / `convert(_:from:)`, the model's `Window.convert`).
extension ControlCommands {
    /// Arguments: `window`; `x`, `y` (and `width`, `height` for a rectangle); at most one of
    /// `to` (a window), `to_screen`, `from` (a window) and `from_screen` (a screen). With none,
    /// the result is in the window's own screen's coordinates (`convert(_:to: nil)`). With `from`
    /// or `from_screen` the point is given in that window's or screen's coordinates and the
    /// result is in `window`'s. Replies `x`, `y` (and `width`, `height`) and `text`
    /// (`"X,Y"` or `"X,Y,WxH"`). `surface: true` reads the point in the coordinates of
    /// `window`'s own surface (a toolkit's window-relative coordinates, which count client-side
    /// shadows: `Scene.surfaceOrigin(of:)`) rather than the window's frame's.
    func convert(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window = try request.window(in: manager)
        let x = try Self.coordinate(request, "x"), y = try Self.coordinate(request, "y")
        let hasWidth = request.has("width"), hasHeight = request.has("height")
        guard hasWidth == hasHeight else {
            throw ControlError(.invalidArgument, "a rectangle needs both \"width\" and \"height\"")
        }
        var size: Size?
        if hasWidth {
            let limit = Int(Coordinate.limit)
            guard let w = try request.optionalInt("width", in: 0...limit),
                let h = try request.optionalInt("height", in: 0...limit)
            else {
                throw ControlError(.invalidArgument, "width and height are whole numbers 0 ... \(limit)")
            }
            size = Size(width: w, height: h)
        }
        let targets = ["to", "to_screen", "from", "from_screen"].filter(request.has)
        guard targets.count <= 1 else {
            throw ControlError(
                .invalidArgument,
                "give at most one of to, to_screen, from and from_screen (got \(targets.joined(separator: ", ")))")
        }
        var p = Point(x: x, y: y)
        if try request.optionalBool("surface") ?? false {
            guard let origin = compositor.scene.surfaceOrigin(of: window) else {
                throw ControlError(
                    .failed, "window \(window.id) has no surface on screen (it is hidden or not drawn yet)")
            }
            p = Point(x: p.x + origin.x, y: p.y + origin.y)
        }
        let result: Point
        switch targets.first {
        case "to":
            result = window.convert(p, to: try request.window("to", in: manager))
        case "from":
            result = window.convert(p, from: try request.window("from", in: manager))
        case "to_screen":
            let screen = try request.screen("to_screen", in: compositor).screen
            let global = Self.global(window.convert(p, to: nil), on: window.screen)
            result = Point(x: global.x - screen.origin.x, y: global.y - screen.origin.y)
        case "from_screen":
            let screen = try request.screen("from_screen", in: compositor).screen
            let global = Point(x: p.x + screen.origin.x, y: p.y + screen.origin.y)
            let own = window.screen?.origin ?? .zero
            result = window.convert(Point(x: global.x - own.x, y: global.y - own.y), from: nil)
        default:
            result = window.convert(p, to: nil)
        }
        var reply: Reply = ["x": JSONValue(result.x), "y": JSONValue(result.y)]
        var text = "\(Self.number(result.x)),\(Self.number(result.y))"
        if let size {
            reply["width"] = JSONValue(size.width)
            reply["height"] = JSONValue(size.height)
            text += ",\(size.width)x\(size.height)"
        }
        reply["text"] = .string(text)
        return reply
    }

    /// A finite coordinate within ±`Coordinate.limit`.
    private static func coordinate(_ request: ControlRequest, _ name: String) throws(ControlError) -> Double {
        let v = try request.double(name)
        guard v.isFinite, abs(v) <= Double(Coordinate.limit) else {
            throw ControlError(.invalidArgument, "\"\(name)\" is a number within ±\(Coordinate.limit)")
        }
        return v
    }

    private static func global(_ p: Point, on screen: Screen?) -> Point {
        let origin = screen?.origin ?? .zero
        return Point(x: p.x + origin.x, y: p.y + origin.y)
    }

    /// `12` for whole numbers, `12.5` otherwise.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
