/// One command of the control protocol: its facts, shared by the server and the command line.
/// `ControlCommand.all` is the one table of commands (docs/control.md, "Adding a command"):
/// `hello`'s list, `TraceFormat.replayedCommands` and the server's dispatch follow from it, and
/// tests check that docs/control.md, strata-ctl and the python client cover exactly its rows.
/// The handlers are bound to the rows by name in StrataControl (`ControlCommands.handlers`),
/// so this target holds names and facts, never server types.
public struct ControlCommand: Sendable, Equatable {
    /// What a recording's replay does with the command (`strata-ctl replay`, `TraceDiff`).
    public enum Replay: Sendable, Equatable {
        /// It changes the session: a replay issues it again.
        case issuedAgain
        /// It only reads or waits (or writes files of its own): nothing to issue again.
        case readsOnly
        /// It changes something a replay does not reproduce: the recording itself (`record`,
        /// `record-video`) or the placement policy, which the replayed Strata starts with.
        case notReplayed
    }

    /// When the reply leaves.
    public enum Reply: Sendable, Equatable {
        /// As soon as the request is handled.
        case immediate
        /// Later, from a timer or a waiter (`settle`, `wait-image`), or written by the handler
        /// itself before what follows it (`events`).
        case deferred
    }

    /// The `command` of a request (`set-level`).
    public var name: String
    /// Other names for it (`version` for `hello`).
    public var aliases: [String]
    /// The request's arguments; a `?` after a name marks it optional (`frames?`).
    public var arguments: [String]
    public var replay: Replay
    public var reply: Reply

    public init(
        _ name: String, _ arguments: [String] = [], replay: Replay, reply: Reply = .immediate, aliases: [String] = []
    ) {
        self.name = name
        self.arguments = arguments
        self.replay = replay
        self.reply = reply
        self.aliases = aliases
    }

    /// The arguments' names, without the `?` of optional ones.
    public var argumentNames: [String] {
        arguments.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 }
    }

    /// The row for a request's `command` (a name or an alias), or nil.
    public static func named(_ name: String) -> ControlCommand? {
        byName[name]
    }

    private static let byName: [String: ControlCommand] = {
        var names: [String: ControlCommand] = [:]
        for command in all {
            names[command.name] = command
            for alias in command.aliases { names[alias] = command }
        }
        return names
    }()

    /// Every command, in the order docs/control.md lists them. Adding a command is adding a row
    /// here and its handler in `ControlCommands.handlers`.
    public static let all: [ControlCommand] = [
        // Session
        ControlCommand("hello", replay: .readsOnly, aliases: ["version"]),
        ControlCommand("step", ["frames?"], replay: .issuedAgain),
        ControlCommand("sync", replay: .readsOnly),
        ControlCommand("settle", ["frames?", "timeout?"], replay: .issuedAgain, reply: .deferred),
        ControlCommand(
            "wait-image", ["window", "hash", "timeout?", "expected?", "threshold?", "max_diff?", "masks?", "output?"],
            replay: .readsOnly, reply: .deferred),
        ControlCommand("events", ["since?", "follow?"], replay: .readsOnly, reply: .deferred),
        ControlCommand("exec", ["argv", "cwd?"], replay: .issuedAgain),
        ControlCommand("record", ["action", "path?"], replay: .notReplayed),
        ControlCommand("record-video", ["action", "path?", "screen?"], replay: .notReplayed, reply: .deferred),
        ControlCommand("policy", ["name?"], replay: .issuedAgain),
        ControlCommand("placement", ["name?"], replay: .notReplayed),
        ControlCommand("delegate", ["decisions", "deadline_ms?"], replay: .notReplayed, reply: .deferred),
        ControlCommand("decide", ["question", "answer"], replay: .notReplayed, reply: .deferred),
        ControlCommand("stats", ["window_ms?"], replay: .readsOnly),
        // Windows
        ControlCommand("windows", replay: .readsOnly),
        ControlCommand("make-key", ["window"], replay: .issuedAgain),
        ControlCommand("raise", ["window"], replay: .issuedAgain),
        ControlCommand("lower", ["window"], replay: .issuedAgain),
        ControlCommand("set-level", ["window", "level"], replay: .issuedAgain),
        ControlCommand("hide", ["window"], replay: .issuedAgain),
        ControlCommand("show", ["window", "key?"], replay: .issuedAgain),
        ControlCommand("move", ["window", "screen?", "x?", "y?"], replay: .issuedAgain),
        ControlCommand(
            "convert",
            ["window", "x", "y", "width?", "height?", "to?", "to_screen?", "from?", "from_screen?", "surface?"],
            replay: .readsOnly),
        ControlCommand("close", ["window"], replay: .issuedAgain),
        ControlCommand("maximize", ["window"], replay: .issuedAgain),
        ControlCommand("fullscreen", ["window", "screen?"], replay: .issuedAgain),
        ControlCommand("restore", ["window"], replay: .issuedAgain),
        ControlCommand("resize", ["window", "width", "height"], replay: .issuedAgain),
        // Screens
        ControlCommand("screens", replay: .readsOnly),
        ControlCommand("screen-add", ["size?", "modes?", "name?", "overscan?", "compensation?"], replay: .issuedAgain),
        ControlCommand("screen-remove", ["screen"], replay: .issuedAgain),
        ControlCommand("screen-mode", ["screen", "mode"], replay: .issuedAgain),
        ControlCommand("screen-brightness", ["screen", "value"], replay: .issuedAgain),
        ControlCommand("screen-transform", ["screen", "transform"], replay: .issuedAgain),
        ControlCommand("screen-scale", ["screen", "value"], replay: .issuedAgain),
        ControlCommand("screen-mirror", ["screen", "enabled"], replay: .issuedAgain),
        ControlCommand("screen-overscan", ["screen", "compensation", "percent?"], replay: .issuedAgain),
        ControlCommand("screenshot", ["path", "screen?", "raw?", "window?"], replay: .issuedAgain),
        ControlCommand(
            "compare-screenshot",
            [
                "baseline", "window?", "screen?", "raw?", "threshold?", "max_diff?", "max_diff_ratio?", "masks?",
                "mask_windows?", "mask_levels?", "actual?", "diff?", "update?",
            ],
            replay: .readsOnly),
        // Input
        ControlCommand("pointer-move", ["x", "y", "screen?", "shown?"], replay: .issuedAgain),
        ControlCommand("pointer-button", ["button?", "state"], replay: .issuedAgain),
        ControlCommand("pointer-click", ["button?", "x?", "y?", "screen?", "shown?"], replay: .issuedAgain),
        ControlCommand("pointer-scroll", ["dx?", "dy?", "smooth?"], replay: .issuedAgain),
        ControlCommand("key", ["key", "state?"], replay: .issuedAgain),
        ControlCommand("type", ["text"], replay: .issuedAgain),
        ControlCommand("touch", ["phase", "touch_id", "x?", "y?", "screen?"], replay: .issuedAgain),
        ControlCommand(
            "gesture", ["kind", "phase", "fingers?", "dx?", "dy?", "scale?", "rotation?", "cancelled?"],
            replay: .issuedAgain),
        ControlCommand(
            "tablet",
            [
                "phase", "x?", "y?", "screen?", "button?", "state?", "tool?", "serial?", "pressure?", "distance?",
                "tilt_x?", "tilt_y?", "rotation?", "slider?", "wheel?", "wheel_clicks?",
            ],
            replay: .issuedAgain),
    ]
}
