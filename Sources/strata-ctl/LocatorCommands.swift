import ArgumentParser
import StrataAccessibility
import StrataControlProtocol

/// The options every locator command shares (`find`, `press`, `click`, `focus`, `type-into`).
struct LocatorOptions: ParsableArguments {
    @Option(help: windowHelp) var window: String?
    @Option(
        help: "The role (any case): push button, check box, text, menu item…; `button` and `entry` name their kinds.")
    var role: String?
    @Option(help: "The accessible name, exactly.") var name: String?
    @Option(name: .customLong("name-glob"), help: "The accessible name, where * matches any characters.")
    var nameGlob: String?
    @Option(help: "Text the element holds (an entry's contents, a label's).") var text: String?
    @Option(help: "With --window: the element at this path (find --json's `path`: 0.3.1).") var path: String?
    @Option(help: "The match at this place (from 0) in the tree's order, when several match.") var index: Int?
    @Option(
        help:
            "Wait up to this many seconds for a match on screen (searched again when the toolkit says its tree changed)."
    )
    var wait: Double?

    var query: AccessibleQuery { AccessibleQuery(role: role, name: name, nameGlob: nameGlob, text: text) }

    /// `path` as indices, nil without one.
    var pathIndices: [Int]? {
        get throws {
            guard let path else { return nil }
            let parts = path.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.count <= 65, parts.allSatisfy({ ($0 ?? -1) >= 0 }) else {
                throw ValidationError("--path is indices joined by dots (0.3.1), as find --json gives")
            }
            return parts.compactMap { $0 }
        }
    }

    func validate() throws {
        _ = try pathIndices
        if path != nil, window == nil { throw ValidationError("--path needs --window: a path is inside one window") }
        if let index, index < 0 { throw ValidationError("--index counts from 0") }
        if let wait, !(wait.isFinite && wait >= 0 && wait <= 3600) {
            throw ValidationError("--wait is a number of seconds, 0 ... 3600")
        }
    }

    /// The locator in words, for messages: `role "push button", name "OK" in window gtk3-demo`.
    var words: String {
        var parts: [String] = []
        if let role { parts.append("role \"\(role)\"") }
        if let name { parts.append("name \"\(name)\"") }
        if let nameGlob { parts.append("name like \"\(nameGlob)\"") }
        if let text { parts.append("text \"\(text)\"") }
        if let path { parts.append("path \(path)") }
        if let index { parts.append("match \(index)") }
        let what = parts.isEmpty ? "any element" : parts.joined(separator: ", ")
        return window.map { what + " in window \($0)" } ?? what
    }
}

/// An accessible object found, placed on a screen through its Strata window.
struct LocatedElement {
    let match: AccessibleMatch
    /// The Strata window it is in (nil: no shown window of its process has its toplevel's title).
    let window: WindowInfo?
    /// Its rectangle in its screen's coordinates, and the screen (nil: not on screen).
    let rect: (x: Double, y: Double, width: Int, height: Int)?
    let screen: UInt64?

    var center: (x: Double, y: Double)? {
        rect.map { ($0.x + Double($0.width) / 2, $0.y + Double($0.height) / 2) }
    }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "role": .string(match.role), "name": .string(match.name),
            "states": .array(match.states.map { .string($0) }), "actions": .array(match.actions.map { .string($0) }),
            "application": .string(match.application), "pid": JSONValue(Int(match.processID)),
            "toplevel": .string(match.toplevelName),
            "path": .string(match.path.map(String.init).joined(separator: ".")),
            "depth": JSONValue(match.path.count - 1),
        ]
        if let window { object["window"] = JSONValue(Int(window.id)) }
        if let rect {
            object["rect"] = .object([
                "x": JSONValue(rect.x), "y": JSONValue(rect.y), "width": JSONValue(rect.width),
                "height": JSONValue(rect.height),
            ])
        }
        if let screen { object["screen"] = JSONValue(Int(screen)) }
        return .object(object)
    }

    /// One line: `push button "OK" at 120,80,60x30 on screen 1 in window 2 (gtk3-demo) [enabled showing]`.
    var line: String {
        var text = "\(match.role) \"\(match.name)\""
        if let rect {
            text += " at \(ControlNumber.text(rect.x)),\(ControlNumber.text(rect.y)),\(rect.width)x\(rect.height)"
            if let screen { text += " on screen \(screen)" }
        } else {
            text += " (not on screen)"
        }
        if let window {
            text += " in window \(window.id) (\(window.appID))"
        } else {
            text += " in \"\(match.toplevelName)\""
        }
        return text + " [" + match.states.joined(separator: " ") + "]"
    }
}

/// The search behind the locator commands: the windows from Strata, the tree from its
/// accessibility bus, each match converted into screen coordinates by Strata (`convert`).
///
/// Toolkits count "window-relative" from several origins (`ToolkitOrigin`): GTK 3 on Wayland
/// from its surface's corner, its client-side shadows included, its toplevel the whole surface;
/// GTK 4, Qt and Chromium from the window's frame; GTK 4 under Xwayland from inside the border it
/// draws in its X window; Qt with client-side decorations from its content, inside them; Firefox
/// on Wayland from its surface, with its toplevel at the frame's place in it; Qt 5 under X11 from
/// the X screen. So each element is taken relative to its toplevel's own rectangle, and that
/// rectangle's size against the Strata window's frame tells the rest; for the surface, `convert`
/// is asked with `surface` (Strata knows where the window's surface lies around its frame).
final class Locator {
    let client: ControlClient
    let options: LocatorOptions
    /// Strata's windows, read again at each search.
    private(set) var windows: [WindowInfo]
    let desktop: AccessibleDesktop

    init(client: ControlClient, options: LocatorOptions) throws {
        self.client = client
        self.options = options
        let hello = try client.call("hello")
        windows = try client.call("windows")["windows"]?.decode([WindowInfo].self) ?? []
        do {
            desktop = try AccessibleDesktop(sessionBus: hello["accessibility_bus"]?.stringValue ?? "")
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The shown Strata window of process `pid` whose title is `title`, else the only one whose
    /// title is `title` and the application's name after a dash (Qt 6 titles its windows
    /// `New Form — Qt Designer` and its toplevel `New Form`), else the only shown window of that
    /// process.
    func window(pid: Int32, title: String) -> WindowInfo? {
        let shown = windows.filter { $0.pid == pid && !$0.hidden }
        if let exact = shown.first(where: { $0.title == title }) { return exact }
        let suffixed = shown.filter { window in
            [" \u{2014} ", " - "].contains { window.title.hasPrefix(title + $0) }
        }
        if !title.isEmpty, suffixed.count == 1 { return suffixed[0] }
        return shown.count == 1 ? shown.first : nil
    }

    /// Every match, placed; and whether a bound cut the search.
    func find(limit: Int = 200) throws -> (elements: [LocatedElement], truncated: Bool) {
        windows = try client.call("windows")["windows"]?.decode([WindowInfo].self) ?? []
        var target: WindowInfo?
        if let name = options.window { target = try WindowSelector(name).resolve(in: windows) }
        var search = AccessibleSearch()
        search.limit = limit
        let result = search.run(options.query, on: desktop, path: try options.pathIndices) { pid, title, _ in
            guard let target else { return true }
            return window(pid: pid, title: title)?.id == target.id
        }
        var elements = try result.matches.map { match in try place(match) }
        if let index = options.index { elements = index < elements.count ? [elements[index]] : [] }
        return (elements, result.truncated)
    }

    /// `find`, again each time the toolkits say their trees changed (or every half second, for
    /// one that says nothing), until something matches on screen or `options.wait` seconds pass.
    func findWaiting(limit: Int = 200) throws -> (elements: [LocatedElement], truncated: Bool) {
        guard let wait = options.wait else { return try find(limit: limit) }
        let events = AccessibleEvents()
        let deadline = ControlClient.now() + wait
        while true {
            do {
                // Found on screen: its window shown too (a toolkit publishes its tree before
                // the window maps).
                let found = try find(limit: limit)
                if found.elements.contains(where: { $0.rect != nil }) || ControlClient.now() >= deadline {
                    return found
                }
            } catch let error as ControlError where error.code == .unknownWindow {
                // The window may not be there yet: waited for as its elements are.
                if ControlClient.now() >= deadline { throw error }
            }
            events.wait(seconds: min(max(0.001, deadline - ControlClient.now()), 0.5))
        }
    }

    /// The scale of each screen (`screens`), read once.
    private lazy var screenScales: [UInt64: Double] = {
        let screens = (try? client.call("screens")["screens"]?.decode([ScreenInfo].self)) ?? []
        return Dictionary(screens.map { ($0.id, $0.scale) }, uniquingKeysWith: { first, _ in first })
    }()

    /// `rect` in the toolkit's logical pixels. Chromium on Wayland reports a web page and what
    /// is in it in device pixels from its toplevel's corner (the rest of its window, and its
    /// toplevel, in logical pixels). Its scale is the page's width against the window's frame
    /// (the page spans the frame): the screen's scale when it is near that (a scroll bar takes
    /// some width), none while Chromium still draws at 1 (just moved from a screen at 1), else
    /// that ratio. The walk up to the page stops at the toplevel (the match's depth).
    private func logical(_ rect: AccessibleRect, of match: AccessibleMatch, in window: WindowInfo) -> AccessibleRect {
        guard match.toolkit == "Chromium", window.kind != "x11", window.frame.width > 0,
            let top = match.toplevelRect, abs(top.x) < 1 << 29, abs(top.y) < 1 << 29,
            let page = match.node.webDocument(limit: match.path.count)?.windowExtents, page.width > 0,
            page.width < 1 << 29
        else { return rect }
        let ratio = Double(page.width) / Double(window.frame.width)
        let screenScale = window.screen.flatMap { screenScales[$0] } ?? 1
        let scale = abs(ratio - screenScale) <= 0.1 * screenScale ? screenScale : ratio
        guard scale.isFinite, scale > 1.05, scale <= 16 else { return rect }
        func divided(_ value: Int) -> Int { Int((Double(value) / scale).rounded()) }
        return AccessibleRect(
            x: top.x + divided(rect.x - top.x), y: top.y + divided(rect.y - top.y), width: divided(rect.width),
            height: divided(rect.height))
    }

    private func place(_ match: AccessibleMatch) throws -> LocatedElement {
        let window = self.window(pid: match.processID, title: match.toplevelName)
        guard let window, let reported = match.surfaceRect, reported.width > 0, reported.height > 0,
            abs(reported.x) < 1 << 29, abs(reported.y) < 1 << 29
        else { return LocatedElement(match: match, window: window, rect: nil, screen: nil) }
        let rect = logical(reported, of: match, in: window)
        let origin = ToolkitOrigin(
            toplevel: match.toplevelRect, frameWidth: window.frame.width, frameHeight: window.frame.height,
            toolkit: match.toolkit, x11: window.kind == "x11")
        let width = rect.width - origin.excessWidth, height = rect.height - origin.excessHeight
        guard width > 0, height > 0 else { return LocatedElement(match: match, window: window, rect: nil, screen: nil) }
        let reply = try client.call(
            "convert",
            [
                "window": JSONValue(Int(window.id)), "x": JSONValue(rect.x + origin.dx),
                "y": JSONValue(rect.y + origin.dy), "width": JSONValue(width),
                "height": JSONValue(height), "surface": .bool(origin.surface),
            ])
        guard let x = reply["x"]?.doubleValue, let y = reply["y"]?.doubleValue else {
            return LocatedElement(match: match, window: window, rect: nil, screen: nil)
        }
        return LocatedElement(match: match, window: window, rect: (x, y, width, height), screen: window.screen)
    }

    /// The one element the locator names: a single match, or the single one on screen among
    /// several. Otherwise a failure that says so and lists the candidates.
    func one() throws -> LocatedElement {
        var (elements, _) = try findWaiting()
        // A toolkit that changes its tree while it is walked can hide an element from that walk
        // (GTK 4 rebuilding a header bar): an empty match is searched once more before it counts.
        if elements.isEmpty, options.wait == nil { elements = try find().elements }
        if elements.count == 1 { return elements[0] }
        let shown = elements.filter { $0.rect != nil }
        if shown.count == 1 { return shown[0] }
        guard elements.isEmpty else {
            let list = (shown.isEmpty ? elements : shown).prefix(20).map { "  " + $0.line }.joined(separator: "\n")
            throw CommandFailure(
                "\(shown.isEmpty ? elements.count : shown.count) elements match \(options.words); name one (--name, --role, --window):\n\(list)"
            )
        }
        throw CommandFailure("nothing matches \(options.words)" + (try candidates()) + toolkitHint())
    }

    /// For an empty match: a note on each toolkit on the bus that publishes less than it could
    /// (Chromium shows its window's frame but no page unless told to), else "".
    func toolkitHint() -> String {
        let chromium = desktop.applications().filter { $0.toolkitName == "Chromium" }.map(\.processID)
        guard !chromium.isEmpty else { return "" }
        let pids = chromium.prefix(5).map(String.init).joined(separator: ", ")
        return
            "\n(Chromium is on the bus (pid \(pids)): it publishes its pages' elements only when started with --force-renderer-accessibility)"
    }

    /// What is there instead, for an empty match: the elements with the asked role, else with
    /// the asked name, else the named elements of the windows searched (20 at most).
    private func candidates() throws -> String {
        var loose = options
        loose.name = nil
        loose.nameGlob = nil
        loose.text = nil
        loose.path = nil
        loose.index = nil
        loose.wait = nil
        if options.role == nil { loose.role = nil }
        var elements = try Locator(client: client, options: loose, windows: windows, desktop: desktop).find(limit: 400)
            .elements.filter { !$0.match.name.isEmpty }
        if elements.isEmpty, options.role != nil {
            loose.role = nil
            elements = try Locator(client: client, options: loose, windows: windows, desktop: desktop).find(limit: 400)
                .elements.filter { !$0.match.name.isEmpty }
        }
        guard !elements.isEmpty else { return " (no accessible object with a name: does the client publish its tree?)" }
        return "; candidates:\n" + elements.prefix(20).map { "  " + $0.line }.joined(separator: "\n")
    }

    private init(client: ControlClient, options: LocatorOptions, windows: [WindowInfo], desktop: AccessibleDesktop) {
        self.client = client
        self.options = options
        self.windows = windows
        self.desktop = desktop
    }
}

/// `ControlNumber.text(12.0)` is "12", `12.5` "12.5".
enum ControlNumber {
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract:
            "List the accessible objects (buttons, entries, labels…) of the clients that match, with their place on screen.",
        discussion:
            "Needs a Strata started with --accessibility (docs/accessibility.md). Each line: the role, the name, the rectangle in the screen's coordinates, the window, the states."
    )
    @OptionGroup var options: ConnectionOptions
    @OptionGroup var locator: LocatorOptions

    func run() throws {
        try Output.guarded {
            let finder = try Locator(client: try options.connect(), options: locator)
            let found = try finder.findWaiting()
            if options.json {
                let reply: JSONValue = .object([
                    "elements": .array(found.elements.map(\.json)), "truncated": .bool(found.truncated),
                ])
                print(String(decoding: reply.encodedLine(), as: UTF8.self))
                return
            }
            for element in found.elements { print(element.line) }
            if found.truncated { print("(more than \(found.elements.count): the search stopped there; narrow it)") }
            if found.elements.isEmpty {
                throw CommandFailure("nothing matches \(locator.words)" + finder.toolkitHint())
            }
        }
    }
}

/// How an element is acted on, as the reply says.
enum LocatorAction {
    /// Presses the element: its accessible action (click, press, activate, toggle, or a link's
    /// jump) where it has one, else a pointer click at its centre.
    case press
    /// A pointer click at its centre, its window ordered front first.
    case click
    /// The keyboard focus: the toolkit's grab_focus, else a click.
    case focus
    /// Focus, then type the text.
    case type(String)
}

extension Locator {
    /// Acts on the one element; the words of what was done.
    func act(_ action: LocatorAction) throws -> (element: LocatedElement, how: String) {
        let element = try one()
        switch action {
        case .press:
            // GTK names its actions in lower case (click), Qt capitalised (Press, Toggle);
            // Firefox's and Chromium's links have `jump`.
            let actions = element.match.actions
            if let name = ["click", "press", "activate", "toggle", "jump"].lazy.compactMap({ wanted in
                actions.first { $0.lowercased() == wanted }
            }).first, element.match.node.doAction(named: name) {
                return (element, "its accessible action \"\(name)\"")
            }
            return (element, try click(element))
        case .click:
            return (element, try click(element))
        case .focus:
            return (element, try focus(element))
        case .type(let text):
            let how = try focus(element)
            _ = try client.call("type", ["text": .string(text)])
            return (element, how + ", then typed \(text.count) characters")
        }
    }

    private func click(_ element: LocatedElement) throws -> String {
        guard let center = element.center, let screen = element.screen, let window = element.window else {
            throw CommandFailure("\(element.line): it is not on screen, so it cannot be clicked")
        }
        // In front of its level first, so that the click lands on it and not on a window over it
        // (another client's invisible resize border reaches past its frame).
        _ = try client.call("raise", ["window": JSONValue(Int(window.id))])
        _ = try client.call(
            "pointer-click",
            ["x": JSONValue(center.x), "y": JSONValue(center.y), "screen": JSONValue(Int(screen))])
        return "a pointer click at \(ControlNumber.text(center.x)),\(ControlNumber.text(center.y)) on screen \(screen)"
    }

    /// Makes the element's window key, then gives the element the focus.
    private func focus(_ element: LocatedElement) throws -> String {
        if let window = element.window { _ = try client.call("make-key", ["window": JSONValue(Int(window.id))]) }
        if element.match.node.grabFocus() { return "the toolkit's focus (grab_focus)" }
        return try click(element)
    }
}

/// `press`, `click`, `focus` and `type-into`: one element, acted on.
protocol LocatorActionCommand: ParsableCommand {
    var options: ConnectionOptions { get }
    var locator: LocatorOptions { get }
    var action: LocatorAction { get }
    static var verb: String { get }
}

extension LocatorActionCommand {
    func run() throws {
        try Output.guarded {
            let (element, how) = try Locator(client: try options.connect(), options: locator).act(action)
            if options.json {
                let reply: JSONValue = .object(["element": element.json, "how": .string(how)])
                print(String(decoding: reply.encodedLine(), as: UTF8.self))
            } else {
                print("\(Self.verb) \(element.line) through \(how)")
            }
        }
    }
}

struct PressCommand: LocatorActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract:
            "Press one accessible object: its accessible action (click, press, activate) where it has one, else a pointer click at its centre."
    )
    static let verb = "pressed"
    @OptionGroup var options: ConnectionOptions
    @OptionGroup var locator: LocatorOptions
    var action: LocatorAction { .press }
}

struct ClickCommand: LocatorActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "click",
        abstract:
            "Click one accessible object's centre with the pointer (its window is ordered front first, so the click lands on it)."
    )
    static let verb = "clicked"
    @OptionGroup var options: ConnectionOptions
    @OptionGroup var locator: LocatorOptions
    var action: LocatorAction { .click }
}

struct FocusCommand: LocatorActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract:
            "Make one accessible object's window key and give it the keyboard focus (the toolkit's grab_focus, else a click)."
    )
    static let verb = "focused"
    @OptionGroup var options: ConnectionOptions
    @OptionGroup var locator: LocatorOptions
    var action: LocatorAction { .focus }
}

struct TypeIntoCommand: LocatorActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "type-into", abstract: "Focus one accessible object (as focus does), then type TEXT into it.")
    static let verb = "typed into"
    @OptionGroup var options: ConnectionOptions
    @OptionGroup var locator: LocatorOptions
    @Argument(help: "The text to type.") var typed: String
    var action: LocatorAction { .type(typed) }
}
