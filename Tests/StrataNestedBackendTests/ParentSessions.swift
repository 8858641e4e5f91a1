import Foundation
import StrataRender
import StrataServer

/// Finds an executable on PATH (or the usual Debian places).
func executable(_ name: String) -> String? {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

enum ParentSessionError: Error, CustomStringConvertible {
    case didNotStart(String)
    var description: String {
        switch self {
        case .didNotStart(let why): return why
        }
    }
}

/// A private directory for a parent session's sockets (removed by `remove()`).
func makePrivateDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw ParentSessionError.didNotStart("mkdtemp failed") }
    return String(cString: made)
}

/// Debian's Weston 10 on its headless backend, with the pixman renderer (so it has pixels) and
/// the debug protocols (so `weston-screenshooter` can read them), in a private runtime folder.
final class ParentWeston {
    static var isInstalled: Bool { executable("weston") != nil && executable("weston-screenshooter") != nil }
    static let missingMessage = "weston is not installed (Debian: apt-get install weston): the Wayland-nested tests need it as the parent"

    let runtimeDirectory: String
    let socketPath: String
    private let process = Process()

    init(width: Int = 640, height: Int = 480, shell: String = "desktop-shell.so") throws {
        runtimeDirectory = try makePrivateDirectory("strata-weston")
        socketPath = runtimeDirectory + "/parent-0"
        // No animations: a window fading in has not got its final colours yet.
        try "[core]\nidle-time=0\n[shell]\nanimation=none\nstartup-animation=none\nclose-animation=none\nfocus-animation=none\n"
            .write(toFile: runtimeDirectory + "/weston.ini", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: executable("weston")!)
        process.arguments = ["--backend=headless-backend.so", "--socket=parent-0", "--width=\(width)", "--height=\(height)",
                             "--idle-time=0", "--use-pixman", "--debug", "--config=\(runtimeDirectory)/weston.ini", "--shell=\(shell)",
                             "--log=\(runtimeDirectory)/weston.log"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: runtimeDirectory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath) || !FileManager.default.fileExists(atPath: socketPath + ".lock") {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw ParentSessionError.didNotStart("weston did not start: \(log)")
            }
            usleep(20_000)
        }
        usleep(300_000)   // the shell client starts; screenshots before it are black
    }

    var log: String { (try? String(contentsOfFile: runtimeDirectory + "/weston.log", encoding: .utf8)) ?? "(no log)" }

    /// The whole parent output, through weston-screenshooter (writes a PNG into the cwd).
    func screenshot() throws -> PNGFile.Pixels {
        let directory = runtimeDirectory + "/shots-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: executable("weston-screenshooter")!)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["WAYLAND_DISPLAY"] = socketPath
        shooter.environment = environment
        shooter.currentDirectoryURL = URL(fileURLWithPath: directory)
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        try shooter.run()
        shooter.waitUntilExit()
        guard shooter.terminationStatus == 0,
              let name = try FileManager.default.contentsOfDirectory(atPath: directory).first(where: { $0.hasSuffix(".png") }) else {
            throw ParentSessionError.didNotStart("weston-screenshooter failed (\(shooter.terminationStatus))")
        }
        return try PNGFile.read(path: directory + "/" + name)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }
}

/// Debian's Xvfb on a free display number, 24-bit.
final class ParentXvfb {
    static var isInstalled: Bool { executable("Xvfb") != nil }
    static let missingMessage = "Xvfb is not installed (Debian: apt-get install xvfb): the X11-nested tests need it as the parent"

    let display: String
    private let process = Process()

    init(width: Int = 1024, height: Int = 768) throws {
        var number = 0
        for candidate in (100 + Int(getpid() % 50) * 4)..<400 where
            !FileManager.default.fileExists(atPath: "/tmp/.X\(candidate)-lock")
            && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(candidate)") {
            number = candidate
            break
        }
        display = ":\(number)"
        process.executableURL = URL(fileURLWithPath: executable("Xvfb")!)
        process.arguments = [display, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw ParentSessionError.didNotStart("Xvfb \(display) did not start")
            }
            usleep(20_000)
        }
        usleep(100_000)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Steps the nested compositor's loop until `condition` holds or `seconds` pass.
@discardableResult
func step(_ compositor: Compositor, seconds: Double = 5, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        compositor.dispatch(timeout: 0.01)
    }
    return true
}

/// Steps the loop for a while regardless (lets the parent catch up).
func settle(_ compositor: Compositor, seconds: Double) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline { compositor.dispatch(timeout: 0.01) }
}
