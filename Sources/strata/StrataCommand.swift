import ArgumentParser
import FoundationEssentials
import Glibc
import StrataModel
import StrataControl
import StrataControlProtocol
import StrataNestedBackends
import StrataProcess
import StrataRecording
import StrataServer

/// `strata [options] [-- command args…]`: the compositor's command line.
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "A Wayland compositor with UIKit's window model (UIWindow, UIScreen).",
        usage: "strata [options] [-- command args…]",
        discussion: """
            Strata takes a free wayland-N socket in XDG_RUNTIME_DIR, prints WAYLAND_DISPLAY=wayland-N \
            on standard output, and starts the command (if any) with WAYLAND_DISPLAY naming a \
            privileged socket of its own (wayland-N-<random>): every Wayland client the command \
            starts, at any depth, connects there on its own connection and may use the tool \
            protocols (grim, wlr-randr, wtype, wl-clipboard); clients started elsewhere use the \
            public wayland-N. \
            When the command ends, Strata ends with the command's exit status (128 + the signal \
            if it was killed). Without a command it runs until SIGINT or SIGTERM, then exits 0.
            """)

    @Option(
        help: ArgumentHelp(
            "Where screens come from.",
            discussion:
                "auto nests Strata in the desktop session it is started from: wayland when WAYLAND_DISPLAY is set, else x11 when DISPLAY is set, else headless."
        ))
    var backend: BackendChoice = .auto

    @Option(
        help: ArgumentHelp(
            "The socket's name in XDG_RUNTIME_DIR (default: the first free wayland-N).", valueName: "name"))
    var socket: String?

    @Option(help: "How many screens to connect (1...16).")
    var screens = 1

    @Option(
        help: ArgumentHelp("Each screen's size in pixels (default: 1280x720).", valueName: "WIDTHxHEIGHT"),
        transform: { try ScreenSizeArgument.parse($0) })
    var size = ScreenSizeArgument(width: 1280, height: 720)

    @Option(help: ArgumentHelp("Each screen's refresh rate in Hz (1...1000).", valueName: "hz"))
    var refresh = 60.0

    @Option(
        help: ArgumentHelp(
            "Each screen's scale, 1...8: physical pixels per logical pixel (fractional: 1.25, 1.5, …).",
            discussion:
                "The screen keeps its --size in pixels; windows get the size divided by the scale. Clients are told ceil(scale) as wl_output.scale and the exact scale through wp_fractional_scale_v1.",
            valueName: "S"))
    var scale = 1.0

    @Option(
        name: .customLong("mode"),
        help: ArgumentHelp(
            "A further mode each screen offers besides --size (same refresh rate), for `strata-ctl screen mode` and wlr-randr to switch to. Repeatable.",
            valueName: "WIDTHxHEIGHT"),
        transform: { try ScreenSizeArgument.parse($0) })
    var extraModes: [ScreenSizeArgument] = []

    @Option(
        help: ArgumentHelp(
            "Each screen overscans: its display crops PERCENT of each side's length (0...20). Compensated by scaling the picture into the safe area (scale, the default), by insetting the screen's bounds to it (inset), or not at all (none).",
            valueName: "PERCENT[:scale|inset|none]"),
        transform: { text in
            guard let spec = OverscanSpec(text) else { throw ValidationError("'\(text)': \(OverscanSpec.requirement)") }
            return spec
        })
    var overscan: OverscanSpec?

    @Option(
        help: ArgumentHelp(
            "On exit, write one PNG per screen (<screen name>.png) into this directory (made when missing; checked before anything runs).",
            valueName: "dir"))
    var screenshot: String?

    @Option(
        help: ArgumentHelp(
            "The key-window policy: \(KeyWindowPolicies.allNames.joined(separator: ", ")).", valueName: "name"))
    var policy = "uikit"

    @Option(
        help: ArgumentHelp(
            "Where new windows go: \(WindowPlacementPolicies.allNames.joined(separator: ", ")).", valueName: "name"))
    var placement = WindowPlacementPolicies.defaultName

    @Option(
        name: .customLong("level"),
        help: ArgumentHelp(
            "Open the windows of an application at a level: a name (\(WindowLevel.namedLevels.map(\.name).joined(separator: ", "))) or a number. Repeatable.",
            discussion:
                "Applied when the app's toplevel maps (and when its app id is set before that); it wins over the app's own strata_window_v1 level requests. The app id matches in any case (an X11 client's WM_CLASS class Gtk3-demo is gtk3-demo); the exact spelling's rule wins.",
            valueName: "appid=level"),
        transform: { try LevelRule.parse($0) })
    var levels: [LevelRule] = []

    @Option(
        help: ArgumentHelp(
            "Where time comes from: realtime (the monotonic clock, frames at each screen's refresh rate) or manual (a virtual clock from 0 that moves only with `strata-ctl step`).",
            discussion:
                "Under the manual clock, frame callbacks, presentation feedback and repaints happen only when stepped, and every timestamp (frames, input events) is virtual, so two runs of the same clients with the same steps draw the same pictures.",
            valueName: "realtime|manual"))
    var clock: StrataServer.Clock.Mode = .realtime

    @Option(
        help: ArgumentHelp(
            "Record the session into this trace file (line-delimited JSON, docs/experiments.md): clients, control commands, model events, input, frame hashes.",
            discussion:
                "The file must be a regular file or not exist (a FIFO or device is refused). strata-ctl replay FILE replays it.",
            valueName: "file"))
    var record: String?

    @Option(
        name: .customLong("record-limit"),
        help: ArgumentHelp(
            "The most bytes a trace may take after its header, which is always written (default 256 MiB); at the limit the recording stops with an error.",
            valueName: "bytes"))
    var recordLimit = TraceRecorder.defaultMaximumBytes

    @Option(
        name: .customLong("record-protocol"),
        help: ArgumentHelp(
            "Also record the requests and events of this client into the trace (a pid, or an app id in any case); repeatable.",
            valueName: "appid|pid"))
    var recordProtocol: [String] = []

    @Flag(
        name: .customLong("client-side-decorations"),
        help: "Let clients draw their own title bars (default: ask for server-side decorations, and draw none).")
    var clientSideDecorations = false

    @Flag(name: .customLong("no-control"), help: "Do not open the control socket (strata-ctl).")
    var noControl = false

    @Flag(
        name: .customLong("accessibility"),
        help: ArgumentHelp(
            "Give the clients a private session D-Bus, on which their toolkits publish their accessibility trees (AT-SPI).",
            discussion:
                "Strata starts dbus-daemon on a socket of its own (printed as DBUS_SESSION_BUS_ADDRESS=… and set for the command and strata-ctl exec); the AT-SPI registry starts on it when the first client asks, and everything ends with Strata. The user's session bus is never named to the clients (docs/accessibility.md)."
        ))
    var accessibility = false

    @Flag(
        name: .customLong("allow-privileged"),
        help: ArgumentHelp(
            "Let every client see the privileged protocols (screencopy, output management, virtual input, foreign toplevels, input methods).",
            discussion:
                "By default only the clients of the processes Strata starts (the command, strata-ctl exec: the privileged socket their WAYLAND_DISPLAY names) see them; clients of a sandbox (wp_security_context_v1) never do."
        ))
    var allowPrivileged = false

    @Flag(
        name: .customLong("hide-cursor"),
        help: ArgumentHelp(
            "Draw no cursor (screenshot-only runs).",
            discussion:
                "Otherwise the cursor (the client's, or the Xcursor theme's arrow: XCURSOR_THEME, XCURSOR_SIZE) shows once the pointer has a position."
        ))
    var hideCursor = false

    @Option(
        help: ArgumentHelp(
            "When to start Xwayland for X11 clients (lazy, eager, off).",
            discussion:
                "lazy (the default) takes an X display (DISPLAY=:N, printed after WAYLAND_DISPLAY and set for the command and strata-ctl exec) and starts rootless Xwayland at the first X connection; eager starts it at once; off offers no X display. STRATA_XWAYLAND names another Xwayland executable. Xwayland missing or ending is a message on stderr; Wayland clients are not affected (docs/xwayland.md)."
        ))
    var xwayland: XwaylandMode = .lazy

    @Option(
        name: .customLong("x-display"),
        help: ArgumentHelp(
            "The X display number to take (0...\(XDisplaySockets.highestNumber)); default: the first free one from :0.",
            discussion: "A number in use is an error at start (xvfb-run's -n without -a).",
            valueName: "N"))
    var xDisplay: Int?

    @Option(
        name: .customLong("ready-fd"),
        help: ArgumentHelp(
            "Once clients can connect, write the Wayland socket's name and the X display (:N, when there is one) to this open descriptor, one line each, and close it.",
            discussion:
                "As Xvfb's -displayfd: a script reads the lines instead of waiting a fixed time (`strata --ready-fd 3 3>ready.txt &`).",
            valueName: "fd"))
    var readyFD: Int32?

    @Option(
        name: .customLong("pointer-binding-modifier"),
        help: ArgumentHelp(
            "The key that, held, makes a left drag move the window under the pointer and a right drag resize it from the nearest corner or edge.",
            discussion:
                "The press that starts a move or resize is not delivered to the client. Nested in a desktop that takes Super + drag itself, use alt or ctrl.",
            valueName: "super|alt|ctrl"))
    var pointerBindingModifier: PointerBindingModifier = .super

    @Flag(
        name: .customLong("no-pointer-bindings"),
        help: "No pointer bindings: a drag with the modifier held goes to the client like any other.")
    var noPointerBindings = false

    @Option(
        name: .customLong("allow-levels"),
        help: ArgumentHelp(
            "Applications (app ids in any case, comma-separated) allowed to ask for levels above normal through strata_window_v1. Repeatable.",
            valueName: "appid,..."))
    var allowLevels: [String] = []

    @Option(
        name: .customLong("disable-global"),
        help: ArgumentHelp(
            "Do not offer this global to clients (an interface name such as xdg_wm_base), to try a client's fallback path. Repeatable.",
            discussion:
                "--disable-global xdg_wm_base makes GTK 3 use zxdg_shell_v6; with zxdg_shell_v6 disabled too, old clients fall back to wl_shell. An unknown name is an error that lists the names.",
            valueName: "interface"))
    var disabledGlobals: [String] = []

    @Option(
        name: .customLong("keyboard-layout"),
        help: ArgumentHelp(
            "The keyboard's XKB layout (default: us), or several separated by commas (us,de).",
            discussion:
                "The keymap comes from these options only (rules evdev, model pc105): the host's XKB_DEFAULT_* variables are not read, so a run types the same everywhere. An unknown layout or variant is an error at the start (exit 64). Nested, without these options, the seat uses the parent session's keymap.",
            valueName: "layout"))
    var keyboardLayout: String?

    @Option(
        name: .customLong("keyboard-variant"),
        help: ArgumentHelp(
            "The layout's XKB variant (nodeadkeys, dvorak…; default: none).", valueName: "variant"))
    var keyboardVariant: String?

    @Option(
        name: .customLong("keyboard-options"),
        help: ArgumentHelp(
            "XKB options, comma-separated (ctrl:nocaps,compose:ralt; default: none).", valueName: "options"))
    var keyboardOptions: String?

    @Option(
        name: .customLong("keyboard-model"),
        help: ArgumentHelp("The XKB keyboard model (default: pc105).", valueName: "model"))
    var keyboardModel: String?

    /// The seat's keymap names, from the --keyboard-* options (`us` without them).
    var keymapNames: KeymapNames {
        KeymapNames(
            model: keyboardModel ?? "pc105", layout: keyboardLayout ?? "us", variant: keyboardVariant ?? "",
            options: keyboardOptions ?? "")
    }

    /// Whether a --keyboard-* option was given (the keymap then stays, even nested).
    var keymapChosen: Bool {
        keyboardLayout != nil || keyboardVariant != nil || keyboardOptions != nil || keyboardModel != nil
    }

    /// The level rules and allow-list the compositor applies.
    var levelRules: LevelRules {
        var rules = LevelRules()
        for rule in levels { rules.levels[rule.appID] = rule.level }
        for list in allowLevels {
            for appID in list.split(separator: ",") {
                // Spaces and tabs around a name are not part of it.
                let name = appID.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: {
                    $0 == " " || $0 == "\t"
                }).reversed()
                if !name.isEmpty { rules.allowedAppIDs.insert(String(name)) }
            }
        }
        return rules
    }

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp(
            "The command to start under Strata, after --.", valueName: "command"))
    var command: [String] = []

    /// A start-up error in words: each error the start can meet describes itself; anything else
    /// gets a sentence, never a raw Swift error description.
    static func words(for error: any Error) -> String {
        switch error {
        case let error as ServerError: return error.description
        case let error as NestedBackendError: return error.description
        case let error as ProcessLaunchError: return error.description
        case let error as ControlError: return error.message
        default: return "Strata could not start (\(type(of: error)))"
        }
    }

    /// The problem with `--screenshot`'s directory or `--record`'s file, in words, or nil.
    var outputPathProblem: String? {
        if let screenshot, let problem = OutputPath.problemWritingInto(directory: screenshot) {
            return "--screenshot \(screenshot): \(problem)"
        }
        if let record, let problem = OutputPath.problemWritingFile(record) {
            return "--record \(record): \(problem)"
        }
        return nil
    }

    func validate() throws {
        guard (1...16).contains(screens) else { throw ValidationError("screens must be between 1 and 16") }
        guard scale.isFinite, (1...8).contains(scale) else { throw ValidationError("scale must be between 1 and 8") }
        guard refresh.isFinite, (1...1000).contains(refresh) else {
            throw ValidationError("refresh must be a rate in Hz between 1 and 1000")
        }
        guard KeyWindowPolicies.named(policy) != nil else {
            throw ValidationError(
                "unknown policy '\(policy)': use one of \(KeyWindowPolicies.allNames.joined(separator: ", "))")
        }
        guard WindowPlacementPolicies.named(placement) != nil else {
            throw ValidationError(
                "unknown placement '\(placement)': use one of \(WindowPlacementPolicies.allNames.joined(separator: ", "))"
            )
        }
        if let socket, socket.isEmpty || socket.contains("/") {
            throw ValidationError("socket must be a plain file name such as wayland-5")
        }
        if let screenshot, screenshot.isEmpty { throw ValidationError("screenshot needs a directory") }
        if let record, record.isEmpty { throw ValidationError("record needs a file name") }
        guard recordLimit >= 4096 else { throw ValidationError("record-limit must be at least 4096 bytes") }
        if !recordProtocol.isEmpty, record == nil { throw ValidationError("record-protocol needs --record FILE") }
        if let xDisplay, !(0...XDisplaySockets.highestNumber).contains(xDisplay) {
            throw ValidationError("x-display must be a display number between 0 and \(XDisplaySockets.highestNumber)")
        }
        if xDisplay != nil, xwayland == .off { throw ValidationError("x-display needs Xwayland (not --xwayland off)") }
        if let readyFD, readyFD < 0 { throw ValidationError("ready-fd must be an open file descriptor number") }
        if let problem = keymapNames.problem { throw ValidationError(problem) }
        for selector in recordProtocol where selector.isEmpty || selector.utf8.count > 255 || selector.contains("\0") {
            throw ValidationError("record-protocol takes a pid or an app id (1 to 255 bytes)")
        }
    }

    func run() throws {
        // Checked first, and kept from every process Strata starts (close-on-exec).
        if let readyFD, fcntl(readyFD, F_SETFD, FD_CLOEXEC) != 0 {
            Session.printError("strata: error: --ready-fd \(readyFD): descriptor \(readyFD) is not open")
            throw ExitCode(64)
        }
        // Where the session's results go is checked before anything runs: a session that could
        // not save its screenshots or trace would run to its end for nothing.
        if let problem = outputPathProblem {
            Session.printError("strata: error: \(problem)")
            throw ExitCode(1)
        }
        let environment = ProcessEnvironment.read()
        let refreshMilliHz = Int((refresh * 1000).rounded())
        let mode = ScreenMode(width: size.width, height: size.height, refreshMilliHz: refreshMilliHz)
        let modes =
            [mode]
            + extraModes.map { ScreenMode(width: $0.width, height: $0.height, refreshMilliHz: refreshMilliHz) }
            .filter { $0 != mode }
        let session: Session
        let chosenBackend: Backend
        do {
            chosenBackend = try StrataNestedBackends.BackendChoice.make(
                name: backend == .auto ? nil : backend.rawValue, environment: environment, screens: screens,
                modes: modes)
            let compositor = try Compositor(
                backend: chosenBackend,
                policy: KeyWindowPolicies.named(policy) ?? UIKitKeyWindowPolicy(),
                clock: StrataServer.Clock(mode: clock),
                keymapNames: keymapNames)
            if keymapChosen {
                guard compositor.seat.hasKeymap else {
                    compositor.shutdown()
                    Session.printError(
                        "strata: error: \(keymapNames.compileProblem ?? "the keyboard options give no keymap")")
                    throw ExitCode.validationFailure
                }
                // Chosen by the options: a nested backend's parent keymap does not replace it.
                compositor.seat.followsParentKeymap = false
            }
            if let nested = chosenBackend as? NestedBackend {
                nested.onLastScreenClosed = { [unowned compositor] in compositor.display.terminate() }
                nested.onParentLost = { [unowned compositor] message in
                    Session.printError("strata: \(message)")
                    compositor.display.terminate()
                }
            }
            if let placement = WindowPlacementPolicies.named(placement) { compositor.windows.placement = placement }
            compositor.defaultScreenScale = scale
            if let overscan {
                for output in compositor.scene.outputs {
                    // Validated when parsed: cannot fail for a connected screen.
                    try? compositor.windows.setOverscan(
                        overscan.percent, compensation: overscan.compensation, for: output.screen)
                }
            }
            compositor.levelRules = levelRules
            for name in disabledGlobals {
                do {
                    try compositor.disableGlobal(named: name)
                } catch {
                    compositor.shutdown()
                    throw error
                }
            }
            compositor.decorationMode = clientSideDecorations ? .clientSide : .serverSide
            compositor.clientPrivilege = allowPrivileged ? .everyone : .startedByStrata
            compositor.log = { Session.printError($0) }
            compositor.cursor.isHidden = hideCursor
            compositor.seat.pointerBindingModifier = noPointerBindings ? nil : pointerBindingModifier
            do {
                try compositor.display.addSocket(name: socket)
                try compositor.addPrivilegedSocket()
                session = try Session(compositor: compositor, screenshotDirectory: screenshot)
            } catch {
                compositor.shutdown()
                throw error
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Session.printError("strata: error: \(Self.words(for: error))")
            throw ExitCode(1)
        }
        guard let socketName = session.compositor.display.socketName,
            let privilegedSocket = session.compositor.privilegedSocket
        else {
            session.abandon()
            throw ExitCode(1)
        }
        // The screens are known now: each one's picture file is checked too (a FIFO or a folder
        // in its place), before any client runs.
        if let screenshot {
            for output in session.compositor.scene.outputs {
                let path = (screenshot.hasSuffix("/") ? screenshot : screenshot + "/") + output.screen.name + ".png"
                var info = stat()
                if stat(path, &info) == 0, let problem = OutputPath.problemWritingFile(path) {
                    Session.printError("strata: error: --screenshot \(screenshot): \(problem)")
                    session.abandon()
                    throw ExitCode(1)
                }
            }
        }
        var childEnvironment = environment
        childEnvironment["WAYLAND_DISPLAY"] = privilegedSocket.name
        childEnvironment["WAYLAND_SOCKET"] = nil
        childEnvironment[ControlProtocol.environmentVariable] = nil
        childEnvironment["DISPLAY"] = nil
        if xwayland != .off {
            do throws(XwaylandError) {
                let server = try Xwayland(
                    compositor: session.compositor, executable: Xwayland.executable(environment: environment),
                    displayNumber: xDisplay)
                server.log = { Session.printError($0) }
                session.xwayland = server
                session.compositor.xwayland = server
                childEnvironment["DISPLAY"] = server.displayName
                if xwayland == .eager, case .failure(let error) = server.start() {
                    Session.printError(
                        "strata: Xwayland: \(error); X clients cannot connect to \(server.displayName) (Wayland clients are not affected)"
                    )
                }
            } catch {
                Session.printError("strata: Xwayland: \(error); no X display is offered")
                // A display asked for by number is what the command expects: not having it is an error.
                if xDisplay != nil {
                    session.abandon()
                    throw ExitCode(1)
                }
            }
        }
        if accessibility {
            do throws(AccessibilityBus.Failure) {
                let bus = try AccessibilityBus(waylandSocket: socketName, environment: environment)
                session.accessibilityBus = bus
                session.xwayland?.accessibilityBusAddress = bus.atSpiAddress
                childEnvironment = bus.clientEnvironment(childEnvironment)
            } catch {
                Session.printError("strata: error: --accessibility: \(error)")
                session.abandon()
                throw ExitCode(1)
            }
        }
        if !noControl {
            do {
                let control = try ControlServer(compositor: session.compositor)
                control.accessibilityBus = session.accessibilityBus?.address
                childEnvironment[ControlProtocol.environmentVariable] = control.path
                control.spawn = { [unowned session, childEnvironment] arguments, directory in
                    try session.startClient(
                        command: arguments, environment: childEnvironment, workingDirectory: directory)
                }
                session.control = control
            } catch {
                Session.printError(
                    "strata: error: cannot open the control socket: \(error) (--no-control runs without it)")
                session.abandon()
                throw ExitCode(1)
            }
        }
        if let record {
            do throws(ControlError) {
                let recorder = try TraceRecorder(
                    compositor: session.compositor, path: record, maximumBytes: recordLimit,
                    command: command.isEmpty ? nil : command)
                recorder.onFailure = { reason in Session.printError("strata: record: \(reason); the recording stopped")
                }
                recorder.logProtocol(of: recordProtocol)
                session.control?.recorder = recorder
                session.control?.sessionCommand = command.isEmpty ? nil : command
                session.standaloneRecorder = session.control == nil ? recorder : nil
            } catch {
                Session.printError("strata: error: \(error.message)")
                session.abandon()
                throw ExitCode(1)
            }
        } else {
            session.control?.sessionCommand = command.isEmpty ? nil : command
        }
        print("WAYLAND_DISPLAY=\(socketName)")
        if let server = session.xwayland { print("DISPLAY=\(server.displayName)") }
        if let bus = session.accessibilityBus { print("DBUS_SESSION_BUS_ADDRESS=\(bus.address)") }
        // Last: scripts read the lines up to it.
        if let control = session.control { print("\(ControlProtocol.environmentVariable)=\(control.path)") }
        fflush(stdout)
        if let readyFD {
            ReadyDescriptor.announce(
                to: readyFD, lines: [socketName] + (session.xwayland.map { [$0.displayName] } ?? []))
        }

        if !command.isEmpty {
            do {
                try session.start(command: command, environment: childEnvironment)
            } catch {
                Session.printError("strata: error: \(error.description)")
                session.abandon()
                throw ExitCode(127)
            }
        }
        let status = session.run()
        if (chosenBackend as? NestedBackend)?.failure != nil { throw ExitCode(1) }
        if status != 0 { throw ExitCode(status) }
    }
}
