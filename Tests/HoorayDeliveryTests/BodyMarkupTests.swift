import HoorayDelivery
import Testing

@Suite struct BodyMarkupTests {
    @Test(arguments: [
        ("<b>Tom & Jerry</b>", "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"),
        ("plain words", "plain words"),
        ("a && b", "a &amp;&amp; b"),
        ("already &amp; escaped", "already &amp;amp; escaped"),
        ("I <3 swaps", "I &lt;3 swaps"),
        ("quotes \" and ' stay,\nso do newlines", "quotes \" and ' stay,\nso do newlines"),
        ("🎉 <party> 🎉", "🎉 &lt;party&gt; 🎉"),
        ("", ""),
    ])
    func escapingShowsTheTextLiterally(text: String, escaped: String) {
        #expect(BodyMarkup.escape(text) == escaped)
    }

    @Test func plainTextServersGetTheTextUnchanged() {
        let text = "<b>Tom & Jerry</b>"
        #expect(BodyMarkup.body(text, serverReadsMarkup: false) == text)
        #expect(BodyMarkup.body(text, serverReadsMarkup: true) == "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;")
    }

    @Test func controlCharactersAreShownAsSymbolsAndBidiOverridesLeftOut() {
        let text = "Bell\u{07} and \u{1B}[31mred\u{1B}[0m\n\u{202E}reversed"
        let expected = "Bell␇ and ␛[31mred␛[0m\nreversed"
        #expect(BodyMarkup.body(text, serverReadsMarkup: false) == expected)
        #expect(BodyMarkup.body(text, serverReadsMarkup: true) == expected)
    }
}
