import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRecording
import StrataServer

/// `record-video`: a video of a screen through ffmpeg (docs/experiments.md, "Video").
extension ControlCommands {
    /// `action` `start` (an absolute `path` ending in .mp4 or .webm that can be written: `OutputPath`;
    /// `screen`, default the main one) → `path`, `screen`, `width`, `height`, `encoder`; or
    /// `stop` → once ffmpeg has finished the file: `frames` written, `presented`, `dropped`,
    /// `exit_status`, and `error` when it failed. One video at a time.
    func recordVideo(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        switch try request.string("action") {
        case "start":
            let path = try request.string("path")
            guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"path\" must be absolute") }
            guard path.utf8.count < 4096, !path.contains("\0") else {
                throw ControlError(.invalidArgument, "\"path\" is not a usable file name")
            }
            guard let codec = VideoRecorder.codecArguments(for: path) else {
                throw ControlError(.invalidArgument, "\"path\" must end in .mp4 or .webm")
            }
            if let problem = OutputPath.problemWritingFile(path) {
                throw ControlError(.invalidArgument, "cannot record video to \(path): \(problem)")
            }
            guard let output = try request.optionalScreen(in: compositor) ?? compositor.scene.outputs.first else {
                throw ControlError(.unknownScreen, "no screen is connected")
            }
            if let current = server.video, !current.isFinished {
                throw ControlError(.failed, "already recording video to \(current.path); stop that first")
            }
            guard let encoder = server.videoEncoder ?? VideoRecorder.findEncoder() else {
                throw ControlError(
                    .unsupported,
                    "record-video needs ffmpeg, and there is none on PATH (install Debian's ffmpeg: apt-get install ffmpeg; or set STRATA_FFMPEG)"
                )
            }
            guard access(encoder, X_OK) == 0 else {
                throw ControlError(.unsupported, "record-video needs ffmpeg, and \(encoder) is not an executable")
            }
            // The picture as it is now is the first frame.
            compositor.scene.repaintDamagedScreens()
            let video = try VideoRecorder(
                compositor: compositor, output: output, path: path, encoder: encoder, codec: codec)
            video.onFailure = { [unowned server] reason in server.log("record-video: \(reason); the video stopped") }
            server.video = video
            return [
                "path": .string(path), "screen": JSONValue(output.screen.id.rawValue),
                "width": JSONValue(Int(video.width)), "height": JSONValue(Int(video.height)),
                "encoder": .string(encoder),
            ]
        case "stop":
            guard let video = server.video else { throw ControlError(.failed, "not recording video") }
            server.video = nil
            if video.isFinished { return video.summary }
            // The reply waits until ffmpeg has finished the file.
            let id = request.id
            server.pendingVideos.append(video)
            video.onFinish = { [weak connection, unowned server] video in
                var fields = video.summary
                fields["id"] = id
                fields["ok"] = true
                connection?.send(reply: .object(fields))
                server.pendingVideos.removeAll { $0 === video }
            }
            video.stop(grace: server.videoStopGrace)
            return nil
        case let other:
            throw ControlError(.invalidArgument, "\"\(other)\" is not a record-video action: use start or stop")
        }
    }
}
