import Foundation
import Glibc
import StrataTestSupport
import Testing

/// A trace someone sends you is untrusted input: its report, opened in headless chromium, runs
/// no script of the trace and fetches nothing; its replay starts no program but Strata's own
/// clients without `--run-commands`; its screens are bounded; an unreachable point fails at
/// once; and a trace at the smallest `--record-limit` keeps its header.
@Suite(.serialized) struct HostileTraceEndToEndTests {
    /// A TCP socket listening on 127.0.0.1 (a port of its own) that the page must never reach.
    final class Bait {
        let fd: Int32
        let port: UInt16
        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard fd >= 0, bound else {
                port = 0
                throw RawClient.Failure.connect("cannot listen on 127.0.0.1")
            }
            port = UInt16(bigEndian: address.sin_port)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        deinit { close(fd) }
        /// Whether anything connected.
        var wasReached: Bool {
            let connection = accept(fd, nil, nil)
            if connection >= 0 { close(connection) }
            return connection >= 0
        }
    }

    @Test(.enabled(if: ReportEndToEndTests.chromium != nil))
    func aHostileTracesReportRunsNoScriptOfItAndFetchesNothing() async throws {
        let ctl = try #require(ControlTests.ctl)
        let bait = try Bait()
        let url = "http://127.0.0.1:\(bait.port)/fetched"
        let payload =
            #"</script><script>document.title='pwned';document.documentElement.appendChild(document.createElement('pwned-marker'))</script>"#
            + #"<img src="\#(url)" onerror="document.title='pwned'"><a href="javascript:document.title='pwned'">x</a>"#
            + #"<style>@import '\#(url)';</style>' " onload=document.title='pwned' <!--"#
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/hostile.trace", page = folder.path + "/hostile.html"
        try HostileTrace.text(payload: payload).write(toFile: trace, atomically: true, encoding: .utf8)
        let made = try await ProcessResult.run(
            [ctl, "report", trace, "-o", page], environment: [:], directory: folder.path)
        #expect(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains(
                #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-"#))

        let dom = try await ReportEndToEndTests().chromiumRun(
            ["--virtual-time-budget=3000", "--dump-dom", "file://" + page], in: folder.path)
        #expect(dom.status == 0, "chromium \(dom.ending): \(dom.stderr)")
        #expect(dom.stdout.contains("<title>Strata trace: \(trace)</title>"), "no script of the trace set the title")
        #expect(
            !dom.stdout.contains("<pwned-marker") && !dom.stdout.contains("<img") && !dom.stdout.contains("<a "),
            "no element of the trace was made (its text is there, escaped)")
        #expect(!dom.stdout.contains("<style>@import"), "no style of the trace")
        // The page's own script ran (its hash is right): the timeline and the trace's text, as text.
        #expect(
            dom.stdout.components(separatedBy: "class=\"point ").count - 1 >= 4,
            "the timeline: \(dom.stdout.suffix(2000))")
        #expect(dom.stdout.contains("&lt;/script&gt;&lt;script&gt;document.title='pwned'"), "the payload shown as text")
        #expect(
            !dom.stderr.contains("Content Security Policy") && !dom.stderr.contains("Uncaught"),
            "nothing tried to run or load: \(dom.stderr)")
        #expect(!bait.wasReached, "the page fetched \(url)")
    }

    func trace(_ lines: [String], in folder: ScratchFolder, name: String = "t.trace") throws -> String {
        let path = folder.path + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let header =
        #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","backend":"headless","screens":[{"current":"640x480@60"}],"sequence":0,"time_ns":0"#

    @Test func aReplayRunsNoProgramOfTheTraceWithoutRunCommands() async throws {
        _ = try #require(ControlTests.ctl)
        let folder = try ReplayEndToEndTests.folder()
        let elsewhere = folder.path + "/strata-color-client"
        try writeExecutable(elsewhere, "#!/bin/sh\ntouch \"$0.ran\"\n")
        let path = try trace(
            [
                Self.header + #","command":["sh","-c","touch header.ran"]}"#,
                #"{"type":"command","request":{"command":"exec","argv":["\#(elsewhere)","--title","x"],"cwd":"/"},"reply":{"ok":true},"origin":"outside","sequence":0,"time_ns":1}"#,
                // A client of the command's tree: the command drives (and runs), the exec from outside is replayed.
                #"{"type":"client","event":"connect","client":1,"pid":2,"origin":"command","sequence":0,"time_ns":1}"#,
                #"{"type":"end","reason":"stopped","sequence":0,"time_ns":2}"#,
            ], in: folder)
        let refused = try await ReplayEndToEndTests().replay(path, in: folder)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("would run programs that are not Strata's own clients"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the header's command: sh -c 'touch header.ran'  (in \(folder.path))"),
            "\(refused.stderr)")
        #expect(
            refused.stderr.contains("line 2: \(elsewhere) --title x  (in /)"),
            "a client's name elsewhere is not Strata's: \(refused.stderr)")
        #expect(refused.stderr.contains("pass --run-commands"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.path + "/header.ran")
                && !FileManager.default.fileExists(atPath: elsewhere + ".ran"))

        let ran = try await ReplayEndToEndTests().replay(path, in: folder, extra: ["--run-commands"])
        #expect(ran.status != 2, "\(ran.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: folder.path + "/header.ran"),
            "--run-commands runs them: \(ran.stderr)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + ".ran"))
    }

    @Test func aReplaysScreensAreBounded() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let screen = #"{"current":"4096x4096@60"}"#
        let cases: [(screens: String, message: String)] = [
            (
                "[" + Array(repeating: screen, count: 17).joined(separator: ",") + "]",
                "the header names 17 screens (1...16 replay)"
            ),
            (
                "[" + Array(repeating: screen, count: 16).joined(separator: ",") + "]",
                "16 screens of 4096x4096 are 256 Mpx, past the replay's cap of 64 Mpx"
            ),
            (#"[{"current":"16385x16@60"}]"#, "the screen mode 16385x16@60 is larger than 16384x16384"),
            (
                #"[{"current":"640x480@60","modes":["640x480@60","99999x2@60"]}]"#,
                "the screen mode 99999x2@60 is larger than 16384x16384"
            ),
            (#"[{"current":"640x480@1e9"}]"#, "is not 1...1000 Hz"),
        ]
        for entry in cases {
            let path = try trace(
                [Self.header.replacingOccurrences(of: #"[{"current":"640x480@60"}]"#, with: entry.screens) + "}"],
                in: folder)
            let result = try await ReplayEndToEndTests().replay(path, in: folder)
            #expect(result.status == 2, "\(entry.message): \(result.stderr)")
            #expect(result.stderr.contains(entry.message), "\(result.stderr)")
        }
    }

    /// A point past the recording's last event: the replay stops there at once, whatever the
    /// timeout (the test's own timeout is far below the one given).
    @Test func anUnreachablePointFailsAtOnceWithTheDivergence() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let path = try trace(
            [
                Self.header + "}",
                #"{"type":"command","request":{"command":"pointer-move","x":1,"y":1},"reply":{"ok":true},"origin":"outside","sequence":1000000,"time_ns":1}"#,
                #"{"type":"end","reason":"stopped","sequence":1000000,"time_ns":2}"#,
            ], in: folder)
        let result = try await ReplayEndToEndTests().replay(path, in: folder, extra: ["--timeout", "600"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("line 2 waits for sequence 1000000, past the recording's last (0)"),
            "\(result.stderr)")
    }

    /// Screens added or changed by the trace's commands are held to the same bounds.
    @Test func aReplayedScreenAddPastTheBoundsIsNotReplayed() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let path = try trace(
            [
                Self.header + "}",
                #"{"type":"command","request":{"command":"screen-add","size":"16384x16384"},"reply":{"ok":true},"origin":"outside","sequence":0,"time_ns":1}"#,
                #"{"type":"end","reason":"stopped","sequence":0,"time_ns":2}"#,
            ], in: folder)
        let result = try await ReplayEndToEndTests().replay(path, in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "the replay's screens would pass its cap of 64 Mpx for all screens together; not replayed"),
            "\(result.stderr)")
    }

    /// At the smallest limit, sixteen screens: the trace still starts with its header, and
    /// `report` and `replay` read it.
    @Test func aTraceAtTheSmallestLimitKeepsItsHeader() async throws {
        let ctl = try #require(ControlTests.ctl)
        let folder = try ReplayEndToEndTests.folder()
        let path = folder.path + "/small.trace"
        _ = try await StrataRun.run(
            ["--screens", "16", "--record-limit", "4096", "--record", path], command: [ctl, "screens"],
            environment: ["PATH": ControlTests.path], timeout: 60)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let first = try #require(text.split(separator: "\n").first)
        #expect(
            first.contains(#""type":"header""#) && first.components(separatedBy: #""current":"#).count - 1 == 16,
            "\(first.prefix(300))")
        #expect(
            first.utf8.count > 4096 - 256 || text.contains("size_limit"),
            "the header alone is past the limit, or the limit was reached")
        let report = try await ProcessResult.run(
            [ctl, "report", path, "-o", folder.path + "/small.html"], environment: [:], directory: folder.path)
        #expect(report.status == 0, "\(report.stderr)")
        let replay = try await ReplayEndToEndTests().replay(path, in: folder, extra: ["--run-commands"])
        #expect(replay.status != 2, "\(replay.stderr)")
    }
}
