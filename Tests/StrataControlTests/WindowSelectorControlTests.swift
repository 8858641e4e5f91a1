import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Window names over the control socket: every command that takes a window reads it through
/// `WindowSelector` (ids, `title:`, `pid:`, app ids in any case), and a name that fits no window
/// or several is an error whose message lists the candidates.
@Suite struct WindowSelectorControlTests {
    /// Two windows of one app (pid 70), an X-style class and a terminal.
    private static func desk() throws -> (ControlHarness, foot: Window, xterm: Window, demo1: Window, demo2: Window) {
        let harness = try ControlHarness()
        func make(_ appID: String, _ title: String, pid: Int32) -> Window {
            let window = harness.windows.createWindow(appID: appID, title: title, pid: pid)
            harness.windows.setFrame(window, Rect(x: 10, y: 10, width: 100, height: 100))
            harness.windows.show(window, makeKey: true)
            return window
        }
        let foot = make("foot", "~ (sh)", pid: 31)
        let xterm = make("XTerm", "xterm", pid: 52)
        let demo1 = make("Gtk3-demo", "GTK+ Code Demos", pid: 70)
        let demo2 = make("Gtk3-demo", "Button Boxes", pid: 70)
        return (harness, foot, xterm, demo1, demo2)
    }

    @Test func eachFormNamesItsWindowForEveryWindowCommand() throws {
        let (harness, foot, xterm, demo1, demo2) = try Self.desk()
        let client = try harness.connect()
        let names: [(JSONValue, Window)] = [
            (JSONValue(foot.id.rawValue), foot), (.string(String(xterm.id.rawValue)), xterm),
            ("title:~ (sh)", foot), ("title:Button*", demo2), ("title:*Code Demos", demo1),
            ("pid:52", xterm), ("xterm", xterm), ("XTERM", xterm), ("app:Foot", foot),
        ]
        for (name, window) in names {
            for command in ["raise", "lower", "hide", "show", "make-key"] {
                let reply = try client.request(["command": .string(command), "window": name])
                #expect(reply.isOK, "\(command) \(name): \(reply)")
                #expect(reply["window"]?["id"]?.intValue.map(UInt64.init) == window.id.rawValue, "\(command) \(name)")
            }
            let level = try client.request(["command": "set-level", "window": name, "level": "normal"])
            #expect(level["window"]?["id"]?.intValue.map(UInt64.init) == window.id.rawValue, "set-level \(name)")
            let moved = try client.request(["command": "move", "window": name, "x": 20, "y": 30])
            #expect(moved["window"]?["id"]?.intValue.map(UInt64.init) == window.id.rawValue, "move \(name)")
            let converted = try client.request([
                "command": "convert", "window": name, "x": 1, "y": 2, "to": "title:~ (sh)",
            ])
            #expect(converted.isOK, "convert \(name): \(converted)")
        }
        // close of a window without a client closes it at once.
        #expect(try client.request(["command": "close", "window": "title:xterm"])["closed"] == true)
        #expect(xterm.isClosed)
    }

    @Test func aNameOfSeveralWindowsIsAmbiguousAndListsThem() throws {
        let (harness, _, _, demo1, demo2) = try Self.desk()
        for name: JSONValue in ["gtk3-demo", "pid:70", "title:*o*s"] {
            let reply = try harness.request(["command": "raise", "window": name])
            #expect(reply.errorCode == "ambiguous_window", "\(name): \(reply)")
            let message = reply["error"]?["message"]?.stringValue ?? ""
            #expect(
                message.contains("id \(demo1.id.rawValue) (app \"Gtk3-demo\", title \"GTK+ Code Demos\", pid 70)"),
                "\(message)")
            #expect(
                message.contains("id \(demo2.id.rawValue) (app \"Gtk3-demo\", title \"Button Boxes\", pid 70)"),
                "\(message)")
        }
    }

    @Test func aNameOfNoWindowIsUnknownAndListsTheOpenOnes() throws {
        let (harness, foot, _, _, _) = try Self.desk()
        for name: JSONValue in ["title:nothing", "pid:4242", "no.such.app", 999] {
            let reply = try harness.request(["command": "make-key", "window": name])
            #expect(reply.errorCode == "unknown_window", "\(name): \(reply)")
            let message = reply["error"]?["message"]?.stringValue ?? ""
            #expect(
                message.contains("the open windows: id \(foot.id.rawValue) (app \"foot\", title \"~ (sh)\", pid 31)"),
                "\(message)")
        }
        let malformed = try harness.request(["command": "make-key", "window": "pid:abc"])
        #expect(malformed.errorCode == "invalid_argument")
        #expect(malformed["error"]?["message"]?.stringValue?.contains("pid: takes a process id") == true)
    }
}
