import Foundation
import Glibc
import Testing

/// `strata --accessibility`: a private session bus whose AT-SPI registry a real GTK client
/// publishes its tree to, gone with Strata, never shared by two Stratas.
@Suite(.serialized) struct AccessibilityBusEndToEndTests {
    static let hasBus =
        StrataRun.isInstalled("dbus-daemon") && StrataRun.isInstalled("dbus-send")
        && FileManager.default.fileExists(atPath: "/usr/libexec/at-spi-bus-launcher")

    /// Prints the session bus, the AT-SPI bus the launcher gives, and (when `gtk` names a
    /// client) the registry's applications once the client has registered (polled, 20 s at most).
    static func script(gtk: String?) -> String {
        """
        echo "session=$DBUS_SESSION_BUS_ADDRESS"
        a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress | tr -d ' ')
        echo "a11y=$a11y"
        [ -n "\(gtk ?? "")" ] || exit 0
        GDK_BACKEND=wayland \(gtk ?? "") & client=$!
        i=0
        while [ $i -lt 200 ]; do
            apps=$(dbus-send --bus="$a11y" --print-reply --dest=org.a11y.atspi.Registry /org/a11y/atspi/accessible/root org.a11y.atspi.Accessible.GetChildren | grep -c 'object path')
            [ "$apps" -gt 0 ] && break
            sleep 0.1; i=$((i + 1))
        done
        echo "apps=$apps"
        kill $client; wait $client
        exit 0
        """
    }

    static func value(_ name: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// The pids of live processes whose environment or command line names `text`.
    static func processes(naming text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard pid_t(entry) != nil else { return false }
            for file in ["environ", "cmdline"] {
                if let data = FileManager.default.contents(atPath: "/proc/\(entry)/\(file)"),
                    String(decoding: data, as: UTF8.self).contains(text)
                {
                    return true
                }
            }
            return false
        }
    }

    @Test(.enabled(if: hasBus && StrataRun.isInstalled("gtk3-demo")))
    func aGTKClientPublishesItsTreeOnTheBusOfItsStrataAndTheBusEndsWithIt() async throws {
        let run = try StrataRun(
            ["--accessibility", "--xwayland", "off"], command: ["/bin/sh", "-c", Self.script(gtk: "gtk3-demo")],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/user-session-bus"])
        let result = await run.finish(timeout: 60)
        let folder = run.runtimeDirectory + "/strata-wayland-0.a11y"
        #expect(result.stdout.contains("DBUS_SESSION_BUS_ADDRESS=unix:path=\(folder)/bus"), "\(result.stdout)")
        // The command's session bus is Strata's, not the one it was started with.
        #expect(Self.value("session", in: result.stdout) == "unix:path=\(folder)/bus")
        // The AT-SPI bus is in Strata's folder too, not in the user's runtime folder.
        #expect(Self.value("a11y", in: result.stdout)?.hasPrefix("unix:path=\(folder)/at-spi/") == true)
        #expect(Self.value("apps", in: result.stdout).flatMap { Int($0) } ?? 0 >= 1, "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder), "the bus's folder outlived Strata")
        #expect(Self.processes(naming: folder).isEmpty, "outlived Strata: \(Self.processes(naming: folder))")
    }

    @Test(.enabled(if: hasBus))
    func twoStratasInOneRuntimeFolderHaveABusEach() async throws {
        let first = try StrataRun(
            ["--accessibility", "--xwayland", "off", "--socket", "wayland-a"],
            command: ["/bin/sh", "-c", Self.script(gtk: nil) + "\nsleep 2"])
        let second = try StrataRun(
            ["--accessibility", "--xwayland", "off", "--socket", "wayland-b"],
            command: ["/bin/sh", "-c", Self.script(gtk: nil)],
            environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory])
        let secondResult = await second.finish(timeout: 30)
        let firstResult = await first.finish(timeout: 30)
        let a = try #require(Self.value("a11y", in: firstResult.stdout))
        let b = try #require(Self.value("a11y", in: secondResult.stdout))
        #expect(a.hasPrefix("unix:path=\(first.runtimeDirectory)/strata-wayland-a.a11y/at-spi/"))
        #expect(b.hasPrefix("unix:path=\(first.runtimeDirectory)/strata-wayland-b.a11y/at-spi/"))
        #expect(Self.value("session", in: firstResult.stdout) != Self.value("session", in: secondResult.stdout))
    }

    /// A Strata killed outright (SIGKILL: a test runner's timeout) cannot stop its bus: the
    /// bus's group holds a shell that reads a pipe only Strata holds, and stops the group when
    /// the kernel closes it.
    @Test(.enabled(if: hasBus))
    func aStrataKilledOutrightTakesItsBusWithIt() async throws {
        let run = try StrataRun(["--accessibility", "--xwayland", "off"], command: ["/bin/sh", "-c", "exec sleep 30"])
        let socket = "--address=unix:path=" + run.runtimeDirectory + "/strata-wayland-0.a11y/bus"
        let daemon = await StrataRun.poll(timeout: 20) { () -> pid_t? in
            Self.processes(naming: socket).lazy.compactMap { pid_t($0) }.first { pid in
                let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
                return command.contains(socket)
            }
        }
        let group = try #require(daemon, "the bus's daemon did not start")
        // The launcher and its bus join the daemon's group (started with Strata), and the shell.
        let launched = await StrataRun.poll(timeout: 20) { () -> Bool? in
            let members = StrataRun.processes(inGroup: group)
            return members.contains { $0.hasSuffix(" at-spi-bus-laun") } && members.contains { $0.hasSuffix(" sh") }
                ? true : nil
        }
        #expect(launched == true, "\(StrataRun.processes(inGroup: group))")
        kill(run.pid, SIGKILL)
        let gone = await StrataRun.poll(timeout: 20) { StrataRun.processes(inGroup: group).isEmpty ? true : nil }
        #expect(gone == true, "outlived Strata: \(StrataRun.processes(inGroup: group))")
        await run.finish(timeout: 20, expecting: .status(128 + SIGKILL), mayOutlive: ["sleep"])
    }

    @Test func aMissingDaemonIsAClearErrorAndNothingRuns() async throws {
        let result = try await StrataRun.run(
            ["--accessibility"], command: ["/bin/sh", "-c", "echo ran"],
            environment: ["STRATA_DBUS_DAEMON": "/nonexistent/dbus-daemon"], expecting: .failure)
        #expect(
            result.stderr.contains("strata: error: --accessibility: cannot start /nonexistent/dbus-daemon"),
            "\(result.stderr)")
        #expect(!result.stdout.contains("ran"))
    }
}
