/// One resolution and refresh rate a screen supports (UIKit's `UIScreenMode`).
public struct ScreenMode: Hashable, Sendable, Codable {
    /// Size in physical pixels.
    public var size: Size
    /// Refresh rate in mHz (60 Hz is 60000), as `wl_output.mode` reports it.
    public var refreshMilliHz: Int

    public init(size: Size, refreshMilliHz: Int = 60000) {
        self.size = size
        self.refreshMilliHz = refreshMilliHz
    }

    public init(width: Int, height: Int, refreshMilliHz: Int = 60000) {
        self.init(size: Size(width: width, height: height), refreshMilliHz: refreshMilliHz)
    }
}

extension ScreenMode: CustomStringConvertible {
    /// `"1920x1080@60000mHz"`.
    public var description: String { "\(size)@\(refreshMilliHz)mHz" }
}
