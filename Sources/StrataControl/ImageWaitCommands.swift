import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// `wait-image` (docs/control.md, "Waiting for a picture"): what a replay asks before each
/// recorded step, that the window shows what it showed when the step was recorded.
extension ControlCommands {
    /// The longest `timeout` (longer ones are cut to it).
    static let maximumImageTimeout = 600.0

    func waitImage(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        let window = try request.window(in: manager)
        let hash = try request.string("hash")
        guard PictureEncoding.isHash(hash) else {
            throw ControlError(.invalidArgument, "\"hash\" is 16 lowercase hex digits, as a trace writes it")
        }
        let timeout = try request.optionalDouble("timeout") ?? 5
        guard timeout > 0 else { throw ControlError(.invalidArgument, "timeout must be a number of seconds above 0") }
        var check = ImageWaiter.Check(hash: hash)
        check.comparison = ImageComparison(
            threshold: try request.optionalInt("threshold", in: 0...255) ?? 0,
            masks: try Self.masks(request))
        if let text = request.arguments["max_diff"]?.stringValue, text.hasSuffix("%") {
            guard let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value) else {
                throw ControlError(.invalidArgument, "\"max_diff\" is a count of pixels or a share like \"0.5%\"")
            }
            check.share = value / 100
        } else {
            check.maximumDiffering = try request.optionalInt("max_diff", in: 0...Int(Int32.max)) ?? 0
        }
        if let path = try request.optionalString("expected") {
            guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"expected\" must be absolute") }
            do {
                check.expected = try PNGFile.read(path: path)
            } catch {
                throw ControlError(.invalidArgument, error.description)
            }
        }
        if let path = try request.optionalString("output") {
            guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"output\" must be absolute") }
            if let problem = OutputPath.problemWritingFile(path) {
                throw ControlError(.invalidArgument, "cannot write the picture to \(path): \(problem)")
            }
            check.output = path
        }
        var picture: Canvas?
        let look = ImageWaiter.look(at: window, in: compositor.scene, check: check, picture: &picture)
        if look.matches {
            var reply: Reply = ["window": JSONValue(window.id.rawValue), "hash": .string(look.hash), "waited_s": 0]
            if let differing = look.differing { reply["differing"] = JSONValue(differing) }
            return reply
        }
        compositor.display.flushClients()
        guard
            let waiter = ImageWaiter(
                server: server, connection: connection, id: request.id, window: window, check: check,
                timeout: min(timeout, Self.maximumImageTimeout))
        else {
            throw ControlError(.failed, "cannot add a timer to the event loop")
        }
        server.imageWaiters.append(waiter)
        return nil
    }

    /// `masks`: rectangles `X,Y,WxH` of the picture left out of a comparison.
    private static func masks(_ request: ControlRequest) throws(ControlError) -> [Rect] {
        guard request.has("masks") else { return [] }
        let texts = try request.stringArray("masks")
        guard texts.count <= 256 else { throw ControlError(.invalidArgument, "at most 256 masks") }
        var rects: [Rect] = []
        for text in texts {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let size = parts.count == 3 ? parts[2].split(separator: "x", omittingEmptySubsequences: false) : []
            guard parts.count == 3, size.count == 2, let x = Int(parts[0]), let y = Int(parts[1]), let w = Int(size[0]),
                let h = Int(size[1]),
                w > 0, h > 0, abs(x) <= 1 << 20, abs(y) <= 1 << 20, w <= 1 << 20, h <= 1 << 20
            else {
                throw ControlError(.invalidArgument, "a mask is X,Y,WxH (like 10,20,100x30), not \"\(text)\"")
            }
            rects.append(Rect(x: x, y: y, width: w, height: h))
        }
        return rects
    }
}
