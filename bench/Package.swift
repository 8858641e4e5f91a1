// swift-tools-version: 6.1
import PackageDescription

// Strata's benchmarks (docs/performance.md). Their own package, so the main build and its CI never
// compile them: this package depends on the main one by path.
//
// - `strata-bench`: the report. Composite time per frame against the pixman floor, allocations per
//   frame (a malloc counter linked into the executable), memory, commit throughput, start-up time.
// - `Benchmarks/Compositing`: the same frame scenes under ordo-one/benchmark
//   (`swift package benchmark`), with its malloc metrics through the MallocInterposer trait.
let cLayer: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Strata", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // malloc/calloc/realloc/free/posix_memalign/aligned_alloc defined in the executable, so every
        // allocation in the process (Swift runtime, Foundation, pixman, libwayland) is counted.
        .target(name: "CMallocCounter"),
        .target(
            name: "StrataBench",
            dependencies: [
                .product(name: "StrataServer", package: "Strata"),
                .product(name: "StrataRender", package: "Strata"),
                .product(name: "StrataModel", package: "Strata"),
                .product(name: "StrataTestSupport", package: "Strata"),
            ],
            swiftSettings: cLayer),
        .executableTarget(
            name: "strata-bench",
            dependencies: ["StrataBench", "CMallocCounter"],
            swiftSettings: cLayer),
        // Trees and floods: build and teardown of deep and wide subsurface trees, region and
        // damage floods, per node (docs/performance.md, "Trees").
        .executableTarget(
            name: "strata-tree-bench",
            dependencies: [
                .product(name: "StrataServer", package: "Strata"),
                .product(name: "StrataTestSupport", package: "Strata"),
            ],
            swiftSettings: cLayer),
        .executableTarget(
            name: "Compositing",
            dependencies: [
                "StrataBench",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Compositing",
            swiftSettings: cLayer,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
