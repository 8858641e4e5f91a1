import Foundation
import Testing

/// The seam between the shells and the rest: no Swift file under `Sources/` outside the shell's
/// own folder (`Sources/StrataServer/Shell/`) names a concrete shell class. The compositor, the
/// scene (`Sources/StrataServer/Scene/`), the seat, the tools, the control socket and the test
/// support reach a window's wire object only through `WindowContent`/`WindowContentHandle`.
@Suite struct ShellSeamTests {
    /// The concrete shell classes only `Shell/` may name.
    static let shellClasses = ["XdgToplevel", "WlShellSurface"]

    /// The repository's `Sources/`, found from this file's path.
    static var sourcesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    }

    /// Whether a file (a path relative to `Sources/`) may name the shell classes: only the
    /// shell's own files. (Generated code is C, and not scanned.)
    static func mayNameShellClasses(_ relativePath: String) -> Bool {
        relativePath.hasPrefix("StrataServer/Shell/")
    }

    /// Every Swift file under `Sources/`, as paths relative to it.
    static func swiftFiles() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: sourcesDirectory.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    /// The shell class names `text` uses as identifiers (not as part of a longer one).
    static func shellClassesNamed(in text: String) -> [String] {
        shellClasses.filter { name in
            var searchRange = text.startIndex..<text.endIndex
            while let found = text.range(of: name, range: searchRange) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
                let isIdentifierCharacter = { (c: Character?) in
                    c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
                }
                if !isIdentifierCharacter(before), !isIdentifierCharacter(after) { return true }
                searchRange = found.upperBound..<text.endIndex
            }
            return false
        }
    }

    @Test func noFileOutsideTheShellFolderNamesAConcreteShellClass() throws {
        let files = Self.swiftFiles()
        // The walk found the tree (the compositor among it), so an empty list cannot pass.
        #expect(files.contains("StrataServer/Compositor/Compositor.swift"))
        var offenders: [String] = []
        for path in files where !Self.mayNameShellClasses(path) {
            let text = try String(contentsOf: Self.sourcesDirectory.appendingPathComponent(path), encoding: .utf8)
            for name in Self.shellClassesNamed(in: text) { offenders.append("\(path) names \(name)") }
        }
        #expect(offenders == [])
    }

    @Test func theSceneFolderIsHeldToTheSameRule() {
        #expect(!Self.mayNameShellClasses("StrataServer/Scene/Scene.swift"))
        #expect(!Self.mayNameShellClasses("StrataServer/Compositor/Compositor.swift"))
        #expect(!Self.mayNameShellClasses("StrataControl/WindowCommands.swift"))
        #expect(Self.mayNameShellClasses("StrataServer/Shell/XdgToplevel.swift"))
    }

    @Test func theScanFindsAShellClassWhereOneIsNamed() throws {
        let text = try String(
            contentsOf: Self.sourcesDirectory.appendingPathComponent("StrataServer/Shell/XdgToplevel.swift"),
            encoding: .utf8)
        #expect(Self.shellClassesNamed(in: text) == ["XdgToplevel"])
        #expect(Self.shellClassesNamed(in: "let s = x as? WlShellSurface") == ["WlShellSurface"])
        #expect(Self.shellClassesNamed(in: "XdgToplevelDecoration, MyWlShellSurface2, TestToplevel") == [])
    }
}
