import StrataControlProtocol
import StrataRecording
import StrataServer

/// `record`: start or stop a trace on a running Strata (docs/experiments.md, "Traces").
extension ControlCommands {
    /// `action` `start` (with an absolute `path`: a regular file, created or truncated) or `stop`
    /// → `path`, and for `stop` `lines` and `bytes`. One trace at a time.
    func record(_ request: ControlRequest) throws(ControlError) -> Reply {
        switch try request.string("action") {
        case "start":
            let path = try request.string("path")
            guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"path\" must be absolute") }
            guard path.utf8.count < 4096, !path.contains("\0") else {
                throw ControlError(.invalidArgument, "\"path\" is not a usable file name")
            }
            if let current = server.recorder, !current.isStopped {
                throw ControlError(.failed, "already recording to \(current.path); stop that first")
            }
            let recorder = try TraceRecorder(
                compositor: compositor, path: path, command: server.sessionCommand, startedBy: "control",
                started: server.startedProcesses)
            recorder.onFailure = { [unowned server] reason in server.log("record: \(reason); the recording stopped") }
            server.recorder = recorder
            return ["path": .string(path)]
        case "stop":
            guard let recorder = server.recorder, !recorder.isStopped else {
                throw ControlError(.failed, "not recording")
            }
            recorder.stop(reason: "stopped")
            server.recorder = nil
            var reply: Reply = [
                "path": .string(recorder.path), "lines": JSONValue(recorder.lines), "bytes": JSONValue(recorder.bytes),
            ]
            if let failure = recorder.failure { reply["error"] = .string(failure) }
            return reply
        case let other:
            throw ControlError(.invalidArgument, "\"\(other)\" is not a record action: use start or stop")
        }
    }
}
