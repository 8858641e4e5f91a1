import StrataRender
import Testing

/// The Xcursor theme through libXcursor (Debian's Adwaita when installed).
@Suite struct CursorThemeTests {
    static let hasTheme = CursorTheme(environment: [:]).image(named: "default") != nil

    @Test func xcursorSizeAndThemeComeFromTheEnvironment() {
        let theme = CursorTheme(environment: ["XCURSOR_SIZE": "48", "XCURSOR_THEME": "Adwaita"])
        #expect(theme.size == 48)
        #expect(theme.themeName == "Adwaita")
        #expect(CursorTheme(environment: ["XCURSOR_SIZE": "junk"]).size == 24)
        #expect(CursorTheme(environment: ["XCURSOR_SIZE": "100000"]).size == 256)
    }

    @Test(.enabled(if: hasTheme, "no Xcursor theme is installed (apt-get install adwaita-icon-theme)"))
    func theSizeChoosesTheImage() throws {
        let small = try #require(CursorTheme(size: 24, environment: [:]).image(named: "default"))
        let large = try #require(CursorTheme(size: 48, environment: [:]).image(named: "default"))
        #expect(large.width > small.width)
        #expect(small.hotspotX < small.width && small.hotspotY < small.height)
    }

    @Test(.enabled(if: hasTheme, "no Xcursor theme is installed (apt-get install adwaita-icon-theme)"))
    func cssNamesFindTheThemesCursorsThroughTheirLegacyAliases() throws {
        let theme = CursorTheme(environment: [:])
        let arrow = try #require(theme.image(named: "default"))
        // Every CSS name cursor-shape uses gives an image, and "text" is not the arrow.
        let missing = CursorTheme.legacyAliases.keys.filter { theme.image(named: $0) == nil }
        #expect(missing.isEmpty, "no image for \(missing.sorted())")
        #expect(CursorTheme.legacyAliases.count == 34)
        let text = try #require(theme.image(named: "text"))
        #expect(text.pixels != arrow.pixels)
        #expect(theme.image(named: "no-such-cursor-name") == nil)
    }
}
