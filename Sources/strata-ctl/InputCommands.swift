import ArgumentParser
import StrataControlProtocol

/// `strata-ctl input pointer|click|scroll|key|type|touch|swipe|pinch|hold|tablet`: input injected
/// into the seat.
struct InputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "input", abstract: "Inject pointer, keyboard, touch, touchpad gesture and tablet input.",
        subcommands: [
            Pointer.self, Pointer.Click.self, Scroll.self, Key.self, TypeText.self, Touch.self,
            GestureCommands.Swipe.self, GestureCommands.Pinch.self,
            GestureCommands.Hold.self, TabletCommand.self,
        ])

    struct Pointer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the pointer, press and release buttons.", subcommands: [Move.self, Button.self, Click.self])

        struct Move: RequestCommand {
            static let configuration = CommandConfiguration(abstract: "Move the pointer to X Y of a screen.")
            @OptionGroup var options: ConnectionOptions
            @Option(help: ArgumentHelp("The screen (default: the pointer's, else the main one).", valueName: "screen"))
            var screen: String?
            @Argument(help: "X in the screen's coordinates.") var x: Double
            @Argument(help: "Y in the screen's coordinates.") var y: Double
            @Flag(
                help: "X and Y are pixels of what the screen shows (its screenshot), mapped through overscan and scale."
            )
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
            static let configuration = CommandConfiguration(
                abstract: "Press and release a button (default: left), at X Y of a screen when given.",
                usage: "strata-ctl input click [X Y] [BUTTON] [--screen S] [--shown]")
            @OptionGroup var options: ConnectionOptions
            @Option(
                help: ArgumentHelp(
                    "The screen of X Y (default: the pointer's, else the main one).", valueName: "screen")) var screen:
                String?
            @Flag(
                help: "X and Y are pixels of what the screen shows (its screenshot), mapped through overscan and scale."
            )
            var shown = false
            // Unrecognized: a negative coordinate is a value, not an option.
            @Argument(
                parsing: .allUnrecognized,
                help:
                    "[X Y] [BUTTON]: the point to move to first (the screen's coordinates), and left, right, middle or an evdev code."
            )
            var words: [String] = []

            func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
                var arguments: [String: JSONValue] = [:]
                var rest = words[...]
                if rest.count >= 2, let x = Double(rest[rest.startIndex]), let y = Double(rest[rest.startIndex + 1]) {
                    guard x.isFinite, y.isFinite else { throw ValidationError("X and Y are finite numbers") }
                    arguments["x"] = JSONValue(x)
                    arguments["y"] = JSONValue(y)
                    rest = rest.dropFirst(2)
                } else if screen != nil || shown {
                    throw ValidationError("--screen and --shown go with X Y")
                }
                guard rest.count <= 1 else {
                    throw ValidationError("click takes [X Y] [BUTTON]: \(words.joined(separator: " ")) is more")
                }
                arguments["button"] = reference(rest.first ?? "left")
                if shown { arguments["shown"] = .bool(true) }
                if let screen { arguments["screen"] = reference(screen) }
                return ("pointer-click", arguments)
            }
        }
    }

    struct Scroll: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Scroll by DX DY wheel clicks (positive: right, down), or smoothly by DX DY units.",
            discussion: """
                Wheel clicks are whole numbers (-100...100); clients get a wheel source, axis_value120 \
                (or axis_discrete) and 15 units a click. --smooth scrolls DX DY surface units as a \
                touchpad does (finger source, then axis_stop). The surface under the pointer gets it.
                """)
        @OptionGroup var options: ConnectionOptions
        @Flag(help: "DX and DY are surface units of a smooth (finger) scroll, not wheel clicks.") var smooth = false
        // Unrecognized: a negative number (-3, scrolling up) is a value, not an option.
        @Argument(
            parsing: .allUnrecognized,
            help: "DX DY: horizontal (positive: right) and vertical (positive: down), clicks or units.")
        var values: [String] = []

        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            guard values.count == 2, let dx = Double(values[0]), let dy = Double(values[1]), dx.isFinite, dy.isFinite
            else {
                throw ValidationError("scroll takes DX DY, two numbers (wheel clicks, or units with --smooth)")
            }
            var arguments: [String: JSONValue] = ["dx": JSONValue(dx), "dy": JSONValue(dy)]
            if smooth { arguments["smooth"] = .bool(true) }
            return ("pointer-scroll", arguments)
        }
    }

    struct Key: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "Press and release a key or a chord (or only press it: down, or release it: up).",
            discussion: """
                KEY is a keysym name (a, A, Return, space, F1, at, EuroSign ...; case-insensitive \
                when unambiguous) or one character, typed with the modifiers of its level (Shift, \
                AltGr), or a chord: modifiers and a key joined by + (ctrl+shift+t, altgr+q, \
                super+Return, ctrl++); modifiers are ctrl (control), shift, alt, super (logo, meta) \
                and altgr, pressed in order and released in reverse. Or an evdev key code: a number \
                of two digits or more, or code:N (30 is KEY_A).
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
            commandName: "type", abstract: "Type any text (UTF-8), with Shift or AltGr as each character needs.",
            discussion: """
                Each character is typed on the key and level of the keymap that give it; a character \
                no key has is typed through an extended keymap clients receive first. A newline is \
                Return, a tab Tab; other control characters are refused (nothing is typed). At most \
                4096 characters.
                """)
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "The text.") var text: String
        func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("type", ["text": .string(text)]) }
    }

    struct Touch: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "A touch point goes down, moves or goes up.",
            usage: "strata-ctl input touch down|move|up ID [X Y]")
        @OptionGroup var options: ConnectionOptions
        @Option(
            help: ArgumentHelp("The screen for down (default: the pointer's, else the main one).", valueName: "screen"))
        var screen: String?
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
