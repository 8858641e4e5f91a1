import ArgumentParser
import Glibc
import StrataControlProtocol

/// `strata-ctl record-video [SCREEN] -o FILE.mp4|.webm` / `strata-ctl record-video stop`: a video
/// of a screen, encoded by the ffmpeg Strata starts (docs/experiments.md, "Video").
struct RecordVideoCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-video",
        abstract: "Start or stop recording a video of a screen (ffmpeg; docs/experiments.md).",
        usage: "strata-ctl record-video [SCREEN] -o FILE.mp4|FILE.webm [--wait] | strata-ctl record-video stop")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The screen (id or name; default: the main one), or `stop`.") var screen: String?
    @Option(name: .shortAndLong, help: "The video file: .mp4 (H.264) or .webm (VP8); made absolute.") var output:
        String?
    @Flag(name: .shortAndLong, help: "Record until Ctrl-C (SIGINT or SIGTERM), then stop and wait for the file.")
    var wait = false

    func run() throws {
        let (command, arguments) = try makeRequest()
        guard wait, arguments["action"] == "start" else {
            try runRequest(command, arguments)
            return
        }
        // Ctrl-C ends the recording: the signals are taken synchronously (sigwait), not by a handler.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_BLOCK, &signals, nil)
        try runRequest(command, arguments)
        fflush(nil)
        var received: Int32 = 0
        sigwait(&signals, &received)
        try runRequest("record-video", ["action": "stop"])
    }

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        if screen == "stop" && output == nil {
            return ("record-video", ["action": "stop"])
        }
        guard let output, !output.isEmpty else {
            throw ValidationError("record-video needs a file: strata-ctl record-video [SCREEN] -o FILE.mp4")
        }
        var arguments: [String: JSONValue] = ["action": "start", "path": .string(ReplayCommand.absolute(output))]
        if let screen { arguments["screen"] = reference(screen) }
        return ("record-video", arguments)
    }

    func render(_ reply: JSONValue) -> String? {
        let path = reply["path"]?.stringValue ?? "?"
        guard let frames = reply["frames"]?.intValue else {
            return
                "\(path): recording screen \(reply["screen"]?.intValue ?? 0), \(reply["width"]?.intValue ?? 0)x\(reply["height"]?.intValue ?? 0)"
        }
        var text = "\(path): \(frames) frames, \(reply["dropped"]?.intValue ?? 0) dropped"
        if let error = reply["error"]?.stringValue { text += " (\(error))" }
        return text
    }
}
