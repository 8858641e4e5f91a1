// `swift package benchmark` (ordo-one/benchmark): frames of the composite scenes of strata-bench,
// with wall clock, CPU and malloc counts (the MallocInterposer trait). The ratios to the pixman
// floor and the other figures are in `strata-bench`'s report.
import Benchmark
import StrataBench

nonisolated(unsafe) var scenes: [Int: CompositeScene] = [:]

func scene(_ windows: Int) -> CompositeScene {
    if let scene = scenes[windows] { return scene }
    let scene = try! CompositeScene(layout: SceneLayout(windows: windows))
    scenes[windows] = scene
    return scene
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .memoryLeaked],
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 200)
    let onePercent = SceneLayout.damageRect(percent: 1)
    for windows in [1, 10, 50] {
        Benchmark("Strata composite, \(windows) windows, full damage") { benchmark in
            let s = scene(windows)
            benchmark.startMeasurement()
            s.compositeFullFrame()
        }
        Benchmark("Strata composite, \(windows) windows, 1 % damage") { benchmark in
            let s = scene(windows)
            benchmark.startMeasurement()
            s.compositeFrame(damage: onePercent)
        }
        Benchmark("pixman floor, \(windows) windows, full damage") { benchmark in
            let floor = PixmanFloor(layout: SceneLayout(windows: windows))
            benchmark.startMeasurement()
            floor.composite()
        }
    }
}
