import StrataControlProtocol

/// Facts about trace files (`strata --record`, `strata-ctl record`, `strata-ctl replay`) that the
/// recorder and the replayer share; the schema is documented in docs/experiments.md, "Traces".
///
/// A trace is line-delimited JSON: one object per line, each with `type` (one of `LineType`),
/// `sequence` (the last model notification's sequence number when the line was written) and
/// `time_ns` (the compositor's clock, counted from the start of the recording).
public enum TraceFormat {
    /// Bumped when a line type or field changes meaning or goes; new line types and new fields
    /// keep it (readers ignore what they do not know).
    public static let version = 1
    /// Strata's own version, written into the header.
    public static let strataVersion = "0.7.0"

    public enum LineType: String, Sendable, CaseIterable {
        /// The first line: `version`, `strata`, `clock`, `policy`, `screens` (ScreenInfo array),
        /// `command` (the argv Strata was started with, when it started one), `started_by`
        /// (`command-line` or `control`), `start_ns` (the clock when the recording started: an
        /// event's `requested_ns` is on the clock, its `time_ns` counts from there).
        case header
        /// A client connected or left (`event`: `connect`/`disconnect`; `client`, `origin`
        /// (`TraceOrigin`), `pid`), or Strata started a process (`event`: `start`; `pid`,
        /// `command`, `origin`: `command` for the session's command, `exec` for the others).
        case client
        /// A control-socket request and its reply (`connection`, `peer_pid`, `origin`
        /// (`TraceOrigin`), `request`, `reply`; `shown`: `[{"window", "hash"}]`, what the windows
        /// it acts on showed before it ran).
        case command
        /// A model notification: the EventLog's JSON (`name`, `sequence`, its fields; windowDidOpen
        /// also `origin`, `TraceOrigin`).
        case event
        /// A screen's state after a screen event (`screen`: ScreenInfo).
        case screen
        /// Every window after a change of windows, levels, order, key, visibility or screens
        /// (`windows`: WindowInfo array, front to back), when it differs from the last one.
        case windows
        /// Input the seat handled (`input`, its fields, `time_ms`, `window` under the pointer or
        /// key, `during_command`, `virtual`; `shown` on a press no command made).
        case input
        /// A drag-and-drop step (`event`: `start` with `touch_id` when a touch drives it, `source`
        /// and `icon`; `enter` with `window`; `leave`; `end` with `reason` (`dropped`,
        /// `not_accepted`, `source_destroyed`, `origin_destroyed`, `cancelled`) and `action`).
        case drag
        /// A screen presented a painted frame (`screen`, `frame`, `hash`, `damage`).
        case frame
        /// A request or event of a client chosen with `--record-protocol` (`client`, `direction`:
        /// `request` or `event`, `interface`, `object`, `message`), or `truncated` and `limit` once
        /// the client reached the per-client limit. Only in traces that asked for it.
        case protocolMessage = "protocol"
        /// A picture (`kind`: `window`, a window alone at full size, or `thumbnail`, a screen
        /// downscaled; `hash`, `width`, `height`, `png`: base64), once per kind and hash, before the
        /// first line that names it; or `budget_reached` and `budget` once the recording's budget
        /// for pictures is spent.
        case image
        /// The last line: `reason` (`stopped`, `exit`, `size_limit`), `lines`, `bytes`.
        case end
    }

    /// The control commands a replay issues again (`ControlCommand.Replay.issuedAgain` in
    /// `ControlCommand.all`); the rest only read (windows, screens, events, hello, sync) or belong
    /// to the recording itself (record). `settle` changes nothing but when the next step comes:
    /// replayed, a manual-clock replay steps as its recording did (each `step --settle` frame after
    /// the clients answered the last).
    public static let replayedCommands = Set(ControlCommand.all.filter { $0.replay == .issuedAgain }.map(\.name))
}
