import ArgumentParser
import Foundation
import StrataControlProtocol
import Testing
@testable import strata_ctl

/// What must follow the table of control commands (`ControlCommand.all`) and cannot be derived
/// from it: docs/control.md documents every command (with its aliases and arguments) and
/// nothing else, each documented `strata-ctl` form names real subcommands (or the cell says
/// why there is none), and the python client lists every command.
@Suite struct ControlCommandCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// docs/control.md's command rows ("## Commands" up to "## Events"): the command's name (the
    /// first cell's first code span), then the cells.
    static func documentedRows() throws -> [String: [String]] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/control.md"), encoding: .utf8)
        guard let start = text.range(of: "\n## Commands\n"), let end = text.range(of: "\n## Events\n") else {
            Issue.record("docs/control.md has no \"## Commands\" or \"## Events\" section")
            return [:]
        }
        var rows: [String: [String]] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = cells(of: String(line))
            guard let name = codeSpans(cells[0]).first else { continue }
            #expect(rows[name] == nil, "docs/control.md documents \(name) twice")
            rows[name] = cells
        }
        return rows
    }

    /// A table line's cells, split at `|` but not at `\|`.
    static func cells(of line: String) -> [String] {
        var cells: [String] = [], cell = "", previous: Character = " "
        for character in line.dropFirst() {
            if character == "|" && previous != "\\" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        return cells
    }

    /// The text of each `code span`.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    @Test func theDocsDocumentEveryCommandAndNothingElse() throws {
        let rows = try Self.documentedRows()
        #expect(Set(rows.keys) == Set(ControlCommand.all.map(\.name)))
        for command in ControlCommand.all {
            guard let cells = rows[command.name], cells.count >= 3 else { continue }
            for alias in command.aliases {
                #expect(Self.codeSpans(cells[0]).contains(alias), "docs/control.md: \(command.name)'s alias \(alias)")
            }
            let spans = Set(Self.codeSpans(cells[1]))
            for argument in command.argumentNames {
                #expect(
                    spans.contains(argument) || spans.contains(argument + "?"),
                    "docs/control.md: \(command.name)'s argument \(argument) is not documented")
            }
        }
    }

    /// Each `strata-ctl …` form in a row's third cell walks down real subcommands for as long as
    /// the command it reached has subcommands; a row without a form says why after a "—".
    @Test func strataCtlHasASubcommandForEachCommand() throws {
        for (name, cells) in try Self.documentedRows() {
            guard cells.count >= 3 else {
                Issue.record("docs/control.md: \(name)'s row has no strata-ctl cell")
                continue
            }
            let forms = Self.codeSpans(cells[2]).filter { $0.hasPrefix("strata-ctl ") }
            if forms.isEmpty {
                let reason = cells[2].hasPrefix("—") ? cells[2].dropFirst().trimmingCharacters(in: .whitespaces) : ""
                #expect(!reason.isEmpty, "docs/control.md: \(name) has no strata-ctl form and no \"— reason\"")
                continue
            }
            for form in forms {
                var command: any ParsableCommand.Type = StrataCtl.self
                var path: [String] = []
                for word in form.split(separator: " ").dropFirst().map(String.init) {
                    let subcommands = command.configuration.subcommands
                    if subcommands.isEmpty { break }
                    guard let next = subcommands.first(where: { $0._commandName == word }) else {
                        let parent = (["strata-ctl"] + path).joined(separator: " ")
                        Issue.record("docs/control.md: `\(form)`: \(parent) has no subcommand \(word)")
                        break
                    }
                    command = next
                    path.append(word)
                }
                #expect(!path.isEmpty, "docs/control.md: `\(form)` names no strata-ctl subcommand")
            }
        }
    }

    @Test func thePythonClientListsEveryCommand() throws {
        let file = Self.root.appendingPathComponent("python/src/strata_testing/control.py")
        let text = try String(contentsOf: file, encoding: .utf8)
        guard let start = text.range(of: "\nCOMMANDS = ("),
            let end = text.range(of: "\n)", range: start.upperBound..<text.endIndex)
        else {
            Issue.record("python/src/strata_testing/control.py has no COMMANDS tuple")
            return
        }
        let names = text[start.upperBound..<end.lowerBound].split(separator: "\"", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(names.count == Set(names).count)
        #expect(Set(names) == Set(ControlCommand.all.map(\.name)))
    }
}
