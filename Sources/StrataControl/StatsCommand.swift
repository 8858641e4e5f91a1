import StrataControlProtocol
import StrataTrace

extension ControlCommands {
    /// `stats`: the session's focus metrics since Strata started (`FocusMetrics`; docs/control.md,
    /// "Focus metrics"): `run` and `apps`, keystrokes counted within `window_ms` (1…10000,
    /// default 500) of their window becoming key.
    func stats(_ request: ControlRequest) throws(ControlError) -> Reply {
        let window =
            try request.optionalInt("window_ms", in: FocusMetrics.windowMillisecondsRange)
            ?? FocusMetrics.defaultWindowMilliseconds
        return server.focusMetrics.metrics.json(windowMilliseconds: window).objectValue ?? [:]
    }
}
