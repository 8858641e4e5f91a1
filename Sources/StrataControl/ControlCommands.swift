import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataProcess
import StrataServer

/// The command handlers: each takes a parsed request and returns the reply's fields (besides
/// `id` and `ok`), or throws a `ControlError`. Every change goes through the `WindowManager` or
/// the `Compositor`, so the model posts its notifications as for any other cause.
///
/// The families live in extensions: windows (`WindowCommands.swift`, `WindowStateCommands.swift`), screens
/// (`ScreenCommands.swift`), input (`InputCommands.swift`).
final class ControlCommands {
    unowned let server: ControlServer

    init(server: ControlServer) {
        self.server = server
    }

    var compositor: Compositor { server.compositor }
    var manager: WindowManager { server.compositor.windows }

    typealias Reply = [String: JSONValue]

    /// The reply's fields, or nil when the handler queued its reply itself (`events`). The
    /// command's row (`ControlCommand.all`) names its handler (`ControlCommandHandler.all`).
    func run(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        guard let command = ControlCommand.named(request.command),
            let handler = ControlCommandHandler.all[command.name]
        else {
            throw ControlError(.unknownCommand, "unknown command \"\(request.command)\"; `hello` lists the commands")
        }
        switch handler {
        case .immediate(let handle): return try handle(self, request)
        case .deferred(let handle): return try handle(self, request, connection)
        }
    }

    // MARK: Session

    func hello() -> Reply {
        var reply: Reply = [
            "protocol": JSONValue(ControlProtocol.version),
            "server": "strata",
            "pid": JSONValue(Int(getpid())),
            "commands": .array(ControlProtocol.commands.map { .string($0) }),
            "sequence": JSONValue(server.events.lastSequence),
            "policy": .string(manager.policy.name),
            "placement": .string(manager.placement.name),
            "clock": .string(compositor.clock.mode.rawValue),
        ]
        if let name = compositor.display.socketName { reply["wayland_display"] = .string(name) }
        if let bus = server.accessibilityBus { reply["accessibility_bus"] = .string(bus) }
        return reply
    }

    /// Every earlier request of this connection has been applied (requests are handled in
    /// order, synchronously); this flushes the Wayland clients so what they were sent is on its
    /// way before the reply is, and the trace being recorded, so its file holds everything so far
    /// (a test that failed copies it: python/'s fixture).
    func sync() -> Reply {
        compositor.display.flushClients()
        server.recorder?.flush()
        return ["sequence": JSONValue(server.events.lastSequence)]
    }

    /// `settle`: replies once the shown windows have stopped changing for `frames` frame periods
    /// (default 2), or fails at `timeout` seconds (default 10) naming the windows still changing
    /// (`SettleWaiter`). The loop goes on meanwhile; the reply comes from a timer.
    func settle(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        let frames = try request.optionalInt("frames", in: 1...Self.maximumStep) ?? 2
        let timeout = try request.optionalDouble("timeout") ?? 10
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw ControlError(.invalidArgument, "timeout must be a number of seconds above 0 and at most 3600")
        }
        compositor.display.flushClients()
        guard
            let waiter = SettleWaiter(
                server: server, connection: connection, id: request.id, frames: frames, timeout: timeout)
        else {
            throw ControlError(.failed, "cannot add a timer to the event loop")
        }
        server.settleWaiters.append(waiter)
        return nil
    }

    /// `step`: under `--clock manual`, advances the virtual clock by `frames` frames (default 1,
    /// at most `maximumStep`), each one a tick of the frame clocks due by then: repaints, frame
    /// callbacks and presentation feedback happen now. Clients are flushed before the reply.
    func step(_ request: ControlRequest) throws(ControlError) -> Reply {
        let frames = try request.optionalInt("frames", in: 1...Self.maximumStep) ?? 1
        guard compositor.clock.isManual else {
            throw ControlError(
                .unsupported,
                "step needs the manual clock (strata --clock manual); this Strata runs on the realtime clock")
        }
        let time = compositor.clock.step(frames: frames) ?? 0
        compositor.display.flushClients()
        return [
            "frames": JSONValue(frames), "time_ns": JSONValue(time), "sequence": JSONValue(server.events.lastSequence),
        ]
    }

    /// The most frames one `step` advances (10 minutes at 60 Hz).
    static let maximumStep = 36_000

    func policy(_ request: ControlRequest) throws(ControlError) -> Reply {
        if let name = try request.optionalString("name") {
            guard let policy = KeyWindowPolicies.named(name) else {
                throw ControlError(
                    .invalidArgument,
                    "unknown policy \"\(name)\"; use one of \(KeyWindowPolicies.allNames.joined(separator: ", "))")
            }
            compositor.policyDelegation.setBuiltinPolicy(policy)
        }
        var reply: Reply = [
            "policy": .string(manager.policy.name), "available": .array(KeyWindowPolicies.allNames.map { .string($0) }),
        ]
        if let delegate = server.delegateDescription { reply["delegate"] = delegate }
        return reply
    }

    /// `placement`: reads the window-placement policy, or switches it (windows already placed
    /// stay where they are; the next new window is placed by the new policy).
    func placement(_ request: ControlRequest) throws(ControlError) -> Reply {
        let names = WindowPlacementPolicies.allNames
        if let name = try request.optionalString("name") {
            guard let placement = WindowPlacementPolicies.named(name) else {
                throw ControlError(
                    .invalidArgument, "unknown placement \"\(name)\"; use one of \(names.joined(separator: ", "))")
            }
            compositor.policyDelegation.setBuiltinPlacement(placement)
        }
        return ["placement": .string(manager.placement.name), "available": .array(names.map { .string($0) })]
    }

    /// `events`: with `follow` (default true) this connection receives every event from now on,
    /// after the kept ones newer than `since`; with `follow: false` the reply carries those
    /// kept events in `events` instead.
    func events(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        let since = try request.optionalInt("since", in: 0...Int(Int64.max)).map { UInt64($0) }
        let follow = try request.optionalBool("follow") ?? true
        let log = server.events
        var reply: Reply = ["sequence": JSONValue(log.lastSequence)]
        let (entries, truncated) = since.map { log.entries(after: $0) } ?? ([], false)
        reply["truncated"] = .bool(truncated)
        if follow {
            reply["following"] = true
            connection.isSubscribed = true
            // The reply goes first, then the replayed events, then live ones (queued in order).
            connection.send(reply: .object(reply.merging(["id": request.id, "ok": true]) { $1 }))
            for entry in entries { connection.send(eventLine: entry.line) }
            return nil
        }
        reply["following"] = false
        var list: [JSONValue] = []
        for entry in entries {
            if let value = try? JSONValue(encoding: entry.notification) { list.append(value) }
        }
        reply["events"] = .array(list)
        return reply
    }

    func exec(_ request: ControlRequest) throws(ControlError) -> Reply {
        let argv = try request.stringArray("argv")
        guard !argv.isEmpty, !argv[0].isEmpty else { throw ControlError(.invalidArgument, "\"argv\" needs a program") }
        let directory = try request.optionalString("cwd")
        guard let spawn = server.spawn else {
            throw ControlError(.unsupported, "this Strata cannot start programs (no spawner)")
        }
        do {
            let pid = try spawn(argv, directory)
            return ["pid": JSONValue(Int(pid))]
        } catch {
            throw ControlError(
                .failed,
                "cannot start \(argv[0]): \((error as? ProcessLaunchError)?.reason ?? "the process could not be made")")
        }
    }
}
