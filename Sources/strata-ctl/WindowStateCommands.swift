import ArgumentParser
import StrataControlProtocol
import StrataModel

/// `maximize`, `fullscreen`, `restore`, `resize`: asked of the window's client as a taskbar asks
/// (docs/control.md); the client answers in its own time, so each prints the window as it is now
/// and what was asked.
struct MaximizeCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "maximize", abstract: "Ask a window's client to maximize it (the work area).",
        discussion: "The client gets the same configure as for its own maximize request; its frame becomes the work area once it has drawn that size.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("maximize", ["window": reference(window)]) }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

struct FullscreenCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "fullscreen", abstract: "Ask a window's client to go fullscreen (on its screen, or --screen).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Option(help: ArgumentHelp("The screen: its id or name (default: the window's own).", valueName: "screen"))
    var screen: String?
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        var arguments: [String: JSONValue] = ["window": reference(window)]
        if let screen { arguments["screen"] = reference(screen) }
        return ("fullscreen", arguments)
    }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

struct RestoreCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Ask a window's client to leave fullscreen and maximized (the frame before).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("restore", ["window": reference(window)]) }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

struct ResizeCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "resize", abstract: "Ask a window's client for a size (out of maximized and fullscreen).",
        discussion: "The client gets a configure with the size (each side at most 16384, and within the client's own minimum and maximum size: the size asked is printed). A Wayland client may still choose another size; the frame follows what it draws. An X11 window is resized.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Argument(help: ArgumentHelp("The size in pixels.", valueName: "WIDTHxHEIGHT")) var size: String

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
              width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ValidationError("'\(size)': the size is WIDTHxHEIGHT in whole pixels above 0, e.g. 800x600")
        }
        return ("resize", ["window": reference(window), "width": JSONValue(width), "height": JSONValue(height)])
    }

    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

/// The line the state commands print: the window now, and what its client was asked for.
enum WindowStateText {
    static func render(_ reply: JSONValue) -> String? {
        guard let info = try? reply["window"]?.decode(WindowInfo.self) else { return nil }
        let f = info.frame
        var text = "window \(info.id): frame \(f.x),\(f.y) \(f.width)x\(f.height)"
        if let target = try? reply["target"]?.decode(Rect.self) {
            text += "; asked for \(target.x),\(target.y) \(target.width)x\(target.height)"
        }
        if let width = reply["requested"]?["width"]?.intValue, let height = reply["requested"]?["height"]?.intValue {
            text += "; asked for \(width)x\(height)"
        }
        if reply["changed"]?.boolValue == false { return text + "; neither maximized nor fullscreen: nothing to restore" }
        return text + " (the client draws the new state in its own time)"
    }
}
