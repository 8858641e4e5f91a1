import ArgumentParser
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataRecording
import StrataServer

/// The start's fast path for the command line (docs/performance.md, "Start-up"):
/// swift-argument-parser's parse reflects over the command's property wrappers (`Mirror`,
/// dynamic casts that scan the binary's protocol-conformance records) and tries the parse of
/// `--generate-completion-script` first, about 10 M instructions, over half of a start. The
/// common command lines (long options with plain values, flags, `-- command…`) are parsed here
/// by hand into the same `StrataCommand`; anything else (help, `--version`, the completion and
/// man-page options, an unknown or repeated option, a value that starts with `-` or is empty,
/// a number that is not plain decimal, anything `validate()` refuses) gets nil, and
/// swift-argument-parser parses the whole line as before, with its own messages and errors.
/// `CommonArgumentsTests` checks that both parses agree and that every option is set.
extension StrataCommand {
    static func parseCommonArguments<Arguments: Collection<String>>(_ arguments: Arguments) -> StrataCommand? {
        var command = StrataCommand()
        // Every property wrapper must hold a value (an unset one traps when read): the defaults
        // of the declarations, as swift-argument-parser would leave them.
        command.backend = .auto
        command.socket = nil
        command.screens = 1
        command.size = ScreenSizeArgument(width: 1280, height: 720)
        command.refresh = 60.0
        command.scale = 1.0
        command.extraModes = []
        command.overscan = nil
        command.screenshot = nil
        command.policy = "uikit"
        command.placement = WindowPlacementPolicies.defaultName
        command.levels = []
        command.clock = .realtime
        command.record = nil
        command.recordLimit = TraceRecorder.defaultMaximumBytes
        command.recordProtocol = []
        command.clientSideDecorations = false
        command.noControl = false
        command.accessibility = false
        command.allowPrivileged = false
        command.hideCursor = false
        command.xwayland = .lazy
        command.pointerBindingModifier = .super
        command.noPointerBindings = false
        command.allowLevels = []
        command.disabledGlobals = []
        command.xDisplay = nil
        command.readyFD = nil
        command.keyboardLayout = nil
        command.keyboardVariant = nil
        command.keyboardOptions = nil
        command.keyboardModel = nil
        command.command = []

        var seen: Set<Substring> = []
        var index = arguments.startIndex
        while index != arguments.endIndex {
            let argument = arguments[index]
            arguments.formIndex(after: &index)
            if argument == "--" {
                command.command = Array(arguments[index...])
                break
            }
            guard argument.hasPrefix("--") else { return nil }
            var name = argument.dropFirst(2)
            var attached: String?
            if let equals = name.firstIndex(of: "=") {
                attached = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            // A single option given twice is left to swift-argument-parser; repeatable ones too,
            // for simplicity, except the four listed below.
            let repeatable = ["mode", "level", "record-protocol", "allow-levels", "disable-global"].contains(name)
            guard repeatable || seen.insert(name).inserted else { return nil }
            /// The option's value: after `=`, else the next argument; nil when missing, empty or
            /// starting with `-` (swift-argument-parser decides those).
            func value() -> String? {
                let text: String
                if let attached {
                    text = attached
                } else {
                    guard index != arguments.endIndex else { return nil }
                    text = arguments[index]
                    arguments.formIndex(after: &index)
                }
                guard let first = text.utf8.first, first != UInt8(ascii: "-") else { return nil }
                return text
            }
            /// A flag takes no value.
            func flag() -> Bool? { attached == nil ? true : nil }
            switch name {
            case "backend":
                guard let text = value(), let choice = BackendChoice(rawValue: text) else { return nil }
                command.backend = choice
            case "socket":
                guard let text = value() else { return nil }
                command.socket = text
            case "screens":
                guard let text = value(), let number = plainInteger(text) else { return nil }
                command.screens = number
            case "size":
                guard let text = value(), let size = try? ScreenSizeArgument.parse(text) else { return nil }
                command.size = size
            case "refresh":
                guard let text = value(), let number = plainDecimal(text) else { return nil }
                command.refresh = number
            case "scale":
                guard let text = value(), let number = plainDecimal(text) else { return nil }
                command.scale = number
            case "mode":
                guard let text = value(), let size = try? ScreenSizeArgument.parse(text) else { return nil }
                command.extraModes.append(size)
            case "overscan":
                guard let text = value(), let spec = OverscanSpec(text) else { return nil }
                command.overscan = spec
            case "screenshot":
                guard let text = value() else { return nil }
                command.screenshot = text
            case "policy":
                guard let text = value() else { return nil }
                command.policy = text
            case "placement":
                guard let text = value() else { return nil }
                command.placement = text
            case "level":
                guard let text = value(), let rule = try? LevelRule.parse(text) else { return nil }
                command.levels.append(rule)
            case "clock":
                guard let text = value(), let mode = StrataServer.Clock.Mode(rawValue: text) else { return nil }
                command.clock = mode
            case "record":
                guard let text = value() else { return nil }
                command.record = text
            case "record-limit":
                guard let text = value(), let number = plainInteger(text) else { return nil }
                command.recordLimit = number
            case "record-protocol":
                guard let text = value() else { return nil }
                command.recordProtocol.append(text)
            case "client-side-decorations":
                guard let on = flag() else { return nil }
                command.clientSideDecorations = on
            case "no-control":
                guard let on = flag() else { return nil }
                command.noControl = on
            case "accessibility":
                guard let on = flag() else { return nil }
                command.accessibility = on
            case "allow-privileged":
                guard let on = flag() else { return nil }
                command.allowPrivileged = on
            case "hide-cursor":
                guard let on = flag() else { return nil }
                command.hideCursor = on
            case "xwayland":
                guard let text = value(), let mode = XwaylandMode(rawValue: text) else { return nil }
                command.xwayland = mode
            case "pointer-binding-modifier":
                guard let text = value(), let modifier = PointerBindingModifier(rawValue: text) else { return nil }
                command.pointerBindingModifier = modifier
            case "no-pointer-bindings":
                guard let on = flag() else { return nil }
                command.noPointerBindings = on
            case "allow-levels":
                guard let text = value() else { return nil }
                command.allowLevels.append(text)
            case "x-display":
                guard let text = value(), let number = plainInteger(text) else { return nil }
                command.xDisplay = number
            case "ready-fd":
                guard let text = value(), let number = plainInteger(text), let fd = Int32(exactly: number) else {
                    return nil
                }
                command.readyFD = fd
            case "disable-global":
                guard let text = value() else { return nil }
                command.disabledGlobals.append(text)
            case "keyboard-layout":
                guard let text = value() else { return nil }
                command.keyboardLayout = text
            case "keyboard-variant":
                guard let text = value() else { return nil }
                command.keyboardVariant = text
            case "keyboard-options":
                guard let text = value() else { return nil }
                command.keyboardOptions = text
            case "keyboard-model":
                guard let text = value() else { return nil }
                command.keyboardModel = text
            default:
                return nil
            }
        }
        do {
            try command.validate()
        } catch {
            return nil
        }
        return command
    }

    /// Decimal digits only (1 to 18 of them), as `Int(_:)` reads them.
    private static func plainInteger(_ text: String) -> Int? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    /// Decimal digits with at most one point (1 to 30 characters), as `Double(_:)` reads them.
    private static func plainDecimal(_ text: String) -> Double? {
        let utf8 = text.utf8
        guard (1...30).contains(utf8.count), utf8.contains(where: { (0x30...0x39).contains($0) }),
            utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
            utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1
        else { return nil }
        return Double(text)
    }
}
