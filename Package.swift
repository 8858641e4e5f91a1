// swift-tools-version: 6.3;(experimentalCGen)
// experimentalCGen: SwiftPM compiles the C sources and finds the headers that a build-tool plugin
// writes for a C target (WaylandScanner below); Swift 6.3 has it only behind this flag.
import PackageDescription

// Layers, bottom to top (ARCHITECTURE.md): C modules → StrataModel (pure Swift) →
// StrataRender (pixman, libpng) → StrataServer (libwayland wire, backends, the compositor) →
// the `strata` executable. StrataTestSupport holds a real libwayland test client.
let apt = { (names: String...) in [SystemPackageProvider.apt(names)] }
// The wire and render layers live on one thread and one event loop (asserted at run time);
// Swift 6's data-race checking cannot see that through C callbacks, so they build in Swift 5 mode.
let cLayer: [SwiftSetting] = [.swiftLanguageMode(.v5)]
// The per-frame path (model, render, wire) builds its release without Swift's run-time
// exclusivity checks: about 40 checks a frame, each a call into the runtime and a thread-local
// lookup, 14 % of the instructions of a frame and about 6 % of its CPU time (docs/performance.md).
// Debug builds keep them, so the test suite, the ASan runs and WLCS (debug) trap on a violation;
// so does the fuzzer's release build (STRATA_FUZZ), whose job is to find one.
let framePath: [SwiftSetting] =
    Context.environment["STRATA_FUZZ"] != nil
    ? []
    : [
        .unsafeFlags(
            ["-enforce-exclusivity=unchecked", "-Xfrontend", "-function-sections"], .when(configuration: .release))
    ]
// The release `strata` puts the functions a frame runs next to each other (hot-path.order, made
// by bench/hot-path-order.sh): a frame comes after 16 ms asleep, with caches and TLB cold, and its
// code spread over 41 pages of the binary cost a page walk each; ordered, it takes 13. lld
// places each function listed (its own section: -function-sections above, -ffunction-sections
// for the C shim) in that order; names that no longer exist are skipped without a word.
// About 3.5 % of a frame's CPU time (docs/performance.md, "Code layout and huge pages").
let hotPathOrder: [LinkerSetting] =
    Context.environment["STRATA_FUZZ"] != nil
    ? []
    : [
        .unsafeFlags(
            [
                "-use-ld=lld",
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/strata/hot-path.order",
                "-Xlinker", "--no-warn-symbol-ordering",
            ], .when(configuration: .release))
    ]
// The release executables carry the Swift standard library and FoundationEssentials inside
// (`-static-stdlib`): a start then loads and binds eight fewer shared libraries (about 30 % less
// CPU time from exec to the socket, docs/performance.md "Start-up"), and an installed copy runs
// without the toolchain (scripts/install.sh). Debug builds link them dynamically. A linker flag
// alone does not name FoundationEssentials' own static dependencies (SwiftPM's
// --static-swift-stdlib finds them through the compile), so they are named here, for lld, which
// does not depend on the archives' order. `-z pack-relative-relocs` (RELR, glibc 2.36) packs the
// executable's 42,000 relative relocations (1 MB of RELA) into 8 KB: about 0.8 ms less a start.
let staticRelease: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-use-ld=lld", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
            "-Xlinker", "-lswiftSynchronization", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ], .when(configuration: .release))
]

let package = Package(
    name: "Strata",
    products: [
        .executable(name: "strata", targets: ["strata"]),
        .executable(name: "strata-ctl", targets: ["strata-ctl"]),
        .executable(name: "strata-color-client", targets: ["strata-color-client"]),
        .executable(name: "strata-x11-color-client", targets: ["strata-x11-color-client"]),
        .executable(name: "strata-im-client", targets: ["strata-im-client"]),
        .library(name: "StrataServer", targets: ["StrataServer"]),
        .library(name: "StrataModel", targets: ["StrataModel"]),
        // The WLCS integration module (`wlcs path/to/libStrataWLCS.so`), see docs/wlcs.md.
        .library(name: "StrataWLCS", type: .dynamic, targets: ["StrataWLCS"]),
        .library(name: "StrataNestedBackends", targets: ["StrataNestedBackends"]),
        .library(name: "StrataRender", targets: ["StrataRender"]),
        // For the benchmark package in bench/, which builds in-process scenes with real clients.
        .library(name: "StrataTestSupport", targets: ["StrataTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(name: "CWaylandServer", pkgConfig: "wayland-server", providers: apt("libwayland-dev")),
        // libwayland-client, libxcb, libxcb-shm, libxkbcommon-x11 and libxcb-xkb are not linked: the
        // nested backends and the XWM call them through CDeferredLibraries' stubs, which open each
        // library at its first call (a start loads none of them: docs/performance.md, "Start-up").
        // Their headers are in /usr/include; processes without libwayland-server (the test clients)
        // link libwayland-client itself for its wl_*_interface tables.
        .systemLibrary(name: "CWaylandClient", providers: apt("libwayland-dev")),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: apt("libpixman-1-dev")),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: apt("libxkbcommon-dev")),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: apt("libpng-dev")),
        // The toolkits' accessibility trees (AT-SPI), for strata-ctl's locators (docs/accessibility.md).
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: apt("libatspi2.0-dev")),
        // The X11 nested backend (scripts/deps-nested.txt lists the Debian packages).
        .systemLibrary(name: "CXCB", providers: apt("libxcb1-dev", "libxcb-shm0-dev", "libxcb-xfixes0-dev")),
        .systemLibrary(name: "CXKBCommonX11", providers: apt("libxkbcommon-x11-dev", "libxcb-xkb-dev")),
        // A stub per function of those libraries (scripts/generate-deferred-stubs.sh lists them).
        .target(name: "CDeferredLibraries", linkerSettings: [.linkedLibrary("dl")]),
        // The default cursor: libXcursor reads the system's Xcursor theme files (no X display);
        // opened with dlopen at the first cursor, so a start loads neither it nor Xlib.
        .target(name: "CXcursor", linkerSettings: [.linkedLibrary("dl")]),
        // The C glue of protocols/*.xml is not kept in git: the WaylandScanner plugin runs Debian's
        // wayland-scanner (libwayland-bin) at build time, through scripts/generate-protocols.sh.
        .plugin(name: "WaylandScanner", capability: .buildTool()),
        .target(name: "CStrataProtocolCode", plugins: ["WaylandScanner"]),
        .target(
            name: "CStrataServerGlue", dependencies: ["CWaylandServer", "CStrataProtocolCode"],
            cSettings: [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))],
            plugins: ["WaylandScanner"]),
        .target(
            name: "CStrataClientGlue", dependencies: ["CWaylandClient", "CStrataProtocolCode"],
            plugins: ["WaylandScanner"]),

        .target(name: "StrataModel", swiftSettings: framePath),
        // posix_spawn with a clean signal state, and exit statuses: every process Strata starts.
        .target(name: "StrataProcess"),
        .target(
            name: "StrataRender", dependencies: ["CPixman", "CPNG", "CXcursor", "StrataModel"],
            swiftSettings: cLayer + framePath),
        .target(
            name: "StrataServer",
            dependencies: [
                "CWaylandServer", "CStrataServerGlue", "CXKBCommon", "CPixman", "CXCB", "CDeferredLibraries",
                "StrataRender",
                "StrataModel", "StrataProcess",
            ],
            swiftSettings: cLayer + framePath),
        // The control socket: JSON types shared by server and CLI (pure Swift), the server on the
        // compositor's loop, and the `strata-ctl` command line.
        .target(name: "StrataControlProtocol", dependencies: ["StrataModel"]),
        // Traces (pure Swift, for the recorder and strata-ctl): the format, reading, the diff of two,
        // the HTML report and the replay's driver. The recorders on the compositor's loop (traces,
        // video) are StrataRecording; the control server reaches them through its commands.
        .target(name: "StrataTrace", dependencies: ["StrataControlProtocol"]),
        .target(
            name: "StrataRecording",
            dependencies: [
                "StrataTrace", "StrataControlProtocol", "StrataServer", "StrataModel", "StrataRender", "StrataProcess",
                "CWaylandServer", "CStrataServerGlue",
            ],
            swiftSettings: cLayer),
        .target(
            name: "StrataControl",
            dependencies: [
                "StrataControlProtocol", "StrataTrace", "StrataRecording", "StrataServer", "StrataModel",
                "StrataRender",
                "StrataProcess",
            ],
            swiftSettings: cLayer),
        // An AT-SPI client: the accessible objects of a Strata's clients, found by role and name.
        .target(name: "StrataAccessibility", dependencies: ["CAtspi", "StrataModel"]),
        .executableTarget(
            name: "strata-ctl",
            dependencies: [
                "StrataControlProtocol", "StrataTrace", "StrataModel", "StrataProcess", "StrataRender",
                "StrataAccessibility",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticRelease),
        .executableTarget(
            name: "strata",
            dependencies: [
                "StrataServer", "StrataModel", "StrataControl", "StrataControlProtocol", "StrataTrace",
                "StrataRecording",
                "StrataNestedBackends", "StrataProcess", "CWaylandServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["hot-path.order"],
            swiftSettings: cLayer,
            linkerSettings: hotPathOrder + staticRelease),

        .executableTarget(
            name: "strata-color-client",
            dependencies: ["CWaylandClient", "CStrataClientGlue"],
            swiftSettings: cLayer,
            linkerSettings: [.linkedLibrary("wayland-client")]),
        // The X11 counterpart (xcb): a window of one colour for exact stacking pixels.
        .executableTarget(
            name: "strata-x11-color-client",
            dependencies: ["CXCB"],
            swiftSettings: cLayer,
            linkerSettings: [.linkedLibrary("xcb")]),
        // A tiny input method (zwp_input_method_v2) for end-to-end tests and demos.
        .executableTarget(
            name: "strata-im-client",
            dependencies: ["CWaylandClient", "CStrataClientGlue"],
            swiftSettings: cLayer,
            linkerSettings: [.linkedLibrary("wayland-client")]),
        // Strata inside a Wayland or X11 session. libwayland-client and libwayland-server cannot
        // be imported into one Swift file, so this target sees the server only through
        // StrataServer's Swift API.
        .target(
            name: "StrataNestedBackends",
            dependencies: [
                "CWaylandClient", "CStrataClientGlue", "CXCB", "CXKBCommonX11", "CDeferredLibraries",
                "StrataServer", "StrataRender", "StrataModel",
            ],
            swiftSettings: cLayer),

        // WLCS (Debian `wlcs`): the C entry point and structs, and the Swift display server.
        .target(name: "CStrataWLCS", linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(
            name: "StrataWLCS",
            dependencies: ["CStrataWLCS", "StrataServer", "StrataModel", "CWaylandServer"],
            swiftSettings: cLayer),

        .target(
            name: "StrataTestSupport",
            dependencies: ["CWaylandClient", "CStrataClientGlue", "StrataServer", "StrataProcess"],
            // A TestClient reports an unexpected disconnect to Swift Testing; the fuzzer's
            // executable links no test framework.
            swiftSettings: cLayer + (Context.environment["STRATA_FUZZ"] != nil ? [.define("STRATA_NO_TESTING")] : [])),
        // SplitMix64 for the test targets' seeded random scenes and programs.
        .target(name: "StrataTestRandom"),
        .testTarget(name: "StrataProcessTests", dependencies: ["StrataProcess", "StrataTestSupport"]),
        .testTarget(name: "StrataModelTests", dependencies: ["StrataModel", "StrataTestRandom"]),
        .testTarget(
            name: "StrataRenderTests",
            dependencies: ["StrataRender", "StrataModel", "CPixman", "StrataTestRandom", "StrataTestSupport"],
            swiftSettings: cLayer),
        .testTarget(
            name: "StrataServerTests", dependencies: ["StrataTestSupport", "StrataServer", "StrataTestRandom", "CXCB"],
            swiftSettings: cLayer),
        .testTarget(
            name: "StrataNestedBackendTests",
            dependencies: [
                "StrataNestedBackends", "StrataTestSupport", "StrataServer", "StrataRender", "CXCB",
                "CStrataClientGlue",
                "CWaylandClient",
            ],
            swiftSettings: cLayer),
        .testTarget(
            name: "StrataControlTests",
            dependencies: [
                "StrataControl", "StrataControlProtocol", "StrataTrace", "StrataRecording", "StrataTestSupport",
                "StrataServer", "CXKBCommon", "StrataTestRandom",
            ],
            swiftSettings: cLayer),
        // The executables' command lines (strata's hand parse of common lines against swift-argument-parser's;
        // strata-ctl, docs/control.md and the python client against the table of control commands).
        .testTarget(
            name: "StrataCommandLineTests",
            dependencies: ["strata", "strata-ctl", "StrataControlProtocol", "StrataAccessibility"],
            swiftSettings: cLayer),
        .testTarget(
            name: "StrataEndToEndTests", dependencies: ["StrataTestSupport", "StrataRender", "StrataTestRandom"],
            swiftSettings: cLayer),
    ]
)

// The request-path fuzzer (fuzz/, scripts/fuzz.sh) exists only when STRATA_FUZZ is set: it must be
// built with -sanitize=fuzzer, which the ordinary build does not use.
if Context.environment["STRATA_FUZZ"] != nil {
    package.products.append(.executable(name: "strata-fuzz", targets: ["strata-fuzz"]))
    package.targets += [
        .target(name: "CStrataFuzzDriver", path: "fuzz/CStrataFuzzDriver"),
        .executableTarget(
            name: "strata-fuzz", dependencies: ["StrataTestSupport", "StrataServer", "CStrataFuzzDriver"],
            path: "fuzz/strata-fuzz", swiftSettings: cLayer),
    ]
}
