import Foundation
import PackagePlugin

/// Writes the C glue of `protocols/*.xml` with Debian's `wayland-scanner` at build time, into this
/// plugin's work folder under `.build` (nothing generated is kept in git): for CStrataProtocolCode
/// the `wl_interface` tables (`<name>-protocol.c`), for CStrataServerGlue and CStrataClientGlue
/// their headers and module map in `include/` (SwiftPM puts that folder on the search path of
/// every module that depends on the target, and makes it wait for the module map). One command per target runs `scripts/generate-protocols.sh`, the one
/// place that knows what is generated.
@main
struct WaylandScanner: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/generate-protocols.sh")
        let protocols = package.appending(path: "protocols")
        let names = try FileManager.default.contentsOfDirectory(atPath: protocols.path())
            .filter { $0.hasSuffix(".xml") }.sorted().map { String($0.dropLast(".xml".count)) }
        let xmls = names.map { protocols.appending(path: "\($0).xml") }
        let out = context.pluginWorkDirectoryURL
        let mode: String
        let outputs: [URL]
        switch target.name {
        case "CStrataProtocolCode":
            mode = "code"
            outputs = names.map { out.appending(path: "\($0)-protocol.c") }
        case "CStrataServerGlue":
            mode = "server"
            outputs =
                names.map { out.appending(path: "include/\($0)-server-protocol.h") }
                + ["include/strata-interfaces.h", "include/module.modulemap", "server-protocols.c"].map {
                    out.appending(path: $0)
                }
        case "CStrataClientGlue":
            mode = "client"
            outputs =
                names.map { out.appending(path: "include/\($0)-client-protocol.h") }
                + ["include/strata-client-protocols.h", "include/module.modulemap", "client-protocols.c"].map {
                    out.appending(path: $0)
                }
        default:
            throw PluginError(
                description:
                    "WaylandScanner generates for CStrataProtocolCode, CStrataServerGlue and CStrataClientGlue, not \(target.name)"
            )
        }
        return [
            .buildCommand(
                displayName: "wayland-scanner: \(mode) glue of \(names.count) protocols",
                executable: URL(filePath: "/bin/bash"),
                arguments: [script.path(), mode, out.path()],
                inputFiles: [script] + xmls,
                outputFiles: outputs)
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
}
