import ArgumentParser
import StrataControlProtocol

/// A window or screen on the command line: a number is an id, anything else a window's name
/// (`title:TEXT`, `pid:N`, an app id: `WindowSelector`, resolved by Strata) or a screen's name.
func reference(_ text: String) -> JSONValue {
    if let number = UInt64(text), number <= UInt64(1) << 52 { return .number(Double(number)) }
    return .string(text)
}

/// The help of a window argument.
let windowHelp = ArgumentHelp(
    "The window: its id, title:TEXT (exact; * matches any characters), pid:N, or its app id (any case).",
    valueName: "window")

struct WindowsCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "windows", abstract: "List the windows, front to back.")
    @OptionGroup var options: ConnectionOptions

    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("windows", [:]) }

    func render(_ reply: JSONValue) -> String? {
        guard let list = try? reply["windows"]?.decode([WindowInfo].self) else { return nil }
        return Table.windows(list)
    }
}

struct MakeKeyCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-key", abstract: "Make a window the key window (UIWindow.makeKey()).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("make-key", ["window": reference(window)])
    }
}

struct RaiseCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "raise", abstract: "Order a window in front of the others of its level, its children above it.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("raise", ["window": reference(window)]) }
}

struct LowerCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "lower", abstract: "Order a window behind the others of its level, its children with it.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("lower", ["window": reference(window)]) }
}

struct SetLevelCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-level",
        abstract: "Move a window to a level: background, bottom, normal, alert, statusBar or a number.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Argument(help: "A level name or a number (1500 is between alert and statusBar).") var level: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("set-level", ["window": reference(window), "level": .string(level)])
    }
}

struct HideCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide", abstract: "Hide a window (isHidden = true); key passes on if it was key.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("hide", ["window": reference(window)]) }
}

struct ShowCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a window and order it front (isHidden = false); --key makes it key too.")
    @OptionGroup var options: ConnectionOptions
    @Flag(help: "Make it key as well (makeKeyAndVisible).") var key = false
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("show", ["window": reference(window), "key": .bool(key)])
    }
}

struct MoveCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move a window to a screen, and/or to X,Y of its (new) screen.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Option(help: ArgumentHelp("The screen: its id or name (default: the window's own screen).", valueName: "screen"))
    var screen: String?
    @Option(help: ArgumentHelp("The window's new origin in the screen's coordinates.", valueName: "X,Y")) var to:
        String?

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard screen != nil || to != nil else { throw ValidationError("move needs --screen, --to, or both") }
        var arguments: [String: JSONValue] = ["window": reference(window)]
        if let screen { arguments["screen"] = reference(screen) }
        if let to {
            let parts = to.split(separator: ",", omittingEmptySubsequences: false)
            // Spaces and tabs around each number are allowed.
            func number(_ part: Substring) -> Int? {
                let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
                return Int(String(part.drop(while: blank).reversed().drop(while: blank).reversed()))
            }
            guard parts.count == 2, let x = number(parts[0]), let y = number(parts[1]) else {
                throw ValidationError("--to takes X,Y in whole pixels, e.g. --to 100,50")
            }
            arguments["x"] = JSONValue(x)
            arguments["y"] = JSONValue(y)
        }
        return ("move", arguments)
    }
}

struct CloseCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "close", abstract: "Ask a window's client to close it (xdg_toplevel.close).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("close", ["window": reference(window)]) }
}

struct PolicyCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Print the key-window policy, or set it (uikit, click-to-focus, focus-follows-pointer, explicit).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The policy to use from now on.") var name: String?
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("policy", name.map { ["name": .string($0)] } ?? [:])
    }
    func render(_ reply: JSONValue) -> String? { name == nil ? reply["policy"]?.stringValue : nil }
}

struct PlacementCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "placement", abstract: "Print the window-placement policy, or set it (cascade, top-left, center).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The placement policy to use from now on.") var name: String?
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("placement", name.map { ["name": .string($0)] } ?? [:])
    }
    func render(_ reply: JSONValue) -> String? { name == nil ? reply["placement"]?.stringValue : nil }
}

struct ConvertCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a point X,Y or rectangle X,Y,WxH from a window's coordinates (UIWindow.convert(_:to:)).",
        discussion:
            "Without an option the result is in the window's screen's coordinates. --to and --to-screen convert into another window's or a screen's coordinates; --from and --from-screen read the point in another window's or a screen's coordinates and give it in the window's."
    )
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Argument(help: ArgumentHelp("The point or rectangle.", valueName: "X,Y[,WxH]")) var operand: String
    @Option(help: ArgumentHelp("Into this window's coordinates.", valueName: "window")) var to: String?
    @Option(name: .customLong("to-screen"), help: ArgumentHelp("Into this screen's coordinates.", valueName: "screen"))
    var toScreen: String?
    @Option(help: ArgumentHelp("From this window's coordinates (convert(_:from:)).", valueName: "window")) var from:
        String?
    @Option(
        name: .customLong("from-screen"), help: ArgumentHelp("From this screen's coordinates.", valueName: "screen"))
    var fromScreen: String?
    @Flag(help: "Read X,Y in the window's own surface's coordinates (a toolkit's: GTK 3 counts its shadows).")
    var surface = false

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard let parsed = ConvertOperand(operand) else {
            throw ValidationError("'\(operand)': \(ConvertOperand.requirement)")
        }
        let targets: [(String, String?)] = [
            ("to", to), ("to_screen", toScreen), ("from", from), ("from_screen", fromScreen),
        ]
        let given = targets.filter { $0.1 != nil }
        guard given.count <= 1 else {
            throw ValidationError("give at most one of --to, --to-screen, --from and --from-screen")
        }
        var arguments = parsed.arguments
        arguments["window"] = reference(window)
        if let (key, value) = given.first, let value { arguments[key] = reference(value) }
        if surface { arguments["surface"] = true }
        return ("convert", arguments)
    }

    func render(_ reply: JSONValue) -> String? { reply["text"]?.stringValue }
}
