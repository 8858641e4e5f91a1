import Foundation
import StrataTestSupport
import Testing

/// Privilege follows the command's process tree, with the built binary and Debian's
/// wayland-info: every Wayland client of the command and of `strata-ctl exec`, at any depth,
/// connects on the privileged socket their WAYLAND_DISPLAY names; a client from outside, or one
/// pointed at the public socket, does not (docs/reliability.md, "Trust model").
@Suite(
    .enabled(if: StrataRun.isInstalled("wayland-info"), "wayland-info is not installed (apt-get install wayland-utils)")
)
struct PrivilegeEndToEndTests {
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

    @Test func theCommandStrataStartsSeesThePrivilegedGlobals() async throws {
        let result = try await StrataRun.run([], command: ["wayland-info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let seen = Self.interfaces(in: result.stdout)
        #expect(seen.isSuperset(of: Self.privileged), "wayland-info saw \(seen.sorted())")
        #expect(seen.contains("wp_security_context_manager_v1"))
    }

    @Test func aClientConnectingThroughWaylandDisplayFromOutsideDoesNot() async throws {
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
        #expect(
            seen.contains("wl_compositor") && seen.contains("wp_security_context_manager_v1"),
            "wayland-info saw \(seen.sorted())")
        #expect(
            seen.isDisjoint(with: Self.privileged), "wayland-info saw \(seen.intersection(Self.privileged).sorted())")
    }

    /// Any number of clients in one script, one after the other and side by side: each has a
    /// connection of its own on the privileged socket (no client finds another's).
    @Test func inAScriptEveryClientIsPrivileged() async throws {
        let script =
            "wayland-info; echo ---; wayland-info & wayland-info > \"$XDG_RUNTIME_DIR/third\"; wait; echo ---; cat \"$XDG_RUNTIME_DIR/third\"; rm \"$XDG_RUNTIME_DIR/third\""
        let result = try await StrataRun.run([], command: ["sh", "-c", script])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let parts = result.stdout.components(separatedBy: "---\n")
        try #require(parts.count == 3, "stdout: \(result.stdout)")
        for part in parts {
            let seen = Self.interfaces(in: part)
            #expect(seen.isSuperset(of: Self.privileged), "a client saw \(seen.sorted())")
        }
        #expect(!result.stderr.contains("error"), "stderr: \(result.stderr)")
    }

    /// The command can still start an ordinary client: one pointed at the public socket.
    @Test func aClientOfTheCommandPointedAtThePublicSocketIsOrdinary() async throws {
        let result = try await StrataRun.run(
            ["--socket", "strata-public"], command: ["sh", "-c", "WAYLAND_DISPLAY=strata-public wayland-info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let seen = Self.interfaces(in: result.stdout)
        #expect(
            seen.contains("wl_compositor") && seen.isDisjoint(with: Self.privileged),
            "wayland-info saw \(seen.sorted())")
    }

    /// A WAYLAND_SOCKET that Strata's own parent left set reaches no client: the command's
    /// clients connect through WAYLAND_DISPLAY, privileged.
    @Test func aWaylandSocketFromStrataParentIsNotPassedOn() async throws {
        let result = try await StrataRun.run(
            ["--backend", "headless"], command: ["sh", "-c", "echo ${WAYLAND_SOCKET-unset}; wayland-info"],
            environment: ["WAYLAND_SOCKET": "0"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("WAYLAND_DISPLAY="), "stdout: \(result.stdout.prefix(300))")
        #expect(result.stdout.contains("\nunset\n"), "stdout: \(result.stdout.prefix(300))")
        #expect(Self.interfaces(in: result.stdout).isSuperset(of: Self.privileged))
    }

    /// `strata-ctl exec` gives each program a connection of its own; the script waits for the
    /// exec'd shell to move its output into place.
    @Test func aClientStartedByStrataCtlExecIsPrivileged() async throws {
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let scratch = try ScratchFolder(prefix: "strata-priv-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        let script =
            "\"$0\" exec -- sh -c 'wayland-info > \"$0.tmp\" && mv \"$0.tmp\" \"$0\"' \"$1\" >/dev/null; "
            + "i=0; while [ ! -f \"$1\" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; test -f \"$1\""
        let result = try await StrataRun.run([], command: ["sh", "-c", script, ctl, dir + "/info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = (try? String(contentsOfFile: dir + "/info", encoding: .utf8)) ?? ""
        let seen = Self.interfaces(in: output)
        #expect(seen.isSuperset(of: Self.privileged), "wayland-info saw \(seen.sorted())")
    }

    /// foot's shell, and what runs in it, are part of the command's tree: privileged too.
    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func whatATerminalStartsIsPrivilegedToo() async throws {
        let scratch = try ScratchFolder(prefix: "strata-priv-e2e")
        defer { withExtendedLifetime(scratch) {} }
        let dir = scratch.path
        let info = dir + "/info"
        let result = try await StrataRun.run(
            ["--size", "640x480"],
            command: [
                "foot", "sh", "-c", "wayland-info > \"$0.tmp\"; echo $? >> \"$0.tmp\"; mv \"$0.tmp\" \"$0\"", info,
            ],
            timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = (try? String(contentsOfFile: info, encoding: .utf8)) ?? ""
        #expect(output.hasSuffix("\n0\n"), "wayland-info in foot: \(output.suffix(200))")
        let seen = Self.interfaces(in: output)
        #expect(seen.isSuperset(of: Self.privileged), "wayland-info in foot saw \(seen.sorted())")
    }
}
