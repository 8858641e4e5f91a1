import ArgumentParser
import StrataControlProtocol

/// `strata-ctl input pointer|key|type|touch|swipe|pinch|hold|tablet`: input injected into the seat.
struct InputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "input", abstract: "Inject pointer, keyboard, touch, touchpad gesture and tablet input.",
        subcommands: [Pointer.self, Key.self, TypeText.self, Touch.self, GestureCommands.Swipe.self, GestureCommands.Pinch.self,
                      GestureCommands.Hold.self, TabletCommand.self])

    struct Pointer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the pointer, press and release buttons.", subcommands: [Move.self, Button.self, Click.self])

        struct Move: RequestCommand {
            static let configuration = CommandConfiguration(abstract: "Move the pointer to X Y of a screen.")
            @OptionGroup var options: ConnectionOptions
            @Option(help: ArgumentHelp("The screen (default: the pointer's, else the main one).", valueName: "screen")) var screen: String?
            @Argument(help: "X in the screen's coordinates.") var x: Double
            @Argument(help: "Y in the screen's coordinates.") var y: Double
            @Flag(help: "X and Y are pixels of what the screen shows (its screenshot), mapped through overscan and scale.")
            var shown = false
            func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
                var arguments: [String: JSONValue] = ["x": JSONValue(x), "y": JSONValue(y)]
                if shown { arguments["shown"] = .bool(true) }
                if let screen { arguments["screen"] = reference(screen) }
                return ("pointer-move", arguments)
            }
        }

        struct Button: RequestCommand {
            static let configuration = CommandConfiguration(abstract: "Press (down) or release (up) a button.")
            @OptionGroup var options: ConnectionOptions
            @Argument(help: "left, right, middle or an evdev code (272 is BTN_LEFT).") var button: String
            @Argument(help: "down or up") var state: String
            func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
                guard ["down", "up"].contains(state) else { throw ValidationError("the state is down or up") }
                return ("pointer-button", ["button": reference(button), "state": .string(state)])
            }
        }

        struct Click: RequestCommand {
            static let configuration = CommandConfiguration(abstract: "Press and release a button (default: left).")
            @OptionGroup var options: ConnectionOptions
            @Argument(help: "left, right, middle or an evdev code.") var button = "left"
            func makeRequest() -> (command: String, arguments: [String: JSONValue]) {
                ("pointer-click", ["button": reference(button)])
            }
        }
    }

    struct Key: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Press and release a key (or only press it: down, or release it: up).",
            discussion: """
                KEY is a keysym name (a, A, Return, space, F1, 1 ...), typed with Shift when the \
                keysym needs it, or an evdev key code: a number of two digits or more, or code:N \
                (30 is KEY_A).
                """)
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "A keysym name or a key code.") var key: String
        @Argument(help: "down or up (default: both)") var state: String?

        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            var arguments: [String: JSONValue] = [:]
            if key.hasPrefix("code:"), let code = Int(key.dropFirst(5)) {
                arguments["key"] = JSONValue(code)
            } else if key.count >= 2, let code = Int(key) {
                arguments["key"] = JSONValue(code)
            } else {
                arguments["key"] = .string(key.hasPrefix("sym:") ? String(key.dropFirst(4)) : key)
            }
            if let state {
                guard ["down", "up"].contains(state) else { throw ValidationError("the state is down or up") }
                arguments["state"] = .string(state)
            }
            return ("key", arguments)
        }
    }

    struct TypeText: RequestCommand {
        static let configuration = CommandConfiguration(
            commandName: "type", abstract: "Type text on the keymap (ASCII; Shift as needed).")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The text.") var text: String
        func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("type", ["text": .string(text)]) }
    }

    struct Touch: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "A touch point goes down, moves or goes up.", usage: "strata-ctl input touch down|move|up ID [X Y]")
        @OptionGroup var options: ConnectionOptions
        @Option(help: ArgumentHelp("The screen for down (default: the pointer's, else the main one).", valueName: "screen")) var screen: String?
        @Argument(help: "down, move or up") var phase: String
        @Argument(help: "The touch point's id.") var id: Int
        @Argument(help: "X in the screen's coordinates (down, move).") var x: Double?
        @Argument(help: "Y in the screen's coordinates (down, move).") var y: Double?

        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard ["down", "move", "up"].contains(phase) else { throw ValidationError("the phase is down, move or up") }
            var arguments: [String: JSONValue] = ["phase": .string(phase), "touch_id": JSONValue(id)]
            if phase != "up" {
                guard let x, let y else { throw ValidationError("touch \(phase) needs X and Y") }
                arguments["x"] = JSONValue(x)
                arguments["y"] = JSONValue(y)
            }
            if let screen { arguments["screen"] = reference(screen) }
            return ("touch", arguments)
        }
    }
}
