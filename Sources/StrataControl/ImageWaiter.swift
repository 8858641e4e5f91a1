import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// One `wait-image` request (docs/control.md): waits until a window's own picture (drawn alone,
/// `Scene.windowPicture`) has the recorded hash, or, with an expected picture, is within the
/// comparison's tolerance of it. The picture is drawn again only after a commit (the scene's
/// commit serial moved) or a change of the window's size, checked each frame period from a
/// timer on the loop; at the timeout the reply is an error naming the window, and the picture it
/// showed is written to `output` when one was given.
final class ImageWaiter {
    struct Check {
        var hash: String
        var expected: PNGFile.Pixels?
        var comparison = ImageComparison()
        /// Differing pixels tolerated: a count, or a share (0…1) when `share` is set.
        var maximumDiffering = 0
        var share: Double?
        var output: String?
    }

    private unowned let server: ControlServer
    private weak var connection: ControlConnection?
    private let id: JSONValue
    private let window: Window
    private let check: Check
    private let started = Clock.monotonicNanoseconds()
    private let deadline: UInt64
    private let periodMilliseconds: Int32
    private var timer: LoopTimer?
    private var lastSerial: UInt64
    private var lastSize: (Int32, Int32) = (0, 0)
    private var lastHash = ""
    private var lastDiffering: Int?

    /// The outcome of one look at the window: its reply when it is final.
    enum Outcome {
        case matches(JSONValue)
        case differs
    }

    init?(
        server: ControlServer, connection: ControlConnection, id: JSONValue, window: Window, check: Check,
        timeout: Double
    ) {
        self.server = server
        self.connection = connection
        self.id = id
        self.window = window
        self.check = check
        deadline = started &+ UInt64(timeout * 1e9)
        let compositor = server.compositor
        let refresh = compositor.windows.screens.first?.currentMode?.refreshMilliHz ?? 60_000
        periodMilliseconds = Int32(max(1, min(1000, 1_000_000 / max(1, refresh))))
        lastSerial = compositor.scene.commitSerial
        guard let timer = LoopTimer(eventLoop: compositor.display.eventLoop, fire: { [weak self] in self?.tick() })
        else { return nil }
        self.timer = timer
        timer.schedule(milliseconds: periodMilliseconds)
    }

    deinit { removeTimer() }

    private func removeTimer() {
        timer?.cancel()
        timer = nil
    }

    /// Looks at the window now: the reply's fields when it shows the picture asked for.
    static func look(at window: Window, in scene: Scene, check: Check, picture: inout Canvas?) -> (
        hash: String, differing: Int?, matches: Bool
    ) {
        guard let canvas = scene.windowPicture(of: window) else { return ("", nil, false) }
        picture = canvas
        let hash = PictureEncoding.hex(PictureEncoding.hash(of: canvas))
        if hash == check.hash { return (hash, 0, true) }
        guard let expected = check.expected,
            let result = try? check.comparison.compare(expected, PNGFile.Pixels(opaque: canvas))
        else { return (hash, nil, false) }
        let within = check.share.map { result.share <= $0 } ?? (result.differing <= check.maximumDiffering)
        return (hash, result.differing, within)
    }

    /// The reply of a match.
    static func matchReply(id: JSONValue, window: Window, hash: String, differing: Int?, waited: Double) -> JSONValue {
        var reply: [String: JSONValue] = [
            "id": id, "ok": true, "window": JSONValue(window.id.rawValue), "hash": .string(hash),
            "waited_s": JSONValue(waited),
        ]
        if let differing { reply["differing"] = JSONValue(differing) }
        return .object(reply)
    }

    private var waited: Double { Double(Clock.monotonicNanoseconds() &- started) / 1e9 }

    private func tick() {
        let scene = server.compositor.scene
        if window.isClosed {
            return fail("window \(window.id.rawValue) closed while waiting for its picture", picture: nil)
        }
        let size = scene.windowPictureSize(of: window)
        var picture: Canvas?
        if scene.commitSerial != lastSerial || size != lastSize {
            lastSerial = scene.commitSerial
            lastSize = size
            let look = Self.look(at: window, in: scene, check: check, picture: &picture)
            lastHash = look.hash
            lastDiffering = look.differing
            if look.matches {
                return finish(
                    Self.matchReply(id: id, window: window, hash: look.hash, differing: look.differing, waited: waited))
            }
        }
        if Clock.monotonicNanoseconds() >= deadline {
            if picture == nil { picture = scene.windowPicture(of: window) }
            let seconds = (waited * 10).rounded() / 10
            let name =
                "window \(window.id.rawValue) (\(window.appID.isEmpty ? "no app id" : window.appID), \"\(window.title)\")"
            let how = lastDiffering.map { ", \($0) pixels differ beyond the tolerance" } ?? ""
            fail(
                "\(name) showed other pixels (hash \(lastHash), not \(check.hash)\(how)) for \(seconds) s",
                picture: picture)
        } else if let timer {
            timer.schedule(milliseconds: periodMilliseconds)
        }
    }

    private func fail(_ message: String, picture: Canvas?) {
        var reply: [String: JSONValue] = [
            "id": id, "ok": false,
            "error": ["code": .string(ControlErrorCode.failed.rawValue), "message": .string(message)],
            "window": JSONValue(window.id.rawValue), "app_id": .string(window.appID), "title": .string(window.title),
            "hash": .string(lastHash),
        ]
        if let lastDiffering { reply["differing"] = JSONValue(lastDiffering) }
        if let output = check.output, let picture {
            if (try? PNGFile.write(path: output, canvas: picture)) != nil { reply["path"] = .string(output) }
        }
        finish(.object(reply))
    }

    private func finish(_ reply: JSONValue) {
        removeTimer()
        connection?.send(reply: reply)
        server.imageWaiterDidFinish(self)
    }

    /// Strata is stopping: the waiter goes without a reply.
    func cancel() { removeTimer() }
}
