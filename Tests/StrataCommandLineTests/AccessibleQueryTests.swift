import StrataAccessibility
import Testing

/// The locator's rule, without a bus: what an element says of itself against what was asked.
struct AccessibleQueryTests {
    @Test func rolesMatchInAnyCaseWithSpacesOrDashesAndTheShortNamesTestAuthorsUse() {
        let anyName: () -> String? = { nil }
        #expect(AccessibleQuery(role: "Push-Button").matches(role: "push button", name: "OK", text: anyName))
        #expect(AccessibleQuery(role: "button").matches(role: "push button", name: "OK", text: anyName))
        #expect(AccessibleQuery(role: "button").matches(role: "toggle button", name: "Bold", text: anyName))
        #expect(AccessibleQuery(role: "entry").matches(role: "text", name: "", text: anyName))
        #expect(!AccessibleQuery(role: "button").matches(role: "label", name: "OK", text: anyName))
        #expect(!AccessibleQuery(role: "check box").matches(role: "push button", name: "OK", text: anyName))
    }

    @Test func namesMatchExactlyOrByGlob() {
        let none: () -> String? = { nil }
        #expect(AccessibleQuery(name: "Run").matches(role: "push button", name: "Run", text: none))
        #expect(!AccessibleQuery(name: "Run").matches(role: "push button", name: "Run it", text: none))
        #expect(AccessibleQuery(nameGlob: "App*Class").matches(role: "label", name: "Application Class", text: none))
        #expect(AccessibleQuery(nameGlob: "*").matches(role: "label", name: "", text: none))
        #expect(AccessibleQuery(nameGlob: "a*b*c").matches(role: "label", name: "aXbYbc", text: none))
        #expect(!AccessibleQuery(nameGlob: "a*b*c").matches(role: "label", name: "aXbYc!", text: none))
        // A hostile name and pattern: no recursion, no trap, at most name × pattern steps.
        let long = String(repeating: "a", count: 10_000)
        #expect(
            !AccessibleQuery(nameGlob: String(repeating: "*a", count: 200) + "b").matches(
                role: "label", name: long, text: none))
    }

    @Test func textIsReadOnlyWhenAskedFor() {
        var reads = 0
        let text: () -> String? = {
            reads += 1
            return "hello world"
        }
        #expect(AccessibleQuery(role: "text").matches(role: "text", name: "", text: text))
        #expect(reads == 0)
        #expect(AccessibleQuery(text: "world").matches(role: "text", name: "", text: text))
        #expect(!AccessibleQuery(text: "moon").matches(role: "text", name: "", text: text))
        #expect(reads == 2)
        #expect(!AccessibleQuery(text: "x").matches(role: "label", name: "", text: { nil }))
    }
}
