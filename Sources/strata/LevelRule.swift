import ArgumentParser
import StrataModel

/// A `--level APPID=LEVEL` rule: windows of the application `appID` open at `level`.
struct LevelRule: Equatable {
    var appID: String
    var level: WindowLevel

    static let requirement =
        "level rules are APPID=LEVEL, where LEVEL is "
        + WindowLevel.namedLevels.map(\.name).joined(separator: ", ") + " or a number"

    /// Parses `org.example.app=alert` or `org.example.app=1500`.
    static func parse(_ text: String) throws -> LevelRule {
        guard let equals = text.lastIndex(of: "=") else { throw ValidationError(requirement) }
        let appID = String(text[..<equals])
        guard !appID.isEmpty, let level = WindowLevel(name: String(text[text.index(after: equals)...])) else {
            throw ValidationError(requirement)
        }
        return LevelRule(appID: appID, level: level)
    }
}
