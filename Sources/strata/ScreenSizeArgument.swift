import ArgumentParser

/// A `--size WIDTHxHEIGHT` value, in physical pixels.
struct ScreenSizeArgument: Equatable {
    static let limit = 16384
    var width: Int
    var height: Int

    static let requirement = "size must be WIDTHxHEIGHT with positive numbers (at most \(limit)), e.g. 1280x720"

    /// Parses `1280x720` (an `X` works as well); throws a `ValidationError` saying what is expected.
    static func parse(_ text: String) throws -> ScreenSizeArgument {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...limit).contains(width), (1...limit).contains(height)
        else { throw ValidationError(requirement) }
        return ScreenSizeArgument(width: width, height: height)
    }
}
