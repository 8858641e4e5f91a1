import CStrataServerGlue
import CWaylandServer
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataProcess
import StrataRender
import StrataServer

/// A video of one screen (`record-video`, docs/experiments.md "Video"): Strata starts ffmpeg with
/// raw frames (`bgr0`, the canvas's x8r8g8b8 bytes) on its standard input and feeds it each frame
/// the screen presents (a listener of the scene's `framePresented`).
///
/// Constant frame rate, in the compositor's clock: video frame k shows what the screen showed at
/// `start + k` refresh periods. A presented frame is queued once with a repeat count (the periods
/// until the next presented frame, or the stop), so an idle screen costs nothing while recording
/// and the video still plays at the right speed; under `--clock manual` the video follows the
/// virtual time. The pipe is non-blocking and written when the event loop says it takes more;
/// at most `slotCount` frames wait (each one copy of the picture), and a frame presented while
/// they are all waiting is dropped (counted, and reported at the stop).
public final class VideoRecorder {
    public let path: String
    public let screen: ScreenID
    public let width: Int32
    public let height: Int32
    public let pid: pid_t
    /// Its listener of the scene's `framePresented`, while it takes frames.
    private var presentedToken: Signal<ScreenOutput>.Token?
    /// Frames written to ffmpeg (repeats included), presented frames dropped because ffmpeg was
    /// behind, and presented frames taken.
    public private(set) var framesWritten: UInt64 = 0
    public private(set) var framesDropped = 0
    public private(set) var framesTaken = 0
    /// Why the recording ended early (ffmpeg died, the screen changed size…), if it did.
    public private(set) var failure: String?
    /// ffmpeg's exit status once reaped (128 + n: killed by signal n).
    public private(set) var exitStatus: Int32?
    public var isFinished: Bool { exitStatus != nil }
    /// Told once ffmpeg is gone (after `stop`, or when it died); the recorder is done.
    package var onFinish: ((VideoRecorder) -> Void)?
    /// Told when the recording fails while running (the reason).
    package var onFailure: ((String) -> Void)?

    private unowned let compositor: Compositor
    private let milliHz: Int
    private let frameBytes: Int
    private let startTime: UInt64
    private var slots: [UnsafeMutableRawPointer] = []
    private var freeSlots: [Int] = []
    private struct Entry {
        var slot: Int
        var index: UInt64
        var count: UInt64
        var written: UInt64
    }
    private var queue: [Entry] = []
    /// Bytes of the current copy of `queue[0]` already written.
    private var offset = 0
    private var fd: Int32
    private var source: EventSource?
    private var timer: OpaquePointer?
    private var isStopping = false
    private var deadline: UInt64 = 0
    private var stopGrace: Double = 10

    /// The most bytes of waiting frames (at least two frames wait, at most eight).
    static let bufferBudget = 64 * 1024 * 1024

    /// The encoder arguments for `path`'s extension, or nil for an unknown one.
    package static func codecArguments(for path: String) -> [String]? {
        let lower = path.lowercased()
        if lower.hasSuffix(".mp4") {
            return [
                "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt",
                "yuv420p",
            ]
        }
        if lower.hasSuffix(".webm") {
            return [
                "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
                "-b:v", "4M", "-pix_fmt", "yuv420p",
            ]
        }
        return nil
    }

    /// ffmpeg: `STRATA_FFMPEG` if set, else `ffmpeg` on PATH; nil when there is none.
    package static func findEncoder() -> String? {
        if let override = getenv("STRATA_FFMPEG").map({ String(cString: $0) }), !override.isEmpty {
            return access(override, X_OK) == 0 ? override : nil
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/ffmpeg"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts ffmpeg (`encoder`) writing `path` and takes `output`'s current picture as the
    /// first frame.
    package init(compositor: Compositor, output: ScreenOutput, path: String, encoder: String, codec: [String])
        throws(ControlError)
    {
        self.compositor = compositor
        self.path = path
        screen = output.screen.id
        let canvas = output.displayCanvas
        width = canvas.width
        height = canvas.height
        milliHz = max(1000, output.screen.currentMode?.refreshMilliHz ?? 60000)
        frameBytes = Int(width) * Int(height) * 4
        guard frameBytes > 0 else { throw ControlError(.failed, "the screen has no picture") }
        var ends: [Int32] = [-1, -1]
        guard strata_pipe_cloexec(&ends) == 0 else {
            throw ControlError(.failed, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        let arguments =
            [
                encoder, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "rawvideo", "-pix_fmt", "bgr0", "-s", "\(width)x\(height)", "-r", "\(milliHz)/1000", "-i", "-",
            ]
            + codec + [path]
        // ffmpeg's standard input is the pipe, its output /dev/null, its errors Strata's.
        var launch = ProcessLaunch(arguments)
        launch.standardInput = .descriptor(ends[0])
        launch.standardOutput = .null
        let pid: pid_t
        do {
            pid = try launch.spawn()
        } catch {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            throw ControlError(.failed, "cannot start \(encoder): \(error.reason)")
        }
        Glibc.close(ends[0])
        self.pid = pid
        fd = ends[1]
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // A write to a pipe whose reader died is an EPIPE error here, not a signal.
        signal(SIGPIPE, SIG_IGN)
        startTime = compositor.clock.nanoseconds
        let slotCount = min(8, max(2, Self.bufferBudget / frameBytes))
        for index in 0..<slotCount {
            slots.append(UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64))
            freeSlots.append(slotCount - 1 - index)
        }
        queue.reserveCapacity(slotCount)
        source = EventSource(
            display: compositor.display, fd: fd, events: [],
            handler: { [unowned self] events in
                self.pipeDidSignal(events)
            })
        // The first picture is written when the loop finds room in the pipe (the caller sets
        // `onFailure` first).
        take(canvas, at: 0)
        source?.update(.writable)
        // The scene's signal holds the recorder until `removeObserver`.
        presentedToken = compositor.scene.framePresented.observe { output in self.screenDidPresent(output) }
    }

    deinit {
        // Normally finished (`stop`, `finishNow`); otherwise ffmpeg goes at once.
        if let timer { wl_event_source_remove(timer) }
        source?.remove()
        if fd >= 0 { Glibc.close(fd) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        for slot in slots { slot.deallocate() }
    }

    // MARK: Frames

    public func screenDidPresent(_ output: ScreenOutput) {
        guard output.screen.id == screen, failure == nil, !isStopping else { return }
        let canvas = output.displayCanvas
        guard canvas.width == width, canvas.height == height else {
            fail("the screen's size changed (the video is \(width)x\(height))")
            return
        }
        take(canvas, at: frameIndex(compositor.clock.nanoseconds))
        pump()
    }

    /// The video frame showing time `time` (periods since the start).
    private func frameIndex(_ time: UInt64) -> UInt64 {
        let elapsed = Double(time &- startTime) * Double(milliHz) / 1e12
        return elapsed > 0 ? UInt64(min(elapsed, 1e15)) : 0
    }

    private func take(_ canvas: Canvas, at index: UInt64) {
        if let last = queue.indices.last {
            if index <= queue[last].index {
                // Two pictures in one period: the newer replaces the waiting one, if not begun.
                if queue[last].written == 0 && !(last == 0 && offset > 0) {
                    copy(canvas, into: slots[queue[last].slot])
                    framesTaken += 1
                }
                return
            }
            // The last frame is shown until this one.
            queue[last].count = index - queue[last].index
        }
        guard let slot = freeSlots.popLast() else {
            framesDropped += 1
            return
        }
        copy(canvas, into: slots[slot])
        framesTaken += 1
        queue.append(Entry(slot: slot, index: index, count: 1, written: 0))
    }

    private func copy(_ canvas: Canvas, into slot: UnsafeMutableRawPointer) {
        let rowBytes = Int(width) * 4, stride = Int(canvas.stride)
        let pixels = UnsafeRawPointer(canvas.data)
        for row in 0..<Int(height) {
            memcpy(slot + row * rowBytes, pixels + row * stride, rowBytes)
        }
    }

    /// Writes what the pipe takes now; watches it for room while something waits.
    private func pump() {
        guard fd >= 0 else { return }
        while let first = queue.first {
            if first.written < first.count {
                let n = write(fd, slots[first.slot] + offset, frameBytes - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { break }
                    fail(
                        errno == EPIPE
                            ? "ffmpeg stopped reading" : "cannot write to ffmpeg: \(String(cString: strerror(errno)))")
                    return
                }
                offset += n
                if offset == frameBytes {
                    offset = 0
                    queue[0].written += 1
                    framesWritten += 1
                }
            } else if queue.count > 1 || isStopping {
                freeSlots.append(first.slot)
                queue.removeFirst()
            } else {
                break  // the newest frame stays until the next one says how long it showed
            }
        }
        if isStopping && queue.isEmpty {
            closeInput()
            return
        }
        let waiting = queue.first.map { $0.written < $0.count } ?? false
        source?.update(waiting ? .writable : [])
    }

    private func pipeDidSignal(_ events: EventSource.Events) {
        if events.contains(.error) || events.contains(.hangup) {
            fail("ffmpeg stopped reading")
            return
        }
        pump()
    }

    // MARK: The end

    /// Ends the recording: the last frame is shown until now, what waits is written, ffmpeg's
    /// input is closed and it finishes the file; `onFinish` is told when it exited (after
    /// `grace` seconds it is killed, and that is the failure).
    package func stop(grace: Double) {
        guard !isStopping else { return }
        isStopping = true
        stopGrace = grace
        removeObserver()
        if failure == nil, let last = queue.indices.last {
            queue[last].count = max(
                queue[last].written, max(1, frameIndex(compositor.clock.nanoseconds) &- queue[last].index))
        }
        deadline = Clock.monotonicNanoseconds() &+ UInt64(max(0, grace) * 1e9)
        startPolling()
        pump()
    }

    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        onFailure?(reason)
        removeObserver()
        queue.removeAll()
        closeInput()
        if !isStopping {
            isStopping = true
            deadline = Clock.monotonicNanoseconds() &+ 2_000_000_000
            startPolling()
        }
    }

    private func closeInput() {
        source?.remove()
        source = nil
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private func removeObserver() {
        presentedToken?.remove()
        presentedToken = nil
    }

    /// Every 20 ms until ffmpeg exited or the deadline passed.
    private func startPolling() {
        guard timer == nil else { return }
        timer = wl_event_loop_add_timer(
            compositor.display.eventLoop,
            { data in
                guard let data else { return 0 }
                Unmanaged<VideoRecorder>.fromOpaque(data).takeUnretainedValue().poll()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        if let timer { wl_event_source_timer_update(timer, 20) }
    }

    private func poll() {
        if reap() {
            finished()
            return
        }
        if Clock.monotonicNanoseconds() >= deadline {
            if failure == nil { failure = "ffmpeg did not finish within \(stopGrace) s after the stop; killed" }
            closeInput()
            kill(pid, SIGKILL)
            exitStatus = ExitStatus.wait(pid)
            finished()
            return
        }
        if let timer { wl_event_source_timer_update(timer, 20) }
    }

    private func finished() {
        if let timer {
            wl_event_source_remove(timer)
            self.timer = nil
        }
        closeInput()
        releaseSlots()
        if failure == nil, let status = exitStatus, status != 0 {
            failure = "ffmpeg exited with status \(status)"
        }
        let done = onFinish
        onFinish = nil
        done?(self)
    }

    private func reap() -> Bool {
        if exitStatus != nil { return true }
        exitStatus = ExitStatus.reap(pid)
        return exitStatus != nil
    }

    /// Strata is exiting: writes what waits for up to `grace` seconds (blocking: the loop is
    /// over), closes ffmpeg's input and waits for it as long again, then kills it.
    package func finishNow(grace: Double) {
        removeObserver()
        if !isStopping, failure == nil, let last = queue.indices.last {
            queue[last].count = max(
                queue[last].written, max(1, frameIndex(compositor.clock.nanoseconds) &- queue[last].index))
        }
        isStopping = true
        let end = Clock.monotonicNanoseconds() &+ UInt64(max(0, grace) * 1e9)
        while fd >= 0, !queue.isEmpty, Clock.monotonicNanoseconds() < end {
            pump()
            if fd >= 0 {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = Glibc.poll(&p, 1, 20)
            }
        }
        closeInput()
        while exitStatus == nil, Clock.monotonicNanoseconds() < end, !reap() { usleep(10_000) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            exitStatus = ExitStatus.wait(pid)
        }
        if let timer {
            wl_event_source_remove(timer)
            self.timer = nil
        }
        releaseSlots()
        onFinish = nil
    }

    private func releaseSlots() {
        queue.removeAll()
        for slot in slots { slot.deallocate() }
        slots.removeAll()
        freeSlots.removeAll()
    }

    /// The reply fields of `record-video stop`.
    package var summary: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "path": .string(path), "screen": JSONValue(screen.rawValue),
            "width": JSONValue(Int(width)), "height": JSONValue(Int(height)),
            "frames": JSONValue(Int(clamping: framesWritten)), "presented": JSONValue(framesTaken),
            "dropped": JSONValue(framesDropped),
        ]
        if let exitStatus { fields["exit_status"] = JSONValue(Int(exitStatus)) }
        if let failure { fields["error"] = .string(failure) }
        return fields
    }
}
