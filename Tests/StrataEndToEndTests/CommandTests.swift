import Foundation
import Testing

/// `strata -- command args…`: the command's environment, and Strata's exit status following it.
@Suite struct CommandTests {
    /// Commands and the status Strata must exit with (128 + signal when the command is killed).
    static let commands: [(command: [String], status: Int32)] = [
        (["true"], 0),
        (["false"], 1),
        (["sh", "-c", "exit 7"], 7),
        (["sh", "-c", "kill -KILL $$"], 128 + 9),
        (["sh", "-c", "kill -TERM $$"], 128 + 15),
    ]

    @Test(arguments: commands)
    func strataExitsWithTheCommandsStatus(command: [String], status: Int32) async throws {
        let result = try await StrataRun.run([], command: command, expecting: .status(status))
        #expect(!result.timedOut)
        #expect(result.status == status, "stderr: \(result.stderr)")
        #expect(result.runtimeDirectoryContents.isEmpty, "left in XDG_RUNTIME_DIR: \(result.runtimeDirectoryContents)")
    }

    @Test func commandSeesThePrivilegedSocketAndNotTheParentsDisplay() async throws {
        let script = """
            echo "child WAYLAND_DISPLAY=$WAYLAND_DISPLAY"
            [ -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" ] && echo "socket exists"
            echo "child WAYLAND_SOCKET=${WAYLAND_SOCKET-unset}"
            """
        // Headless: with the parent's (made-up) variables set, `auto` would nest in that session.
        let result = try await StrataRun.run(
            ["--backend", "headless"], command: ["sh", "-c", script],
            environment: ["WAYLAND_DISPLAY": "parent-display", "WAYLAND_SOCKET": "9"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let name = try #require(result.socketName)
        #expect(name.hasPrefix("wayland-"))
        #expect(result.stdout.hasPrefix("WAYLAND_DISPLAY=\(name)\n"), "the socket name comes first")
        // The privileged socket beside the public one: the public name, a dash, 16 hex digits.
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("child WAYLAND_DISPLAY=") })
        let child = line.dropFirst("child WAYLAND_DISPLAY=".count)
        #expect(
            child.hasPrefix(name + "-") && child.count == name.count + 17
                && child.suffix(16).allSatisfy(\.isHexDigit), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("socket exists\n"))
        // Neither the parent's WAYLAND_SOCKET nor one of Strata's: nothing a child could inherit by mistake.
        #expect(result.stdout.contains("child WAYLAND_SOCKET=unset\n"), "stdout: \(result.stdout)")
        #expect(
            result.runtimeDirectoryContents.isEmpty, "socket or lock left behind: \(result.runtimeDirectoryContents)")
    }

    @Test func socketOptionNamesTheSocket() async throws {
        let result = try await StrataRun.run(
            ["--socket", "strata-test"],
            command: [
                "sh", "-c",
                "[ -S \"$XDG_RUNTIME_DIR/strata-test\" ] && [ -S \"$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY\" ] && case $WAYLAND_DISPLAY in strata-test-*) ;; *) exit 1 ;; esac",
            ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.socketName == "strata-test")
        #expect(result.runtimeDirectoryContents.isEmpty)
    }

    @Test func commandThatCannotStartFailsWith127() async throws {
        let result = try await StrataRun.run([], command: ["strata-no-such-command"], expecting: .status(127))
        #expect(result.status == 127)
        #expect(result.stderr.contains("cannot start 'strata-no-such-command'"))
        #expect(result.runtimeDirectoryContents.isEmpty)
    }

    @Test func missingRuntimeDirectoryIsAClearError() async throws {
        let result = try await StrataRun.run(
            [], command: ["true"], environment: ["XDG_RUNTIME_DIR": nil], expecting: .failure)
        #expect(result.status != 0)
        #expect(result.stderr.contains("XDG_RUNTIME_DIR is not set"), "stderr: \(result.stderr)")
        #expect(result.socketName == nil)
    }

    @Test func unwritableRuntimeDirectoryIsAClearError() async throws {
        let result = try await StrataRun.run(
            [], command: ["true"], environment: ["XDG_RUNTIME_DIR": "/proc/strata-does-not-exist"],
            expecting: .failure)
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not a writable directory"), "stderr: \(result.stderr)")
    }

    @Test func busySocketNameIsAClearError() async throws {
        let first = try StrataRun(["--socket", "taken"])
        _ = try #require(await first.socketName())
        let second = try await StrataRun.run(
            ["--socket", "taken"], command: ["true"], environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory],
            expecting: .failure)
        #expect(second.status != 0)
        #expect(second.stderr.contains("cannot use socket 'taken'"), "stderr: \(second.stderr)")
        first.send(SIGTERM)
        #expect(await first.finish().status == 0)
    }
}
