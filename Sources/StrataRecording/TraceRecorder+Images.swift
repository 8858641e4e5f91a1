import FoundationEssentials
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// Pictures in a trace (docs/experiments.md, "Pictures in a trace"): before a command that acts
/// on windows or input, and before a press from a backend, the hash of what each window it
/// touches showed (`shown` on its line), and each new picture once as an `image` line before the
/// first line that names it; a downscaled thumbnail of each new screen picture. Per step and
/// per new hash, never per frame; nothing of this runs without a recording.
extension TraceRecorder {
    /// The control commands whose `shown` the recorder writes: those that act on windows or
    /// send input.
    static let commandsWithPictures: Set<String> = [
        "make-key", "raise", "lower", "set-level", "hide", "show", "move", "close", "maximize", "fullscreen", "restore",
        "resize", "screenshot", "pointer-move", "pointer-button", "pointer-click", "pointer-scroll", "key", "type",
        "touch", "gesture", "tablet",
    ]

    /// The most windows one step records (a screenshot of a crowded screen).
    static let maximumShownWindows = 8

    /// `shown` for a control request about to run (nil for a command that touches no window).
    package func shownBefore(_ request: JSONValue) -> JSONValue? {
        guard !isStopped, let name = request["command"]?.stringValue, Self.commandsWithPictures.contains(name) else {
            return nil
        }
        let windows = windowsTouched(by: name, request)
        return windows.isEmpty ? nil : shown(of: windows)
    }

    /// The windows a command acts on: the one it names; for keys the key window; for pointer
    /// input the window under the pointer and the one under where it goes; for a screenshot the
    /// shown windows of the screen.
    private func windowsTouched(by name: String, _ request: JSONValue) -> [Window] {
        let scene = compositor.scene
        var windows: [Window] = []
        func add(_ window: Window?) {
            guard let window, !window.isClosed, !windows.contains(where: { $0 === window }),
                windows.count < Self.maximumShownWindows
            else { return }
            windows.append(window)
        }
        if let selector = request["window"],
            let window = try? WindowSelector(selector, argument: "window").resolve(in: compositor.windows.windows)
        {
            add(window)
        }
        let seat = compositor.seat
        switch name {
        case "key", "type":
            add(seat?.keyboardFocus.flatMap { scene.window(showing: $0) } ?? compositor.windows.keyWindow)
        case "pointer-move", "pointer-button", "pointer-click", "pointer-scroll", "touch", "gesture", "tablet":
            add(seat?.pointerFocus.flatMap { scene.window(showing: $0) })
            if let x = request["x"]?.doubleValue, let y = request["y"]?.doubleValue, x.isFinite, y.isFinite,
                request["shown"] != true
            {
                let output =
                    screen(named: request["screen"]) ?? seat?.pointerPosition?.output ?? compositor.scene.outputs.first
                if let output { add(scene.surface(at: x, y, on: output)?.window) }
            }
        case "screenshot":
            let output = screen(named: request["screen"]) ?? compositor.scene.outputs.first
            for window in compositor.windows.windows.reversed()
            where !window.isHidden && window.screen === output?.screen {
                add(window)
            }
        default:
            break
        }
        return windows
    }

    private func screen(named value: JSONValue?) -> ScreenOutput? {
        guard let value else { return nil }
        if let number = value.intValue {
            return compositor.scene.outputs.first { $0.screen.id.rawValue == UInt64(clamping: number) }
        }
        if let name = value.stringValue {
            return compositor.scene.outputs.first { $0.screen.name == name || String($0.screen.id.rawValue) == name }
        }
        return nil
    }

    /// `[{"window": id, "hash": H}]` for `windows`, each picture's `image` line written first
    /// when it is new.
    func shown(of windows: [Window]) -> JSONValue {
        var list: [JSONValue] = []
        for window in windows {
            guard let canvas = compositor.scene.windowPicture(of: window) else { continue }
            let hash = PictureEncoding.hex(PictureEncoding.hash(of: canvas))
            writeImage(.window, hash: hash, canvas: canvas)
            list.append(.object(["window": JSONValue(window.id.rawValue), "hash": .string(hash)]))
        }
        return .array(list)
    }

    /// A hashed picture of a screen: its thumbnail, once per hash. Hashes are what limits them:
    /// under the realtime clock a screen is hashed only after a model change or 2 s; under the
    /// manual clock every frame, and only a new picture costs a thumbnail (then the budget).
    func writeThumbnail(screen: ScreenID, canvas: Canvas, hash: UInt64, final: Bool) {
        guard !images.isExhausted else { return }
        let text = PictureEncoding.hex(hash)
        guard !images.hasWritten(.thumbnail, text),
            let small = PictureEncoding.thumbnail(
                of: canvas, maximumWidth: TraceImages.thumbnailSide,
                maximumHeight: TraceImages.thumbnailSide)
        else { return }
        writeImage(.thumbnail, hash: text, canvas: small)
    }

    /// A screen's last picture, at full size (the recording stops): what a replay's final check
    /// compares with a tolerance, and keeps beside a diverged replay.
    func writeLastPicture(canvas: Canvas, hash: UInt64) {
        writeImage(.screen, hash: PictureEncoding.hex(hash), canvas: canvas)
    }

    /// One `image` line, written by hand (a base64 PNG needs no escaping), unless this (kind,
    /// hash) was written or the budget is spent.
    private func writeImage(_ kind: TraceImages.Kind, hash: String, canvas: Canvas) {
        guard !isStopped, !images.isExhausted, !images.hasWritten(kind, hash), let png = PictureEncoding.png(of: canvas)
        else { return }
        let base64 = Data(png).base64EncodedString()
        var line = "{\"type\":\"image\",\"kind\":\"\(kind.rawValue)\",\"hash\":\"\(hash)\",\"width\":\(canvas.width),"
        line += "\"height\":\(canvas.height),\"sequence\":\(sequence),\"time_ns\":\(time),\"png\":\"\(base64)\"}"
        // An image never ends the recording: one that would pass the trace's limit is left out.
        let fits = writer.bytes + line.utf8.count + 64 * 1024 <= writer.maximumBytes
        guard fits, images.admit(kind, hash, bytes: line.utf8.count) else {
            images.isExhausted = true
            writeLine(
                Array(
                    "{\"type\":\"image\",\"budget_reached\":true,\"budget\":\(images.budget),\"sequence\":\(sequence),\"time_ns\":\(time)}"
                        .utf8))
            return
        }
        writeLine(Array(line.utf8))
    }

    /// A press (key, button, touch down, tablet tip): the input a replay waits before.
    static func isPress(_ input: InjectedInput) -> Bool {
        switch input {
        case .key(_, let pressed, _): return pressed
        case .pointerButton(_, let pressed): return pressed
        case .touchDown: return true
        case .tabletTool(_, .tip(true), _): return true
        default: return false
        }
    }
}

extension TraceRecorder {
    /// The most bytes of `image` lines this recording writes (default: a quarter of its size
    /// limit, at most 64 MiB).
    public var imageBudget: Int {
        get { images.budget }
        set { images.budget = max(0, newValue) }
    }
}
