import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel

struct ScreensCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "screens", abstract: "List the screens, the main screen first.")
    @OptionGroup var options: ConnectionOptions

    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("screens", [:]) }

    func render(_ reply: JSONValue) -> String? {
        guard let list = try? reply["screens"]?.decode([ScreenInfo].self) else { return nil }
        return Table.screens(list)
    }
}

/// `strata-ctl screen add|remove|mode|brightness|transform|scale|mirror|overscan`.
struct ScreenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screen", abstract: "Add, remove and configure screens.",
        subcommands: [
            Add.self, Remove.self, Mode.self, Brightness.self, Transform.self, Scale.self, Mirror.self, Overscan.self,
        ])

    struct Add: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect a new (headless) screen; prints its id.")
        @OptionGroup var options: ConnectionOptions
        @Option(
            help: ArgumentHelp("Its preferred mode (default: the size Strata was started with).", valueName: "WxH[@Hz]")
        )
        var size: String?
        @Option(help: ArgumentHelp("Another mode it offers; repeatable.", valueName: "WxH[@Hz]"))
        var mode: [String] = []
        @Option(help: ArgumentHelp("Its name (default: HEADLESS-n).", valueName: "name"))
        var name: String?
        @Option(
            help: ArgumentHelp(
                "It overscans: the display crops PERCENT of each side's length (0...20); compensated by scaling the picture into the safe area (default), insetting the screen's bounds, or not at all.",
                valueName: "PERCENT[:scale|inset|none]"))
        var overscan: String?

        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            var arguments: [String: JSONValue] = [:]
            for text in [size].compactMap({ $0 }) + mode where ModeSpec(text) == nil {
                throw ValidationError("'\(text)': \(ModeSpec.requirement)")
            }
            if let size { arguments["size"] = .string(size) }
            if !mode.isEmpty { arguments["modes"] = .array(mode.map { .string($0) }) }
            if let name { arguments["name"] = .string(name) }
            if let overscan {
                guard let spec = OverscanSpec(overscan) else {
                    throw ValidationError("'\(overscan)': \(OverscanSpec.requirement)")
                }
                arguments["overscan"] = JSONValue(spec.percent)
                arguments["compensation"] = .string(spec.compensation.rawValue)
            }
            return ("screen-add", arguments)
        }

        func render(_ reply: JSONValue) -> String? { reply["screen"]?["id"]?.intValue.map(String.init) }
    }

    struct Remove: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disconnect a screen; its windows move to the main screen.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
            ("screen-remove", ["screen": reference(screen)])
        }
    }

    struct Mode: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Switch a screen to one of its modes.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: ArgumentHelp("One of the screen's modes (`strata-ctl screens`).", valueName: "WxH[@Hz]"))
        var mode: String
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard ModeSpec(mode) != nil else { throw ValidationError("'\(mode)': \(ModeSpec.requirement)") }
            return ("screen-mode", ["screen": reference(screen), "mode": .string(mode)])
        }
    }

    struct Brightness: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a screen's brightness, 0 (darkest) to 1.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: "0 ... 1") var value: Double
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard value.isFinite, (0...1).contains(value) else {
                throw ValidationError("brightness is between 0 and 1")
            }
            return ("screen-brightness", ["screen": reference(screen), "value": JSONValue(value)])
        }
    }

    struct Transform: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rotate or flip a screen: normal, 90, 180, 270, flipped, flipped-90, flipped-180, flipped-270.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: "The transform.") var transform: String
        func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
            ("screen-transform", ["screen": reference(screen), "transform": .string(transform)])
        }
    }

    struct Scale: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a screen's scale, 1 to 8 (fractional scales such as 1.25 or 1.5 too).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: "1 ... 8") var value: Double
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard value.isFinite, (1...8).contains(value) else { throw ValidationError("scale is between 1 and 8") }
            return ("screen-scale", ["screen": reference(screen), "value": JSONValue(value)])
        }
    }

    struct Mirror: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Allow (on) or forbid (off) a screen to mirror the main screen while it shows no window.")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: "on or off") var state: String
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard ["on", "off"].contains(state) else { throw ValidationError("mirror takes on or off") }
            return ("screen-mirror", ["screen": reference(screen), "enabled": .bool(state == "on")])
        }
    }
}

extension ScreenCommand {
    struct Overscan: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Set how a screen's overscan is compensated: scale (shrink the picture into the safe area), inset (shrink the screen's bounds) or none."
        )
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The screen: its id or name.") var screen: String
        @Argument(help: "scale, inset or none") var compensation: String
        @Option(
            help: ArgumentHelp(
                "How much of each side's length the display crops, 0...20 (default: the screen's current overscan).",
                valueName: "P"))
        var percent: Double?
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard OverscanCompensation(rawValue: compensation) != nil else {
                throw ValidationError("overscan compensation is scale, inset or none")
            }
            var arguments: [String: JSONValue] = ["screen": reference(screen), "compensation": .string(compensation)]
            if let percent {
                guard percent.isFinite, Screen.overscanRange.contains(percent) else {
                    throw ValidationError(
                        "overscan is a percentage between 0 and \(Int(Screen.overscanRange.upperBound))")
                }
                arguments["percent"] = JSONValue(percent)
            }
            return ("screen-overscan", arguments)
        }
    }
}

struct ScreenshotCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot", abstract: "Write a screen (default: the main one), or a window's own image, as PNG.",
        usage: "strata-ctl screenshot [S] [--raw] -o FILE.png\nstrata-ctl screenshot --window W -o FILE.png")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The screen: its id or name.") var screen: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG file to write.", valueName: "file.png")) var output: String
    @Flag(
        help:
            "Write the composed canvas (upright, full brightness, without the overscan border) instead of what the screen shows."
    )
    var raw = false
    @Option(
        help: ArgumentHelp(
            "Write this window's own image instead (an id, title:TEXT, pid:N or an app id): its surfaces and popups alone, whatever covers it, wherever it is.",
            valueName: "W"))
    var window: String?

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        var arguments: [String: JSONValue] = ["path": .string(absolutePath(output))]
        if let window {
            guard screen == nil, !raw else { throw ValidationError("--window takes no screen and no --raw") }
            arguments["window"] = reference(window)
            return ("screenshot", arguments)
        }
        if raw { arguments["raw"] = .bool(true) }
        if let screen { arguments["screen"] = reference(screen) }
        return ("screenshot", arguments)
    }

    func render(_ reply: JSONValue) -> String? { reply["path"]?.stringValue }
}

/// `path` made absolute against the current directory (the server has its own).
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = FileManager.default.currentDirectoryPath
    return (directory.hasSuffix("/") ? directory : directory + "/") + path
}
