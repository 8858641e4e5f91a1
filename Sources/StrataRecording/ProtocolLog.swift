import CWaylandServer
import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer

/// The requests and events of chosen clients in a trace (`strata --record-protocol APPID|PID`,
/// docs/experiments.md "Traces"): a libwayland protocol logger (`wl_display_add_protocol_logger`)
/// that writes a `protocol` line per message of a chosen client — direction, interface, object
/// id, message name — up to `maximumPerClient` lines a client (then one line saying it was cut).
///
/// A selector of digits is a pid (the client's, or the process Strata started for it); anything
/// else an app id: a client matches once one of its windows (same pid) has that app id, so its
/// messages before that window existed are not in the trace. Deciding costs a walk of the
/// windows, done again for an undecided client only when the model's sequence moved; a matched
/// client stays matched.
final class ProtocolLog {
    /// The default of `maximumPerClient`.
    static let defaultMaximumPerClient = 100_000

    private unowned let display: Display
    private unowned let windows: WindowManager
    private let pids: Set<Int32>
    private let appIDs: Set<String>
    private let maximumPerClient: Int
    private let write: (OpaquePointer, [String: JSONValue]) -> Void
    private var logger: OpaquePointer?
    private struct ClientState {
        var matched = false
        var checkedAt: UInt64 = .max
        var lines = 0
    }
    private var states: [OpaquePointer: ClientState] = [:]

    /// `write` gets the client and the line's fields (it adds the client's number and writes).
    init(
        display: Display, windows: WindowManager, selectors: [String], maximumPerClient: Int,
        write: @escaping (OpaquePointer, [String: JSONValue]) -> Void
    ) {
        self.display = display
        self.windows = windows
        var pids: Set<Int32> = [], appIDs: Set<String> = []
        for selector in selectors {
            if !selector.isEmpty, selector.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let pid = Int32(selector) {
                pids.insert(pid)
            } else {
                appIDs.insert(AppIDMatch.folded(selector))
            }
        }
        self.pids = pids
        self.appIDs = appIDs
        self.maximumPerClient = max(1, maximumPerClient)
        self.write = write
        let box = Box()
        box.owner = self
        self.box = box
        logger = wl_display_add_protocol_logger(
            display.display,
            { data, direction, message in
                guard let data, let message else { return }
                guard let owner = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().owner else { return }
                withExtendedLifetime(owner) {
                    owner.isLogging = true
                    owner.log(direction, message.pointee)
                    owner.isLogging = false
                }
            }, Unmanaged.passRetained(box).toOpaque())
    }

    /// What the logger's user data points at: libwayland walks its loggers while it calls one,
    /// so a logger is destroyed from an idle callback, not from inside a message (the trace can
    /// stop there: its size limit); until then it finds no owner.
    private final class Box {
        weak var owner: ProtocolLog?
    }
    private var box: Box?
    private var isLogging = false

    deinit { stop() }

    func stop() {
        states.removeAll()
        guard let logger, let box else { return }
        self.logger = nil
        self.box = nil
        box.owner = nil
        guard isLogging else {
            wl_protocol_logger_destroy(logger)
            Unmanaged.passUnretained(box).release()
            return
        }
        let pair = Unmanaged.passRetained(LoggerToDestroy(logger: logger, box: box)).toOpaque()
        if wl_event_loop_add_idle(
            display.eventLoop,
            { data in
                guard let data else { return }
                let pending = Unmanaged<LoggerToDestroy>.fromOpaque(data).takeRetainedValue()
                wl_protocol_logger_destroy(pending.logger)
                Unmanaged.passUnretained(pending.box).release()
            }, pair) == nil
        {
            Unmanaged<LoggerToDestroy>.fromOpaque(pair).release()
            wl_protocol_logger_destroy(logger)
            Unmanaged.passUnretained(box).release()
        }
    }

    private final class LoggerToDestroy {
        let logger: OpaquePointer
        let box: Box
        init(logger: OpaquePointer, box: Box) {
            self.logger = logger
            self.box = box
        }
    }

    /// The client is gone (its pointer may be reused by another).
    func forget(_ client: OpaquePointer) {
        states[client] = nil
    }

    private func log(_ direction: wl_protocol_logger_type, _ message: wl_protocol_logger_message) {
        guard let resource = message.resource, let client = wl_resource_get_client(resource) else { return }
        var state = states[client] ?? ClientState()
        if !state.matched {
            let sequence = windows.notifications.lastSequence
            if state.checkedAt != sequence {
                state.checkedAt = sequence
                state.matched = matches(client)
            }
            if !state.matched {
                states[client] = state
                return
            }
        }
        guard state.lines <= maximumPerClient else { return }
        state.lines += 1
        states[client] = state
        if state.lines > maximumPerClient {
            write(client, ["truncated": true, "limit": JSONValue(maximumPerClient)])
            return
        }
        let interface = wl_resource_get_class(resource).map { String(cString: $0) } ?? "?"
        let name = message.message.flatMap { $0.pointee.name }.map { String(cString: $0) } ?? "?"
        write(
            client,
            [
                "direction": .string(direction == WL_PROTOCOL_LOGGER_REQUEST ? "request" : "event"),
                "interface": .string(interface), "object": JSONValue(Int(wl_resource_get_id(resource))),
                "message": .string(name),
            ])
    }

    private func matches(_ client: OpaquePointer) -> Bool {
        var credentialPID: pid_t = 0
        wl_client_get_credentials(client, &credentialPID, nil, nil)
        let pid = display.processID(of: client)
        if pids.contains(pid) || pids.contains(credentialPID) { return true }
        guard !appIDs.isEmpty else { return false }
        for window in windows.windows where appIDs.contains(AppIDMatch.folded(window.appID)) {
            if window.pid == pid || window.pid == credentialPID { return true }
        }
        return false
    }
}
