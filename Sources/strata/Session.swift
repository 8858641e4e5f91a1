import CWaylandServer
import FoundationEssentials
import Glibc
import StrataControl
import StrataControlProtocol
import StrataProcess
import StrataRecording
import StrataRender
import StrataServer
import StrataTrace

/// One run of the compositor: its event loop, the signals it handles on that loop, and the
/// command it started. Everything happens on the loop's thread; there are no other threads.
///
/// The loop stops when the command ends (Strata then exits with the command's status) or on
/// SIGINT/SIGTERM (exit status 0). On the way out it writes the screenshots, disconnects the
/// clients, and destroys the display, which removes the socket and its lock file.
final class Session {
    let compositor: Compositor
    let screenshotDirectory: String?
    private(set) var child: ChildProcess?
    /// Clients started through the control socket's `exec`, each leading a process group: reaped
    /// as they end, which does not stop Strata; kept while their group has a process; asked to
    /// end with their groups (then killed) when Strata stops.
    private(set) var clients: [ChildProcess] = []
    /// The control socket, stopped (its file removed) before the display goes.
    var control: ControlServer?
    /// Rootless Xwayland (`--xwayland`), stopped (its sockets and lock file removed) before the
    /// display goes.
    var xwayland: Xwayland?
    /// The clients' private session bus (`--accessibility`), stopped with the clients.
    var accessibilityBus: AccessibilityBus?
    /// The trace `--record` writes when there is no control socket (else the control server
    /// holds it, and `record start|stop` may replace it).
    var standaloneRecorder: TraceRecorder?
    var recorder: TraceRecorder? { control?.recorder ?? standaloneRecorder }
    private var signalSources: [OpaquePointer] = []
    private var stopReason: StopReason?

    enum StopReason: Equatable {
        case signal(Int32)
        case commandEnded
    }

    init(compositor: Compositor, screenshotDirectory: String?) throws(ServerError) {
        self.compositor = compositor
        self.screenshotDirectory = screenshotDirectory
        for number in HandledSignals.numbers {
            let source = wl_event_loop_add_signal(
                compositor.display.eventLoop, number,
                { number, data in
                    guard let data else { return 0 }
                    Unmanaged<Session>.fromOpaque(data).takeUnretainedValue().handle(signal: number)
                    return 0
                }, Unmanaged.passUnretained(self).toOpaque())
            guard let source else {
                removeSignalSources()
                throw .setup("cannot watch signal \(number) on the event loop")
            }
            signalSources.append(source)
        }
    }

    /// Starts the command; its environment names the privileged socket (`PrivilegedSocket`).
    func start(command: [String], environment: [String: String]) throws(ProcessLaunchError) {
        child = try startProcess(command, environment: environment, workingDirectory: nil, origin: .command)
    }

    /// Starts a client for the control socket's `exec`, in the same environment as the command;
    /// returns its pid.
    func startClient(command: [String], environment: [String: String], workingDirectory: String?)
        throws(ProcessLaunchError) -> pid_t
    {
        let client = try startProcess(
            command, environment: environment, workingDirectory: workingDirectory, origin: .exec, leadsGroup: true)
        clients.append(client)
        return client.pid
    }

    /// Starts `command` in `environment`, whose WAYLAND_DISPLAY names the privileged socket: every
    /// Wayland client of the process's tree connects there on a connection of its own
    /// (docs/reliability.md, "Trust model"). Nothing is inherited but the standard streams.
    /// `origin`: `command` for the session's command, `exec` for the others (traces' `origin`).
    private func startProcess(
        _ command: [String], environment: [String: String],
        workingDirectory: String?, origin: TraceOrigin, leadsGroup: Bool = false
    ) throws(ProcessLaunchError) -> ChildProcess {
        let process = try ChildProcess(
            arguments: command, environment: environment, workingDirectory: workingDirectory, leadsGroup: leadsGroup)
        if let control {
            control.processDidStart(pid: process.pid, command: command, origin: origin)
        } else {
            standaloneRecorder?.processDidStart(pid: process.pid, command: command, origin: origin)
        }
        return process
    }

    /// Runs the loop until the command ends or a signal asks to stop; then shuts everything
    /// down and returns the exit status.
    func run() -> Int32 {
        compositor.display.run()
        var status: Int32 = 0
        if stopReason == .commandEnded, let exitStatus = child?.exitStatus {
            status = exitStatus
        }
        // The trace ends with the session: the screenshots' repaint below is not part of it.
        recorder?.stop(reason: "exit")
        if let screenshotDirectory {
            // Made here, the reason in words if it cannot be (checked at the start, but the file
            // system may have changed since).
            if let problem = OutputPath.makeDirectories(screenshotDirectory) {
                Session.printError("strata: error: cannot write the screenshots: \(problem)")
                if status == 0 { status = 1 }
            } else {
                do {
                    for path in try compositor.scene.writeScreenshots(to: screenshotDirectory) {
                        Session.printError("strata: screenshot \(path)")
                    }
                } catch let failure as PNGFile.Failure {
                    Session.printError("strata: error: \(failure.description)")
                    if status == 0 { status = 1 }
                } catch {
                    Session.printError("strata: error: cannot write the screenshots into \(screenshotDirectory)")
                    if status == 0 { status = 1 }
                }
            }
        }
        if let stats = getenv("STRATA_STATS"), String(cString: stats) == "1" { printStats() }
        removeSignalSources()
        recorder?.stop(reason: "exit")
        control?.stop()
        xwayland?.shutdown()
        compositor.shutdown()
        // The clients are disconnected now. The exec'd clients' groups and a command still
        // running (Strata was asked to stop) get SIGTERM and a moment to end before they are
        // killed, so no process Strata started outlives it.
        ChildProcess.terminate(clients, grace: 2)
        if let child { ChildProcess.terminate([child], grace: 2) }
        accessibilityBus?.stop()
        return status
    }

    /// `STRATA_STATS=1`: one line per screen on stderr at exit, for benchmarks
    /// (bench/weston-compare.sh): frames painted (composited), frame-clock ticks, and the
    /// process's CPU time.
    private func printStats() {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
                usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        for output in compositor.scene.outputs {
            Session.printError(
                "strata: stats: screen \(output.screen.name) painted \(output.paintedFrames) frames \(output.frames) cpu \(Session.milliseconds(cpu))"
            )
        }
    }

    /// Stops the loop before it starts (setup failed after the session was made).
    func abandon() {
        recorder?.stop(reason: "exit")
        control?.stop()
        removeSignalSources()
        xwayland?.shutdown()
        compositor.shutdown()
        accessibilityBus?.stop()
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGCHLD:
            clients.removeAll(where: \.isGone)
            if let child, child.reapIfExited() { stop(.commandEnded) }
        default:
            stop(.signal(signal))
        }
    }

    private func stop(_ reason: StopReason) {
        if stopReason == nil { stopReason = reason }
        compositor.display.terminate()
    }

    private func removeSignalSources() {
        for source in signalSources { wl_event_source_remove(source) }
        signalSources.removeAll()
    }

    static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Seconds with three decimals ("1.234"), as printf's %.3f.
    static func milliseconds(_ seconds: Double) -> String {
        let thousandths = Int((seconds * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
