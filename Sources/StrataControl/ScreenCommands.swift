import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// `screens`, `screen-add`, `screen-remove`, `screen-mode`, `screen-brightness`,
/// `screen-transform`, `screen-scale`, `screen-mirror`, `screenshot`. A screen argument is its id or its name.
/// These set the model; drawing brightness, transforms and mirroring is the renderer's job.
extension ControlCommands {
    func screens() throws(ControlError) -> Reply {
        ["screens": try encode(manager.screens.map(ScreenInfo.init))]
    }

    func describe(_ screen: Screen) throws(ControlError) -> Reply {
        ["screen": try encode(ScreenInfo(screen))]
    }

    /// `screen-add`: a headless screen with `modes` (`["1920x1080@60", …]`, the first preferred)
    /// or one mode `size` (default: the backend's), named `name` (default `HEADLESS-n`).
    func screenAdd(_ request: ControlRequest) throws(ControlError) -> Reply {
        guard let headless = compositor.backend as? HeadlessBackend else {
            throw ControlError(.unsupported, "the \(compositor.backend.name) backend cannot add screens")
        }
        var modes: [ScreenMode] = []
        if let size = try request.optionalString("size") {
            modes.append(try Self.mode(size, argument: "size").mode)
        }
        if request.has("modes") {
            for text in try request.stringArray("modes") {
                let mode = try Self.mode(text, argument: "modes").mode
                if !modes.contains(mode) { modes.append(mode) }
            }
        }
        let name = try request.optionalString("name")
        if let name {
            guard !name.isEmpty, name.count <= 64, !name.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw ControlError(.invalidArgument, "a screen name is 1 to 64 characters without spaces")
            }
            guard !compositor.scene.outputs.contains(where: { $0.screen.name == name }) else {
                throw ControlError(.invalidArgument, "a screen called \"\(name)\" is already connected")
            }
            guard UInt64(name) == nil else {
                throw ControlError(.invalidArgument, "a screen name cannot be a number (numbers are ids)")
            }
        }
        let overscan = try request.optionalDouble("overscan")
        if let overscan { try Self.checkOverscan(overscan) }
        let compensation = try Self.compensation(try request.optionalString("compensation")) ?? .scale
        guard let output = headless.addScreen(to: compositor, name: name, modes: modes.isEmpty ? nil : modes) else {
            throw ControlError(.failed, "cannot create the screen's image")
        }
        if let overscan {
            // Checked above: cannot fail for a screen just connected.
            try? manager.setOverscan(overscan, compensation: compensation, for: output.screen)
        }
        return try describe(output.screen)
    }

    func screenRemove(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        let id = output.screen.id
        compositor.disconnectScreen(output)
        return ["removed": JSONValue(id.rawValue)]
    }

    /// `screen-mode`: `mode` is `WxH` or `WxH@Hz`, one of the screen's available modes.
    func screenMode(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        let spec = try Self.mode(try request.string("mode"), argument: "mode")
        let screen = output.screen
        guard let mode = screen.availableModes.first(where: spec.matches) else {
            let available = screen.availableModes.map(ModeSpec.text).joined(separator: ", ")
            throw ControlError(
                .modeNotAvailable,
                "\(screen.name) has no mode \(spec.width)x\(spec.height)\(spec.refreshMilliHz.map { "@\(Double($0) / 1000)" } ?? ""); available: \(available)"
            )
        }
        do {
            try manager.setMode(mode, for: screen)
        } catch {
            throw ControlError(.modeNotAvailable, "\(error)")
        }
        return try describe(screen)
    }

    /// `screen-brightness`: `value` from 0 (darkest) to 1.
    func screenBrightness(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        let value = try request.double("value")
        guard (0...1).contains(value) else { throw ControlError(.invalidArgument, "brightness is between 0 and 1") }
        manager.setBrightness(value, for: output.screen)
        return try describe(output.screen)
    }

    /// `screen-scale`: `value` from 1 to 8 (fractional: 1.25, 1.5, 1.75 …; kept in steps of
    /// 1/120).
    func screenScale(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        let value = try request.double("value")
        guard value.isFinite, Screen.scaleRange.contains(value) else {
            throw ControlError(.invalidArgument, "scale is between 1 and 8")
        }
        manager.setScale(value, for: output.screen)
        return try describe(output.screen)
    }

    /// `screen-transform`: `transform` is one of `normal`, `90`, `180`, `270`, `flipped`,
    /// `flipped-90`, `flipped-180`, `flipped-270`.
    func screenTransform(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        let text: String
        if let number = try? request.int("transform") {
            text = String(number)
        } else {
            text = try request.string("transform")
        }
        guard let transform = ScreenTransform(rawValue: text) else {
            let names = ScreenTransform.allCases.map(\.rawValue).joined(separator: ", ")
            throw ControlError(.invalidArgument, "\"\(text)\" is not a transform: use \(names)")
        }
        manager.setTransform(transform, for: output.screen)
        return try describe(output.screen)
    }

    /// `screen-mirror`: `enabled` allows (true) or forbids (false) mirroring the main screen
    /// while the screen has no visible window.
    func screenMirror(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        manager.setMirroring(try request.bool("enabled"), for: output.screen)
        return try describe(output.screen)
    }

    /// `screen-overscan`: `compensation` is `scale`, `inset` or `none`; `percent` (0 ... 20, how
    /// much of each side's length the display crops) keeps the screen's current overscan when
    /// absent.
    func screenOverscan(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try request.screen(in: compositor)
        guard let compensation = try Self.compensation(try request.optionalString("compensation")) else {
            throw ControlError(.missingArgument, "screen-overscan needs \"compensation\" (scale, inset or none)")
        }
        let percent = try request.optionalDouble("percent") ?? output.screen.overscan
        try Self.checkOverscan(percent)
        do {
            try manager.setOverscan(percent, compensation: compensation, for: output.screen)
        } catch {
            throw ControlError(.invalidArgument, "\(error)")
        }
        return try describe(output.screen)
    }

    static func checkOverscan(_ percent: Double) throws(ControlError) {
        guard percent.isFinite, Screen.overscanRange.contains(percent) else {
            throw ControlError(
                .invalidArgument, "overscan is a percentage between 0 and \(Int(Screen.overscanRange.upperBound))")
        }
    }

    static func compensation(_ text: String?) throws(ControlError) -> OverscanCompensation? {
        guard let text else { return nil }
        guard let value = OverscanCompensation(rawValue: text) else {
            throw ControlError(
                .invalidArgument, "\"\(text)\" is not an overscan compensation: use scale, inset or none")
        }
        return value
    }

    /// `screenshot`: writes `screen` (default: the main one), repainted now, to `path` (an
    /// absolute path; the CLI resolves relative ones) as PNG: what the screen shows
    /// (`ScreenOutput.displayCanvas`: after transform, brightness and overscan, the same pixels
    /// screencopy and `strata --screenshot` give), or with `raw: true` the composed canvas
    /// (upright, full brightness, the windows' own coordinates times the scale). With `window`:
    /// the window's own image (`windowScreenshot`).
    func screenshot(_ request: ControlRequest) throws(ControlError) -> Reply {
        if request.has("window") { return try windowScreenshot(request) }
        let path = try request.string("path")
        guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"path\" must be absolute") }
        if let problem = OutputPath.problemWritingFile(path) {
            throw ControlError(.failed, "cannot write the screenshot to \(path): \(problem)")
        }
        guard let output = try request.optionalScreen(in: compositor) ?? compositor.scene.outputs.first else {
            throw ControlError(.unknownScreen, "no screen is connected")
        }
        let raw = try request.optionalBool("raw") ?? false
        compositor.scene.repaintDamagedScreens()
        guard let canvas = raw ? output.canvas : output.shownImage() else {
            throw ControlError(.failed, "cannot make the screen's image")
        }
        do {
            try PNGFile.write(path: path, canvas: canvas)
        } catch {
            throw ControlError(.failed, error.description)
        }
        return [
            "path": .string(path), "screen": JSONValue(output.screen.id.rawValue),
            "width": JSONValue(Int(canvas.width)), "height": JSONValue(Int(canvas.height)), "raw": .bool(raw),
        ]
    }

    static func mode(_ text: String, argument: String) throws(ControlError) -> ModeSpec {
        guard let spec = ModeSpec(text) else {
            throw ControlError(.invalidArgument, "\"\(argument)\": \(ModeSpec.requirement)")
        }
        return spec
    }
}
