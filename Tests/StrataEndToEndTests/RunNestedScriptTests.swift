import Foundation
import Glibc
import StrataTestSupport
import Testing

/// `run-nested.sh` runs the `strata` on PATH, else the checkout's `.build/release/strata`, and
/// installs and builds only when there is neither (or with `--build`). Run from a copy of the
/// script and `scripts/demo.sh` in a private folder, with fake `strata`, `swift` and
/// `install-deps.sh` that say they ran, so that nothing is installed or built.
@Suite struct RunNestedScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A copy of run-nested.sh and scripts/demo.sh, a fake scripts/install-deps.sh and a `bin`
    /// folder with a fake `swift`; `strataOnPath` and `strataBuilt` add a fake strata to `bin` and
    /// to `.build/release`.
    struct Checkout {
        private let folder: ScratchFolder
        var root: String { folder.path }

        init(strataOnPath: Bool, strataBuilt: Bool) throws {
            folder = try ScratchFolder(prefix: "strata-run-nested")
            let files = FileManager.default
            try files.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
            try files.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
            // Copied through close-on-exec descriptors (`writeExecutable`): a copy another test's
            // child inherited open for writing could not be run ("text file busy").
            for script in ["run-nested.sh", "scripts/demo.sh"] {
                try writeExecutable(
                    root + "/" + script,
                    String(contentsOfFile: RunNestedScriptTests.repository + "/" + script, encoding: .utf8))
            }
            try Self.script(root + "/scripts/install-deps.sh", "echo \"fake install-deps $*\"")
            try Self.script(root + "/bin/swift", "echo \"fake swift $*\"; exit 9")
            if strataOnPath { try Self.script(root + "/bin/strata", "echo \"path strata: $*\"") }
            if strataBuilt {
                try files.createDirectory(atPath: root + "/.build/release", withIntermediateDirectories: true)
                try Self.script(root + "/.build/release/strata", "echo \"built strata: $*\"")
            }
        }

        static func script(_ path: String, _ body: String) throws {
            try writeExecutable(path, "#!/bin/sh\n" + body + "\n")
        }

        /// Runs `./run-nested.sh arguments…` with the fake `bin` first on PATH, nested in a fake
        /// Wayland session (or in none).
        func run(_ arguments: [String], session: Bool = true) async throws -> ProcessResult {
            var environment = ["PATH": root + "/bin:/usr/bin:/bin", "STRATA_DEMO_SECONDS": "0"]
            if session { environment["WAYLAND_DISPLAY"] = "wayland-fake" }
            return try await ProcessResult.run(
                [root + "/run-nested.sh"] + arguments, environment: environment, directory: root)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func theStrataOnPathRunsAndNothingIsBuilt() async throws {
        let checkout = try Checkout(strataOnPath: true, strataBuilt: true)
        defer { checkout.remove() }
        let result = try await checkout.run(["--size", "800x600", "--", "weston-simple-shm"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("path strata: --size 800x600 -- weston-simple-shm"), "\(result.stdout)")
        #expect(result.stdout.contains("run-nested: running \(checkout.root)/bin/strata"))
        #expect(
            !result.stdout.contains("fake swift") && !result.stdout.contains("fake install-deps"), "\(result.stdout)")
    }

    @Test func withoutOneOnPathTheCheckoutsReleaseBuildRuns() async throws {
        let checkout = try Checkout(strataOnPath: false, strataBuilt: true)
        defer { checkout.remove() }
        let result = try await checkout.run(["--", "weston-simple-shm"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("built strata: -- weston-simple-shm"), "\(result.stdout)")
        #expect(
            !result.stdout.contains("fake swift") && !result.stdout.contains("fake install-deps"), "\(result.stdout)")
    }

    @Test func withNeitherOrWithBuildItInstallsAndBuilds() async throws {
        for (onPath, arguments) in [
            (false, ["--", "weston-simple-shm"]), (true, ["--build", "--", "weston-simple-shm"]),
        ] {
            let checkout = try Checkout(strataOnPath: onPath, strataBuilt: false)
            defer { checkout.remove() }
            let result = try await checkout.run(arguments)
            #expect(result.stdout.contains("fake install-deps --test"), "\(result.stdout)")
            #expect(result.stdout.contains("fake swift build -c release --product strata"), "\(result.stdout)")
            #expect(result.status == 9, "the fake build's failure ends the script: \(result.stdout) \(result.stderr)")
            #expect(!result.stdout.contains("path strata"))
        }
    }

    @Test func withoutADesktopSessionTheFoundStrataRunsHeadless() async throws {
        let checkout = try Checkout(strataOnPath: true, strataBuilt: false)
        defer { checkout.remove() }
        let result = try await checkout.run(["--", "weston-simple-shm"], session: false)
        #expect(result.stdout.contains("run-nested: no desktop session"), "\(result.stdout)")
        #expect(
            result.stdout.contains("path strata: --backend headless --screenshot screenshots -- weston-simple-shm"),
            "\(result.stdout)")
        #expect(
            !result.stdout.contains("fake swift") && !result.stdout.contains("fake install-deps"), "\(result.stdout)")
    }
}
