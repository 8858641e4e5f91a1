// The request-path fuzzer: libFuzzer feeds inputs to `WireFuzzer`, which plays each as a hostile
// client against one in-process Strata (headless, two screens). A crash, a Swift trap, an
// AddressSanitizer report or a leak (the server not back at its baseline of live objects, or the
// process not back at its baseline of open descriptors, after the client left) ends the run with
// the input saved. This process is the one place the descriptor count is exact (nothing else
// runs in it), so the check is on here (STRATA_FUZZ_DESCRIPTORS=0 turns it off). Built and run by scripts/fuzz.sh (STRATA_FUZZ=1).
//
// SwiftPM makes this file's top-level code `main`, so it hands over to libFuzzer's driver;
// LLVMFuzzerTestOneInput is defined too (libFuzzer's runtime refers to it).
import CStrataFuzzDriver
import Foundation
import StrataServer
import StrataTestSupport

enum StrataFuzz {
    nonisolated(unsafe) static let fuzzer: WireFuzzer = {
        if ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] == nil {
            setenv("XDG_RUNTIME_DIR", NSTemporaryDirectory(), 0)
        }
        // libWayland's complaint about each bad client is the expected case, not news.
        if ProcessInfo.processInfo.environment["STRATA_FUZZ_VERBOSE"] == nil { Display.logHandler = nil }
        // STRATA_FUZZ_SCALE (scripts/fuzz.sh --scale): every screen at that scale between inputs.
        let scale = ProcessInfo.processInfo.environment["STRATA_FUZZ_SCALE"].flatMap(Double.init) ?? 1
        let descriptors = ProcessInfo.processInfo.environment["STRATA_FUZZ_DESCRIPTORS"] != "0"
        // The sanitizers' symbolizer (two pipes to llvm-symbolizer, kept) before the baseline.
        if descriptors { strata_fuzz_start_symbolizer() }
        let fuzzer = WireFuzzer(server: try! TestServer(screens: 2), screenScale: scale, checksDescriptors: descriptors)
        if let problem = fuzzer.warmUpProblem { fail("strata-fuzz: leak: the warm-up: \(problem)") }
        if descriptors {
            guard let baseline = fuzzer.descriptorBaseline else { fail("strata-fuzz: cannot read /proc/self/fd") }
            let all = baseline.targets.sorted { $0.key < $1.key }.map { (fd: $0.key, target: $0.value) }
            FileHandle.standardError.write(
                Data("strata-fuzz: descriptor baseline: \(OpenDescriptors.describe(all))\n".utf8))
        }
        return fuzzer
    }()

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        abort()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func strataFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let leak = StrataFuzz.fuzzer.run(bytes) { StrataFuzz.fail("strata-fuzz: leak: \(leak)") }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in strataFuzzOneInput(data, size) })
