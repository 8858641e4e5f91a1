import Foundation
import StrataModel
import StrataServer
import StrataTestSupport

/// The soak's X side: Xwayland started in process (the soak's compositor is its Wayland server
/// and its XWM runs on the soak's loop), X programs (xlogo, xclock, xeyes, xterm, Strata's own
/// strata-x11-color-client, whichever are installed) started and killed at random as separate
/// processes, and the model changing their windows (hide and show, frames, key, stacking,
/// level, close). Xwayland's own resident memory and descriptors are read with the compositor's.
final class SoakXClients {
    let server: TestServer
    let xwayland: Xwayland
    /// The X programs found, each an argument list.
    let programs: [[String]]
    private(set) var live: [pid_t] = []
    /// Killed and not reaped yet (reaped without waiting: a program may need the X server,
    /// which may need the compositor this thread runs).
    private var dying: [pid_t] = []
    private(set) var started = 0
    /// `STRATA_SOAK_X_LOG=1`: each X action on standard output (what came before an X failure).
    private let logs = ProcessInfo.processInfo.environment["STRATA_SOAK_X_LOG"] == "1"

    private func log(_ text: @autoclosure () -> String) {
        if logs { print("soak x: \(text())") }
    }

    init?(server: TestServer, colorClient: String?) {
        guard TestProcess.isInstalled("Xwayland"),
            let xwayland = try? Xwayland(compositor: server.compositor, executable: "Xwayland")
        else { return nil }
        server.compositor.xwayland = xwayland
        guard case .success = xwayland.start(), server.run(seconds: 30, until: { xwayland.wm != nil }) else {
            xwayland.shutdown()
            server.compositor.xwayland = nil
            return nil
        }
        self.server = server
        self.xwayland = xwayland
        var programs: [[String]] = []
        if let colorClient {
            programs.append([colorClient, "--size", "160x100", "--seconds", "600", "--class", "soak-x"])
        }
        for program in [["xlogo"], ["xclock", "-update", "1"], ["xeyes"], ["xterm", "-e", "sleep", "600"]]
        where TestProcess.isInstalled(program[0]) {
            programs.append(program)
        }
        self.programs = programs
    }

    /// Starts `arguments` on Xwayland's display, output discarded.
    func spawn(_ index: Int) {
        guard !programs.isEmpty else { return }
        let arguments = programs[index % programs.count]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = xwayland.displayName
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET"] { environment[name] = nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        if posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0 {
            live.append(pid)
            started += 1
            log("started \((arguments[0] as NSString).lastPathComponent), pid \(pid)")
        }
    }

    /// Ends one X program by its pid (SIGTERM or SIGKILL); reaped later.
    func kill(_ index: Int, hard: Bool) {
        guard !live.isEmpty else { return }
        let pid = live.remove(at: index % live.count)
        Glibc.kill(pid, hard ? SIGKILL : SIGTERM)
        dying.append(pid)
        log("\(hard ? "SIGKILL" : "SIGTERM") to pid \(pid)")
    }

    /// Programs that ended (killed, or by themselves at a close the model asked for) are reaped.
    func reap() {
        let ended: (pid_t) -> Bool = { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid
        }
        live.removeAll(where: ended)
        dying.removeAll(where: ended)
    }

    /// Each program once (their first-use costs, in Xwayland too, belong to the warm-up).
    func spawnEach() {
        for index in programs.indices { spawn(index) }
    }

    var windows: [Window] { server.windows.windows.filter { $0.content?.kind == "x11" } }

    /// A model change of one X window (the XWM writes it to X).
    func change(_ choice: Int, pick: Int, x: Int, y: Int) {
        let windows = self.windows
        guard !windows.isEmpty else { return }
        let window = windows[pick % windows.count]
        log("change \(choice % 7) of \(window.appID) (\(window.frame), visible \(window.isVisible)) at \(x),\(y)")
        switch choice % 7 {
        case 0: server.windows.hide(window)
        case 1: server.windows.show(window, makeKey: pick % 2 == 0)
        case 2: server.compositor.windows.setFrame(window, Rect(x: x, y: y, width: 80 + x % 200, height: 60 + y % 150))
        case 3: _ = server.windows.makeKey(window)
        case 4: server.windows.orderFront(window)
        case 5: server.windows.setLevel(window, pick % 3 == 0 ? .alert : .normal)
        default: server.windows.close(window)
        }
    }

    /// Every X program ends; steps until they are reaped and the XWM let their windows go (at
    /// most 20 s; then SIGKILL).
    func leaveAll() {
        while !live.isEmpty { kill(0, hard: false) }
        _ = server.run(seconds: 20) {
            reap()
            return dying.isEmpty && windows.isEmpty
        }
        for pid in dying { Glibc.kill(pid, SIGKILL) }
        _ = server.run(seconds: 5) {
            reap()
            return dying.isEmpty && windows.isEmpty
        }
    }

    /// Xwayland's resident memory (KiB) and open descriptors.
    func reading() -> (rssKiB: Int, fds: Int) {
        guard let pid = xwayland.pid else { return (-1, -1) }
        var rss = -1
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        {
            rss = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        return (rss, fds)
    }

    func shutdown() {
        while !live.isEmpty { kill(0, hard: true) }
        for pid in dying {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        dying.removeAll()
        xwayland.shutdown()
    }
}
