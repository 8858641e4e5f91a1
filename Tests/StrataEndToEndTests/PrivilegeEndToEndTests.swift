import Foundation
import Testing

/// Privilege follows the connection Strata makes (WAYLAND_SOCKET), with the built binary and
/// Debian's wayland-info: the command and `strata-ctl exec` get it, a client from outside does
/// not, and in a script the first Wayland client takes it (docs/reliability.md, "Trust model").
@Suite struct PrivilegeEndToEndTests {
    static let privileged: Set<String> = [
        "zwlr_screencopy_manager_v1", "zwlr_output_manager_v1", "zwp_virtual_keyboard_manager_v1",
        "zwlr_virtual_pointer_manager_v1", "zwlr_foreign_toplevel_manager_v1", "zwp_input_method_manager_v2",
        "zwlr_data_control_manager_v1", "ext_data_control_manager_v1",
        "ext_foreign_toplevel_list_v1", "ext_image_copy_capture_manager_v1",
        "ext_output_image_capture_source_manager_v1", "ext_foreign_toplevel_image_capture_source_manager_v1",
    ]

    /// The interface names in wayland-info's output (`interface: 'wl_compositor', …`).
    static func interfaces(in output: String) -> Set<String> {
        var names: Set<String> = []
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "interface: '") else { continue }
            let rest = line[range.upperBound...]
            if let quote = rest.firstIndex(of: "'") { names.insert(String(rest[..<quote])) }
        }
        return names
    }

    static func requireWaylandInfo() throws {
        try #require(StrataRun.isInstalled("wayland-info"), "wayland-info is not installed (apt-get install wayland-utils)")
    }

    @Test func theCommandStrataStartsSeesThePrivilegedGlobals() async throws {
        try Self.requireWaylandInfo()
        let result = try await StrataRun.run([], command: ["wayland-info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let seen = Self.interfaces(in: result.stdout)
        #expect(seen.isSuperset(of: Self.privileged), "wayland-info saw \(seen.sorted())")
        #expect(seen.contains("wp_security_context_manager_v1"))
    }

    @Test func aClientConnectingThroughWaylandDisplayFromOutsideDoesNot() async throws {
        try Self.requireWaylandInfo()
        let run = try StrataRun([])
        let socket = try #require(await run.socketName())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wayland-info"]
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_SOCKET"] = nil
        env["WAYLAND_DISPLAY"] = socket
        env["XDG_RUNTIME_DIR"] = run.runtimeDirectory
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(process.terminationStatus == 0)
        let seen = Self.interfaces(in: output)
        #expect(seen.contains("wl_compositor") && seen.contains("wp_security_context_manager_v1"), "wayland-info saw \(seen.sorted())")
        #expect(seen.isDisjoint(with: Self.privileged), "wayland-info saw \(seen.intersection(Self.privileged).sorted())")
    }

    /// `sh -c 'wayland-info; unset WAYLAND_SOCKET; wayland-info'`: the first takes the
    /// connection Strata made; the second connects through WAYLAND_DISPLAY, unprivileged.
    @Test func inAScriptTheFirstClientIsPrivilegedAndOneStartedWithoutWaylandSocketIsNot() async throws {
        try Self.requireWaylandInfo()
        let result = try await StrataRun.run([], command: ["sh", "-c", "wayland-info; echo ---; unset WAYLAND_SOCKET; wayland-info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let parts = result.stdout.components(separatedBy: "---\n")
        try #require(parts.count == 2, "stdout: \(result.stdout)")
        #expect(Self.interfaces(in: parts[0]).isSuperset(of: Self.privileged))
        let second = Self.interfaces(in: parts[1])
        #expect(second.contains("wl_compositor") && second.isDisjoint(with: Self.privileged), "second saw \(second.sorted())")
    }

    /// What the docs say of a script that leaves WAYLAND_SOCKET set: the second client finds the
    /// first one's used connection, and its first request (get_registry with an id the first
    /// client's registry still holds) is a wl_display error: it sees no global. (wayland-info
    /// exits 0 all the same.) Strata goes on.
    @Test func aSecondClientThatStillFindsWaylandSocketFailsAndStrataGoesOn() async throws {
        try Self.requireWaylandInfo()
        let result = try await StrataRun.run([], command: ["sh", "-c", "wayland-info; echo ---; wayland-info; echo \"second exited $?\""])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let parts = result.stdout.components(separatedBy: "---\n")
        try #require(parts.count == 2, "stdout: \(result.stdout)")
        #expect(Self.interfaces(in: parts[0]).isSuperset(of: Self.privileged))
        #expect(parts[1].contains("second exited"), "stdout: \(parts[1])")
        #expect(Self.interfaces(in: parts[1]).isEmpty, "stdout: \(parts[1])")
        #expect(result.stderr.contains("wl_display@1: error 1: invalid arguments for wl_display@1.get_registry"), "stderr: \(result.stderr)")
    }

    /// `strata-ctl exec` gives each program a connection of its own; the script waits for the
    /// exec'd shell to move its output into place.
    @Test func aClientStartedByStrataCtlExecIsPrivileged() async throws {
        try Self.requireWaylandInfo()
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        var template = Array("/tmp/strata-priv-e2e-XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = "\"$0\" exec -- sh -c 'wayland-info > \"$0.tmp\" && mv \"$0.tmp\" \"$0\"' \"$1\" >/dev/null; "
            + "i=0; while [ ! -f \"$1\" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; test -f \"$1\""
        let result = try await StrataRun.run([], command: ["sh", "-c", script, ctl, dir + "/info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = (try? String(contentsOfFile: dir + "/info", encoding: .utf8)) ?? ""
        let seen = Self.interfaces(in: output)
        #expect(seen.isSuperset(of: Self.privileged), "wayland-info saw \(seen.sorted())")
    }

    /// foot takes the connection; the shell it starts, and what runs in it, connect through
    /// WAYLAND_DISPLAY as ordinary clients.
    @Test func whatATerminalStartsConnectsUnprivileged() async throws {
        try Self.requireWaylandInfo()
        try #require(StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)")
        var template = Array("/tmp/strata-priv-e2e-XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let info = dir + "/info"
        let result = try await StrataRun.run(
            ["--size", "640x480"], command: ["foot", "sh", "-c", "wayland-info > \"$0.tmp\"; echo $? >> \"$0.tmp\"; mv \"$0.tmp\" \"$0\"", info],
            timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = (try? String(contentsOfFile: info, encoding: .utf8)) ?? ""
        #expect(output.hasSuffix("\n0\n"), "wayland-info in foot: \(output.suffix(200))")
        let seen = Self.interfaces(in: output)
        #expect(seen.contains("wl_compositor") && seen.isDisjoint(with: Self.privileged), "wayland-info in foot saw \(seen.sorted())")
    }
}
