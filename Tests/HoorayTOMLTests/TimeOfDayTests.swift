import HoorayTOML
import Testing

/// Times of day as TOML 1.1 writes them: seconds may be left out, but not when a fraction follows.
@Suite struct TimeOfDayTests {
    @Test func aFractionOfASecondWithoutSecondsIsRefused() {
        let document = TOMLDocument(parsing: "t = 07:32.5\n")
        #expect(document.diagnostics.map(\.line) == [1], "\(document.diagnostics)")
        #expect(TOMLDocument(parsing: "t = 07:32:00.5\n").root["t"]?.value != nil)
        #expect(TOMLDocument(parsing: "t = 07:32\n").isValid)
    }

}
