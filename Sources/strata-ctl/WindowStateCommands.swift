import ArgumentParser
import Glibc
import StrataControlProtocol
import StrataModel

/// `maximize`, `fullscreen`, `restore`, `resize`: asked of the window's client as a taskbar asks
/// (docs/control.md); the client answers in its own time, so each prints the window as it is now
/// and what was asked.
struct MaximizeCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "maximize", abstract: "Ask a window's client to maximize it (the work area).",
        discussion:
            "The client gets the same configure as for its own maximize request; its frame becomes the work area once it has drawn that size."
    )
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Option(help: waitHelp, transform: WindowStateWait.seconds) var wait: Double?
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("maximize", ["window": reference(window)])
    }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
    func run() throws { try WindowStateWait.run(self, wait: wait) }
}

struct FullscreenCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "fullscreen", abstract: "Ask a window's client to go fullscreen (on its screen, or --screen).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Option(help: ArgumentHelp("The screen: its id or name (default: the window's own).", valueName: "screen"))
    var screen: String?
    @Option(help: waitHelp, transform: WindowStateWait.seconds) var wait: Double?
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        var arguments: [String: JSONValue] = ["window": reference(window)]
        if let screen { arguments["screen"] = reference(screen) }
        return ("fullscreen", arguments)
    }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
    func run() throws { try WindowStateWait.run(self, wait: wait) }
}

struct RestoreCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Ask a window's client to leave fullscreen and maximized (the frame before).")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
        ("restore", ["window": reference(window)])
    }
    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

struct ResizeCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "resize", abstract: "Ask a window's client for a size (out of maximized and fullscreen).",
        discussion:
            "The client gets a configure with the size (each side at most 16384, and within the client's own minimum and maximum size: the size asked is printed). A Wayland client may still choose another size; the frame follows what it draws. An X11 window is resized."
    )
    @OptionGroup var options: ConnectionOptions
    @Argument(help: windowHelp) var window: String
    @Argument(help: ArgumentHelp("The size in pixels.", valueName: "WIDTHxHEIGHT")) var size: String
    @Option(help: waitHelp, transform: WindowStateWait.seconds) var wait: Double?
    func run() throws { try WindowStateWait.run(self, wait: wait) }

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
            width <= Int(Int32.max), height <= Int(Int32.max)
        else {
            throw ValidationError("'\(size)': the size is WIDTHxHEIGHT in whole pixels above 0, e.g. 800x600")
        }
        return ("resize", ["window": reference(window), "width": JSONValue(width), "height": JSONValue(height)])
    }

    func render(_ reply: JSONValue) -> String? { WindowStateText.render(reply) }
}

let waitHelp = ArgumentHelp(
    "Wait up to this many seconds for the client to draw the new state; exit 1 (saying what it drew) if it does not.",
    valueName: "seconds")

/// `--wait SECONDS` of `maximize`, `fullscreen` and `resize`: after the reply, `windows` is asked
/// every 20 ms until the window's frame is what was asked (`target`, or a resize's `requested`
/// size), or the time is up. (`restore` has no frame to wait for: the client picks its size.)
enum WindowStateWait {
    /// `--wait`'s value: 0 to 3600 seconds.
    static func seconds(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, (0...3600).contains(value) else {
            throw ValidationError("--wait takes a number of seconds from 0 to 3600, not '\(text)'")
        }
        return value
    }

    static func run(_ command: some RequestCommand, wait: Double?) throws {
        let (name, arguments) = try command.makeRequest()
        guard let wait else {
            try command.runRequest(name, arguments)
            return
        }
        try Output.guarded {
            let client = try command.options.connect()
            let reply = try client.call(name, arguments)
            guard let before = try? reply["window"]?.decode(WindowInfo.self) else {
                throw CommandFailure("Strata's reply names no window")
            }
            let target = try? reply["target"]?.decode(Rect.self)
            let size = reply["requested"].flatMap { requested in
                requested["width"]?.intValue.flatMap { w in
                    requested["height"]?.intValue.map { Size(width: w, height: $0) }
                }
            }
            func reached(_ info: WindowInfo) -> Bool {
                if let target { return info.frame == target }
                if let size { return info.frame.size == size }
                return true
            }
            let deadline = ControlClient.now() + wait
            var now = before
            while true {
                let list = try client.call("windows")["windows"]?.decode([WindowInfo].self) ?? []
                guard let current = list.first(where: { $0.id == before.id }) else {
                    throw CommandFailure("window \(before.id) closed before it drew the new state")
                }
                now = current
                if reached(now) { break }
                if ControlClient.now() >= deadline {
                    let f = now.frame
                    let wanted =
                        target.map { "\($0.x),\($0.y) \($0.width)x\($0.height)" } ?? size.map {
                            "\($0.width)x\($0.height)"
                        } ?? "the new state"
                    throw CommandFailure(
                        "window \(before.id)'s client did not draw \(wanted) within \(wait) s: its frame is \(f.x),\(f.y) \(f.width)x\(f.height) (clients may choose their own size)"
                    )
                }
                usleep(20_000)
            }
            if command.options.json {
                print(
                    String(
                        decoding: JSONValue.object(["window": (try? JSONValue(encoding: now)) ?? .null]).encodedLine(),
                        as: UTF8.self))
            } else {
                let f = now.frame
                print("window \(now.id): frame \(f.x),\(f.y) \(f.width)x\(f.height)")
            }
        }
    }
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
        if reply["changed"]?.boolValue == false {
            return text + "; neither maximized nor fullscreen: nothing to restore"
        }
        return text + " (the client draws the new state in its own time)"
    }
}
