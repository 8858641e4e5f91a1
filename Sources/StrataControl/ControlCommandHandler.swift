import StrataControlProtocol

/// A command's handler, bound to its row of `ControlCommand.all` by name in `all`. An
/// `immediate` handler returns the reply's fields; a `deferred` one gets the connection and
/// returns nil when it sends the reply itself (later, or before what follows it: `events`).
/// Which kind a command has is its row's `reply` (a test checks they agree, and that every row
/// has a handler and every handler a row).
enum ControlCommandHandler: Sendable {
    typealias Reply = ControlCommands.Reply

    case immediate(@Sendable (ControlCommands, ControlRequest) throws(ControlError) -> Reply)
    case deferred(@Sendable (ControlCommands, ControlRequest, ControlConnection) throws(ControlError) -> Reply?)

    /// The handlers, by command name (`ControlCommand.name`; aliases reach them through the row).
    static let all: [String: ControlCommandHandler] = [
        // Session
        "hello": .immediate { commands, _ in commands.hello() },
        "step": .immediate { commands, request throws(ControlError) in try commands.step(request) },
        "sync": .immediate { commands, _ in commands.sync() },
        "settle": .deferred { commands, request, connection throws(ControlError) in
            try commands.settle(request, connection: connection)
        },
        "wait-image": .deferred { commands, request, connection throws(ControlError) in
            try commands.waitImage(request, connection: connection)
        },
        "events": .deferred { commands, request, connection throws(ControlError) in
            try commands.events(request, connection: connection)
        },
        "exec": .immediate { commands, request throws(ControlError) in try commands.exec(request) },
        "record": .immediate { commands, request throws(ControlError) in try commands.record(request) },
        "record-video": .deferred { commands, request, connection throws(ControlError) in
            try commands.recordVideo(request, connection: connection)
        },
        "policy": .immediate { commands, request throws(ControlError) in try commands.policy(request) },
        "placement": .immediate { commands, request throws(ControlError) in try commands.placement(request) },
        "delegate": .deferred { commands, request, connection throws(ControlError) in
            try commands.delegate(request, connection: connection)
        },
        "decide": .deferred { commands, request, connection throws(ControlError) in
            try commands.decide(request, connection: connection)
        },
        "stats": .immediate { commands, request throws(ControlError) in try commands.stats(request) },
        // Windows
        "windows": .immediate { commands, _ throws(ControlError) in try commands.windows() },
        "make-key": .immediate { commands, request throws(ControlError) in try commands.makeKey(request) },
        "raise": .immediate { commands, request throws(ControlError) in try commands.raise(request) },
        "lower": .immediate { commands, request throws(ControlError) in try commands.lower(request) },
        "set-level": .immediate { commands, request throws(ControlError) in try commands.setLevel(request) },
        "hide": .immediate { commands, request throws(ControlError) in try commands.hide(request) },
        "show": .immediate { commands, request throws(ControlError) in try commands.show(request) },
        "move": .immediate { commands, request throws(ControlError) in try commands.move(request) },
        "convert": .immediate { commands, request throws(ControlError) in try commands.convert(request) },
        "close": .immediate { commands, request throws(ControlError) in try commands.close(request) },
        "maximize": .immediate { commands, request throws(ControlError) in try commands.maximize(request) },
        "fullscreen": .immediate { commands, request throws(ControlError) in try commands.fullscreen(request) },
        "restore": .immediate { commands, request throws(ControlError) in try commands.restore(request) },
        "resize": .immediate { commands, request throws(ControlError) in try commands.resize(request) },
        // Screens
        "screens": .immediate { commands, _ throws(ControlError) in try commands.screens() },
        "screen-add": .immediate { commands, request throws(ControlError) in try commands.screenAdd(request) },
        "screen-remove": .immediate { commands, request throws(ControlError) in try commands.screenRemove(request) },
        "screen-mode": .immediate { commands, request throws(ControlError) in try commands.screenMode(request) },
        "screen-brightness": .immediate { commands, request throws(ControlError) in
            try commands.screenBrightness(request)
        },
        "screen-transform": .immediate { commands, request throws(ControlError) in
            try commands.screenTransform(request)
        },
        "screen-scale": .immediate { commands, request throws(ControlError) in try commands.screenScale(request) },
        "screen-mirror": .immediate { commands, request throws(ControlError) in try commands.screenMirror(request) },
        "screen-overscan": .immediate { commands, request throws(ControlError) in
            try commands.screenOverscan(request)
        },
        "screenshot": .immediate { commands, request throws(ControlError) in try commands.screenshot(request) },
        "compare-screenshot": .immediate { commands, request throws(ControlError) in
            try commands.compareScreenshot(request)
        },
        // Input
        "pointer-move": .immediate { commands, request throws(ControlError) in try commands.pointerMove(request) },
        "pointer-button": .immediate { commands, request throws(ControlError) in try commands.pointerButton(request) },
        "pointer-click": .immediate { commands, request throws(ControlError) in try commands.pointerClick(request) },
        "pointer-scroll": .immediate { commands, request throws(ControlError) in try commands.pointerScroll(request) },
        "key": .immediate { commands, request throws(ControlError) in try commands.key(request) },
        "type": .immediate { commands, request throws(ControlError) in try commands.type(request) },
        "touch": .immediate { commands, request throws(ControlError) in try commands.touch(request) },
        "gesture": .immediate { commands, request throws(ControlError) in try commands.gesture(request) },
        "tablet": .immediate { commands, request throws(ControlError) in try commands.tablet(request) },
    ]
}
